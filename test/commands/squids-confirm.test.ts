// The question asked on a terminal: "yes" deletes, and the question names the squid.
// ("no" is not tested in-process: inquirer ends the output stream it pipes to, which the in-process harness's
// stderr then rejects when main.ts prints the cancellation; a real process.stderr is never ended.)
import { beforeEach, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
let paris: string;
beforeEach(() => {
  paris = emu.squidId(DEMO_SQUIDS.paris);
});

it('answering yes on a terminal deletes', async () => {
  const r = await sq(['squids', 'delete', 'Paris restaurants'], { env: emu.env(), tty: true, stdin: 'y\n' });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(`Delete squid "Paris restaurants" (${paris})`);
  expect((await emu.requests()).map((q) => q.method)).toEqual(['GET', 'DELETE']);
});
