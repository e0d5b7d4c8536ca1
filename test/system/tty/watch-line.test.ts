// A real terminal (tmux) at 80 columns: `sq runs watch` on a paused run puts the pause reason right after the state,
// so the cut at the terminal's edge takes the counts, never the reason, and the line never wraps; "?%" and "ETA ∞"
// (the API's "not known yet") are not shown.
import { expect, it } from 'vitest';
import { DEMO_SQUIDS } from '../../../src/emulator/seed.js';
import { displayWidth } from '../../../src/output/width.js';
import { type Term, useTmuxEmulator } from './tmux.js';

const { emu, open } = useTmuxEmulator();
let term: Term | undefined;

it('sq runs watch on an 80-column terminal: the pause reason comes first and stays on screen', async () => {
  // The demo squid whose account limit is exhausted: its run pauses after a few seconds of (virtual) time.
  const run = await emu.api('/v1/runs', { method: 'POST', body: { squid: emu.squidId(DEMO_SQUIDS.leads) } });
  let status = '';
  for (let i = 0; i < 200 && status !== 'paused'; i++) {
    await emu.advance(1000);
    status = String((await emu.api(`/v1/runs/${run.id}`)).status);
  }
  expect(status).toBe('paused');
  term = await open(['runs', 'watch', String(run.id), '--interval', '1s'], {}, { width: 80, height: 20 });
  const screen = await term.waitFor(/paused \(no_account_available/, 30_000);
  const line = screen.split('\n').find((l) => l.includes('paused ('))!;
  expect(line).toContain(`run ${String(run.id).slice(0, 8)}: paused (no_account_available: Every account`);
  expect(displayWidth(line)).toBeLessThanOrEqual(80);
  // The line is cut, not wrapped: nothing of it spills onto the next row.
  const next = screen.split('\n')[screen.split('\n').indexOf(line) + 1] ?? '';
  expect(next.trim()).toBe('');
  expect(screen).not.toMatch(/\?%|ETA ∞/);
  await term.keys('C-c');
  expect(await term.waitFor(/EXIT:\d+/)).toMatch(/EXIT:130/);
}, 90_000);
