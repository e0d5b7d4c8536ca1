// On a terminal, waiting draws a progress bar on stderr (percent, tasks, results, elapsed) and erases it before
// the final record; the virtual clock is moved by the test between two polls of the CLI in-process (gatedSqClock).
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { tempDir } from '../helpers/fs.js';
import { gatedSqClock } from '../helpers/clock.js';
import { waitFor } from '../helpers/wait.js';

const emu = useEmulator({ each: 'reset' });

it('draws a bar in place with percent, tasks done/total, results and elapsed, then prints the run', async () => {
  const run = await emu.api('/v1/runs', { method: 'POST', body: { squid: emu.squidId(DEMO_SQUIDS.paris) } });
  // One poll per step of sq's clock, and the emulator's clock moves between two polls: every state is seen, and the
  // polls stay well inside the /v1/runs budget.
  const clock = gatedSqClock();
  let finished = false;
  const p = sq(['runs', 'watch', run.id, '--interval', '20ms', '--json'], { env: emu.env(), tty: true, clock }).finally(
    () => (finished = true),
  );
  for (let i = 0; i < 40 && !finished; i++) {
    await waitFor(() => clock.sleeping || finished, Boolean, 'a poll', 10_000);
    await emu.advance(500);
    clock.step();
  }
  const r = await p;
  expect(r.code).toBe(0);
  const final = JSON.parse(r.stdout);
  expect(final.status).toBe('done');
  expect(final.export_done).toBe(true);
  // a running frame: bar, short id, percent, tasks, results, ETA, elapsed, redrawn with \r and erase-line
  const short = String(run.id).slice(0, 8);
  expect(r.stderr).toMatch(
    new RegExp(
      `\\r\\x1b\\[2K\\[[#-]{24}\\] run ${short}: running \\d+% tasks \\d/3 results \\d+ ETA 0:\\d\\d:\\d\\d \\(elapsed 0:\\d\\d\\)`,
    ),
  );
  // a status change is kept on screen as its own line
  expect(r.stderr).toMatch(new RegExp(`\\x1b\\[2Krun ${run.id}: [a-z]+ → (uploading|done)\\n`));
  // the last frame shows the finished run, and the bar is erased before the record is printed
  expect(r.stderr).toMatch(
    new RegExp(
      `\\[#{24}\\] run ${short}: done 100% results ${final.total_results} \\(elapsed 0:\\d\\d\\)\\r\\x1b\\[2K$`,
    ),
  );
}, 60_000);

/**
 * Watches a run of the demo squid whose account limit is exhausted: it pauses, stays paused for a few polls, then
 * resumes. The emulator's clock only moves between two polls of the CLI (gatedSqClock), so no state is skipped.
 */
async function watchThroughPause(tty: boolean) {
  const run = await emu.api('/v1/runs', { method: 'POST', body: { squid: emu.squidId(DEMO_SQUIDS.leads) } });
  const clock = gatedSqClock();
  let finished = false;
  /** Lets sq poll `n` more times, the emulator's clock still. */
  const afterPolls = async (n: number) => {
    for (let i = 0; i < n && !finished; i++) {
      await waitFor(() => clock.sleeping || finished, Boolean, 'a poll', 10_000);
      if (i < n - 1) clock.step();
    }
  };
  const cache = tempDir('sq-cache-');
  const p = sq(['runs', 'watch', run.id, '--interval', '20ms', '--json'], {
    env: emu.env({ SQ_CACHE_DIR: cache }),
    tty,
    clock,
  }).finally(() => (finished = true));
  let pausedSeen = false;
  for (let i = 0; i < 100 && !finished; i++) {
    await afterPolls(1);
    const now = await emu.api(`/v1/runs/${run.id}`);
    if (now.status === 'paused' && !pausedSeen) {
      pausedSeen = true;
      clock.step();
      await afterPolls(3);
      await emu.advance(300_000);
    } else await emu.advance(2000);
    clock.step();
  }
  expect(pausedSeen).toBe(true);
  try {
    return { run, r: await p };
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

const REASON = 'no_account_available: Every account reached its daily limit; the run resumes when it resets.';

it('on a terminal, a pause shows its reason first on the bar (no "ETA ∞"), and the change keeps the whole reason on screen', async () => {
  const { run, r } = await watchThroughPause(true);
  expect(r.code).toBe(0);
  const short = String(run.id).slice(0, 8);
  expect(r.stderr).toContain(`\x1b[2Krun ${run.id}: running → paused (${REASON})\n`);
  expect(r.stderr).toContain(`\x1b[2Krun ${run.id}: paused (${REASON}) → running\n`);
  // The line is cut at the terminal's width (120 here): the bar goes first, then the counts; the reason, right after
  // the state, is what stays.
  expect(r.stderr).toMatch(new RegExp(`\\r\\x1b\\[2Krun ${short}: paused \\(no_account_available: Every account`));
  expect(r.stderr).not.toContain('ETA ∞');
});

it('piped, a pause is one plain line with its reason and ETA, printed once however many polls see it', async () => {
  const { run, r } = await watchThroughPause(false);
  expect(r.code).toBe(0);
  expect(r.stderr).not.toContain('\r');
  const lines = r.stderr.split('\n');
  const paused = lines.filter((l) => l.includes(': paused '));
  expect(paused).toHaveLength(1);
  expect(paused[0]).toMatch(
    new RegExp(
      `^run ${run.id}: paused \\(${REASON.replace(/[.;]/g, '\\$&')}\\) \\d+% tasks \\d/\\d results \\d+ \\(elapsed \\d+:\\d\\d\\)$`,
    ),
  );
  // running lines carry an ETA as H:MM:SS
  expect(
    lines.some((l) => new RegExp(`^run ${run.id}: running \\d+% .* ETA \\d+:\\d\\d:\\d\\d \\(elapsed`).test(l)),
  ).toBe(true);
});
