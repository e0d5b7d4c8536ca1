// The question asked on a terminal: "yes" deletes, and the question names the squid.
// ("no" is not tested in-process: inquirer ends the output stream it pipes to, which the in-process harness's
// stderr then rejects when main.ts prints the cancellation; a real process.stderr is never ended.)
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS, squidIdByName } from '../../src/emulator/seed.js';

let emu: TestEmulator;
let paris: string;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  await emu.control('POST', '/_emulator/reset');
  await emu.clearRequests();
  paris = squidIdByName(emu.emu.state, DEMO_SQUIDS.paris)!;
});

it('answering yes on a terminal deletes', async () => {
  const r = await sq(['squids', 'delete', 'Paris restaurants'], { env: emu.env(), tty: true, stdin: 'y\n' });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(`Delete squid "Paris restaurants" (${paris})`);
  expect((await emu.requests()).map((q) => q.method)).toEqual(['GET', 'DELETE']);
});
