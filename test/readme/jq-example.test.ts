// The README's --jq example runs as written against the emulator and finds the squid whose last run failed: the API
// spells a squid's last_run_status in capitals (ERROR), so a filter on "error" would print nothing.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator();
const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

it('sq squids list --jq select(.last_run_status == …) prints the failing squid', async () => {
  const m = /^sq squids list --jq '([^']*last_run_status[^']*)'/m.exec(readme);
  expect(m, 'the README has the example').not.toBeNull();
  const r = await sq(['squids', 'list', '--jq', m![1]], { env: emu.env() });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe(`${DEMO_SQUIDS.jobs}\n`);
});
