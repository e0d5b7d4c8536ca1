// The question asked on a terminal: "no" cancels (exit 1, nothing deleted), "yes" deletes.
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

it('answering no on a terminal cancels: exit 1 and no DELETE', async () => {
  const r = await sq(['squids', 'delete', paris], { env: emu.env(), tty: true, stdin: 'n\n' });
  expect(r.stderr).toContain('Delete squid "Paris restaurants"');
  expect(r.code).toBe(1);
  expect((await emu.requests()).map((q) => q.method)).toEqual(['GET']);
});

it('answering yes on a terminal deletes', async () => {
  const r = await sq(['squids', 'delete', 'Paris restaurants'], { env: emu.env(), tty: true, stdin: 'y\n' });
  expect(r.code).toBe(0);
  expect((await emu.requests()).map((q) => q.method)).toEqual(['GET', 'DELETE']);
});
