// The `squids chain set` help examples run as written against the demo data: the crawler they name exists there
// (issue 36: the example named google-maps-reviews, which the demo account does not have).
import { expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import spec from '../../src/commands/squids/chain/set.js';

const emu = useEmulator({ each: 'reset' });

/** An example line's words, as a shell splits them (double quotes only, as the examples use). */
const words = (line: string) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);

it('each example runs against the emulator, in order: the chain is created, then changed', async () => {
  emu.expectWrites('POST /v1/squids/*/chain', 'PATCH /v1/squids/*/chain');
  expect(spec.examples.length).toBeGreaterThan(0);
  for (const line of spec.examples) {
    const [cmd, ...args] = words(line);
    expect(cmd).toBe('sq');
    const r = await sq(args, { env: emu.env() });
    expect(r.code, `${line}\n${r.stderr}`).toBe(0);
  }
  const show = await sq(['squids', 'chain', 'Paris restaurants', '--json'], { env: emu.env() });
  expect(show.code, show.stderr).toBe(0);
  expect(show.stdout).toContain('Similar places');
});
