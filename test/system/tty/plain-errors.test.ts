// A real terminal (tmux): an error is a plain line for the person reading it (issue 48). A --jq error printed a JSON
// blob; "n" at a delete's confirmation exited 1, as a failure does.
import { afterEach, expect, it } from 'vitest';
import { DEMO_SQUIDS } from '../../../src/emulator/seed.js';
import { type Term, useTmuxEmulator } from './tmux.js';

const { emu, open } = useTmuxEmulator();
let term: Term | undefined;
afterEach(async () => {
  await term?.close();
  term = undefined;
});

it("sq squids list --jq '.[] | boom' prints one plain line and exits 2", async () => {
  term = await open(['squids', 'list', '--jq', '.[] | boom'], {}, { width: 80, height: 20 });
  const screen = await term.waitFor(/EXIT:\d+/);
  expect(screen).toMatch(/EXIT:2/);
  const lines = screen.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('EXIT:'));
  expect(lines).toEqual(['error: --jq: boom/0 is not defined at <top-level>, line 1: .[] | boom']);
}, 60_000);

it('"n" at a delete\'s confirmation exits 11 (cancelled) and deletes nothing', async () => {
  await emu.clearRequests();
  term = await open(['squids', 'delete', DEMO_SQUIDS.lyon]);
  await term.waitFor(/\(y\/N\)/);
  await term.keys('n', 'Enter');
  const after = await term.waitFor(/EXIT:\d+/);
  expect(after).toMatch(/EXIT:11/);
  expect(after).toMatch(/cancelled/);
  expect((await emu.requests()).filter((r) => r.method !== 'GET')).toEqual([]);
}, 60_000);
