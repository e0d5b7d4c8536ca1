// On a terminal, waiting draws a progress bar on stderr (percent, tasks, results, elapsed) and erases it before
// the final record; the virtual clock is moved by the test while the CLI polls in-process.
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { tempDir } from '../helpers/fs.js';

const emu = useEmulator({ each: 'reset' });

it('draws a bar in place with percent, tasks done/total, results and elapsed, then prints the run', async () => {
  const run = await emu.api('/v1/runs', { method: 'POST', body: { squid: emu.squidId(DEMO_SQUIDS.paris) } });
  // The clock moves only after the CLI has polled: client pacing (shared by every sq of the machine) may space the
  // polls out, and a blind clock would let the run finish between two of them, never showing it running.
  const statsPath = `/v1/runs/${run.id}/stats`;
  const polls = async () => (await emu.requests()).filter((q) => q.path === statsPath).length;
  let finished = false;
  const p = sq(['runs', 'watch', run.id, '--interval', '20ms', '--json'], { env: emu.env(), tty: true }).finally(() => (finished = true));
  for (let i = 0; i < 40 && !finished; i++) {
    const target = (await polls()) + 1;
    for (let j = 0; j < 100 && !finished && (await polls()) < target; j++) await new Promise((r) => setTimeout(r, 30));
    await emu.advance(500);
  }
  const r = await p;
  expect(r.code).toBe(0);
  const final = JSON.parse(r.stdout);
  expect(final.status).toBe('done');
  expect(final.export_done).toBe(true);
  // a running frame: bar, short id, percent, tasks, results, ETA, elapsed, redrawn with \r and erase-line
  const short = String(run.id).slice(0, 8);
  expect(r.stderr).toMatch(new RegExp(`\\r\\x1b\\[2K\\[[#-]{24}\\] run ${short}: running \\d+% tasks \\d/3 results \\d+ ETA 0:\\d\\d:\\d\\d \\(elapsed 0:\\d\\d\\)`));
  // a status change is kept on screen as its own line
  expect(r.stderr).toMatch(new RegExp(`\\x1b\\[2Krun ${run.id}: [a-z]+ → (uploading|done)\\n`));
  // the last frame shows the finished run, and the bar is erased before the record is printed
  expect(r.stderr).toMatch(new RegExp(`\\[#{24}\\] run ${short}: done 100% results ${final.total_results} \\(elapsed 0:\\d\\d\\)\\r\\x1b\\[2K$`));
}, 60_000);

/**
 * Watches a run of the demo squid whose account limit is exhausted: it pauses, stays paused for a few polls, then
 * resumes. The clock only moves after the CLI has polled (its stats requests are counted), so no state is skipped
 * even when client pacing slows the polls down.
 */
async function watchThroughPause(tty: boolean) {
  const run = await emu.api('/v1/runs', { method: 'POST', body: { squid: emu.squidId(DEMO_SQUIDS.influencers) } });
  const statsPath = `/v1/runs/${run.id}/stats`;
  const polls = async () => (await emu.requests()).filter((q) => q.path === statsPath).length;
  const afterPolls = async (n: number) => {
    const target = (await polls()) + n;
    for (let i = 0; i < 100 && !finished && (await polls()) < target; i++) await new Promise((r) => setTimeout(r, 30));
  };
  let finished = false;
  const cache = tempDir('sq-cache-');
  const p = sq(['runs', 'watch', run.id, '--interval', '20ms', '--json'], { env: emu.env({ SQ_CACHE_DIR: cache }), tty }).finally(
    () => (finished = true),
  );
  let pausedSeen = false;
  for (let i = 0; i < 100 && !finished; i++) {
    await afterPolls(1);
    const now = await emu.api(`/v1/runs/${run.id}`);
    if (now.status === 'paused' && !pausedSeen) {
      pausedSeen = true;
      await afterPolls(3);
      await emu.advance(300_000);
    } else await emu.advance(2000);
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
  expect(paused[0]).toMatch(new RegExp(`^run ${run.id}: paused \\(${REASON.replace(/[.;]/g, '\\$&')}\\) \\d+% tasks \\d/\\d results \\d+ \\(elapsed \\d+:\\d\\d\\)$`));
  // running lines carry an ETA as H:MM:SS
  expect(lines.some((l) => new RegExp(`^run ${run.id}: running \\d+% .* ETA \\d+:\\d\\d:\\d\\d \\(elapsed`).test(l))).toBe(true);
});
