// A real terminal (tmux): enabling auto-reset above the threshold shows the warning and a confirmation; "n" sends
// nothing and exits 11 (cancelled).
import { expect, it } from 'vitest';
import { type Term, useTmuxEmulator } from './tmux.js';

const { emu, open } = useTmuxEmulator();
let term: Term | undefined;

it('warns, asks, and on "n" exits 11 (cancelled) having sent the GET and no POST', async () => {
  await emu.control('POST', '/_emulator/usage', { pct: 60 });
  await emu.clearRequests();
  term = await open(['billing', 'auto-reset', '--enable', '--threshold', '50']);
  const screen = await term.waitFor(/Each reset charges the card on file/);
  expect(screen).toMatch(/warning: current usage is 60%, above the 50% threshold: a reset fires/);
  expect(screen).toMatch(/Enable automatic billing reset \(threshold 50%, up to 3 per 24 h\)\?/);
  expect(screen).toMatch(/\(y\/N\)/);
  await term.keys('n', 'Enter');
  const after = await term.waitFor(/EXIT:\d+/);
  expect(after).toMatch(/EXIT:11/);
  expect(after).toMatch(/cancelled: nothing was sent/);
  const reqs = await emu.requests();
  expect(reqs.filter((r) => r.method === 'GET' && r.path === '/v1/plans/auto-reset')).toHaveLength(1);
  expect(reqs.filter((r) => r.method === 'POST')).toEqual([]);
  expect((await emu.control('GET', '/_emulator/outbox')) as unknown[]).toEqual([]);
}, 60_000);

it('answering "y" saves it, and the reset fires at once', async () => {
  await term?.close();
  await emu.control('POST', '/_emulator/reset');
  await emu.control('POST', '/_emulator/usage', { pct: 60 });
  await emu.clearRequests();
  term = await open(['billing', 'auto-reset', '--enable', '--threshold', '50']);
  await term.waitFor(/Each reset charges the card on file/);
  await term.keys('y', 'Enter');
  const after = await term.waitFor(/EXIT:\d+/);
  expect(after).toMatch(/EXIT:0/);
  expect(after).toMatch(/a reset fired just now/);
  const posts = await emu.requests('POST');
  expect(posts.map((p) => p.body)).toEqual([{ enabled: true, threshold_pct: 50 }]);
}, 60_000);
