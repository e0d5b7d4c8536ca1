// Waiting for a run (`runs start --wait`, `runs watch`): poll the run and its stats until a terminal status, then
// until the export is ready, because results and downloads only exist once `export_done` is true.
import { defineOptions, type OptionsOf } from '../cli/command.js';
import type { Ctx } from '../cli/context.js';
import type { HttpClient } from '../api/http.js';
import { InterruptedError, NotFoundError, RunFailedError, TimeoutError, UsageError } from '../errors.js';
import {
  durationSeconds,
  formatDurationCell,
  getRun,
  getRunStats,
  isLoopback,
  isTerminal,
  MIN_POLL_MS,
  parsePercent,
  runStatus,
} from '../api/runs.js';
import type { Run, RunStats } from '../api/records.js';
import { durationFlag } from '../validate/index.js';
import { formatDuration, MAX_INTERVAL_MS } from '../validate/duration.js';
import { Progress, count, elapsed } from '../io/progress.js';
import { finiteNumber } from '../lib/guards.js';

const DEFAULT_INTERVAL_MS = 5000;

export const WAIT_OPTIONS = defineOptions([
  {
    flags: '--timeout <duration>',
    description: 'give up waiting after this long, at most 7d (exit 7; the run continues on the server)',
    defaultText: 'no limit',
  },
  {
    flags: '--interval <duration>',
    description: 'time between polls, at most 1h; at least 5s against the live service',
    defaultText: '5s',
  },
]);

interface WaitSettings {
  timeoutMs: number | null;
  intervalMs: number;
}

/** Validate --timeout/--interval before any request. Below 5 s is only allowed against a loopback (emulator) URL. */
export async function waitSettings(ctx: Ctx, opts: OptionsOf<typeof WAIT_OPTIONS>): Promise<WaitSettings> {
  const timeoutMs = opts.timeout === undefined ? null : durationFlag('--timeout', opts.timeout);
  const intervalMs =
    opts.interval === undefined
      ? DEFAULT_INTERVAL_MS
      : durationFlag('--interval', opts.interval, { maxMs: MAX_INTERVAL_MS });
  if (intervalMs < MIN_POLL_MS) {
    const { baseUrl } = await ctx.http({ auth: false });
    if (!isLoopback(baseUrl)) {
      throw new UsageError(
        `--interval must be at least 5s against ${new URL(baseUrl).host} (the service asks clients ` +
          `not to poll runs faster; got "${String(opts.interval)}"); shorter intervals are allowed only ` +
          `against a local emulator`,
      );
    }
  }
  return { timeoutMs, intervalMs };
}

interface Snapshot {
  status: string;
  percent: number | null;
  tasksDone: number | null;
  tasksTotal: number | null;
  results: number | null;
  exportDone: boolean;
  /** Why the run is paused or failed ("no_credits_left: No credits left…"); '' otherwise. */
  reason: string;
  /** The API's eta as H:MM:SS, or "∞" while unknown; '' when there is none. */
  eta: string;
}

/**
 * `runs watch` and `runs start --wait`: waits, then prints the run as it ended whatever the outcome: done and exported
 * (exit 0), error or aborted (exit 6), or as it stood when --timeout gave up (exit 7). A script reading --json gets the
 * run, its status and done_reason on stdout in each case; the error says why on stderr.
 */
export async function waitAndShow(ctx: Ctx, http: HttpClient, runId: string, s: WaitSettings): Promise<void> {
  let run: Run;
  try {
    run = await waitForRun(ctx, http, runId, s);
  } catch (err) {
    if ((err instanceof RunFailedError || err instanceof TimeoutError) && err.run)
      await ctx.out.record(err.run, { title: `Run ${runId}` });
    throw err;
  }
  await ctx.out.record(run, { title: `Run ${runId}` });
  ctx.out.success(`Run ${runId} done: ${String(run.total_results ?? 0)} results, export ready`);
}

/** Polls until the run is done and exported. Returns the final run; throws RunFailedError / TimeoutError, with the run. */
export async function waitForRun(ctx: Ctx, http: HttpClient, runId: string, s: WaitSettings): Promise<Run> {
  const started = ctx.now();
  const deadline = s.timeoutMs === null ? null : started + s.timeoutMs;
  const progress = new Progress({
    stream: ctx.io.stderr,
    tty: ctx.io.stderrIsTTY,
    enabled: !ctx.globals.quiet,
    columns: ctx.io.columns,
    now: ctx.now,
  });
  let lastStatus = '';
  try {
    for (;;) {
      const run = await getRun(http, runId);
      const status = runStatus(run);
      let stats: RunStats | null = null;
      if (!isTerminal(status)) stats = await statsOrNull(http, runId);
      const snap = snapshot(run, stats);
      const state = snap.reason ? `${status} (${snap.reason})` : status;
      if (state !== lastStatus) {
        // Plain lines carry the state anyway; on a terminal the change stays on screen above the bar.
        if (lastStatus !== '' && ctx.io.stderrIsTTY) progress.log(`run ${runId}: ${lastStatus} → ${state}`);
        lastStatus = state;
      }
      // A bar has one line of room: the run is named by its first 8 characters there (full in every kept line).
      progress.update(render(ctx.io.stderrIsTTY ? runId.slice(0, 8) : runId, snap, ctx.now() - started));

      if (status === 'error' || status === 'aborted') {
        progress.clear();
        const reason = typeof run.done_reason === 'string' && run.done_reason ? run.done_reason : 'no reason given';
        const desc =
          typeof run.done_reason_desc === 'string' && run.done_reason_desc ? `: ${run.done_reason_desc}` : '';
        throw Object.assign(
          new RunFailedError(`run ${runId} ended with status ${status} (done_reason: ${reason}${desc})`),
          { run },
        );
      }
      if (status === 'done' && run.export_done === true) {
        progress.clear();
        return run;
      }
      const now = ctx.now();
      if (deadline !== null && now >= deadline) {
        progress.clear();
        const what =
          status === 'done'
            ? 'the run is done but its export is not ready yet'
            : `the run is ${status || 'in an unknown state'}`;
        throw Object.assign(
          new TimeoutError(
            `gave up waiting for run ${runId} after ${formatDuration(s.timeoutMs ?? 0)}: ${what}. The run continues on the server; ` +
              `follow it with \`sq runs watch ${runId}\``,
          ),
          { run },
        );
      }
      await ctx.sleep(deadline === null ? s.intervalMs : Math.min(s.intervalMs, Math.max(1, deadline - now)));
    }
  } catch (err) {
    progress.clear();
    if (ctx.signal.aborted && !(err instanceof RunFailedError) && !(err instanceof TimeoutError)) {
      ctx.out.info(
        `Stopped waiting. Run ${runId} keeps going on the server: \`sq runs watch ${runId}\` to follow it, \`sq runs abort ${runId}\` to stop it.`,
        { force: true },
      );
      // The signal's own exit code: 143 for SIGTERM (a CI timeout), not always SIGINT's 130.
      throw ctx.signal.reason instanceof InterruptedError ? ctx.signal.reason : new InterruptedError();
    }
    throw err;
  }
}

/** Stats only feed the progress display: a run without stats (404) is still waited for. */
async function statsOrNull(http: HttpClient, runId: string): Promise<RunStats | null> {
  try {
    return await getRunStats(http, runId);
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

function snapshot(run: Run, stats: RunStats | null): Snapshot {
  const status = runStatus(run);
  let percent = stats ? parsePercent(stats.percent_done) : null;
  if (status === 'done') percent = 100;
  return {
    status,
    percent,
    tasksDone: stats ? finiteNumber(stats.total_tasks_done) : null,
    tasksTotal: stats ? finiteNumber(stats.total_tasks) : null,
    results: finiteNumber(stats?.total_results) ?? finiteNumber(run.total_results),
    exportDone: run.export_done === true,
    reason: status === 'paused' || status === 'error' || status === 'aborted' ? reasonOf(run) : '',
    eta: status === 'done' || isTerminal(status) ? '' : etaOf(stats?.eta),
  };
}

function reasonOf(run: Run): string {
  const code = typeof run.done_reason === 'string' ? run.done_reason.trim() : '';
  const desc = typeof run.done_reason_desc === 'string' ? run.done_reason_desc.trim() : '';
  return [code, desc].filter(Boolean).join(': ');
}

/** "0:01:30" / 90 → "0:01:30"; "∞" (the API's "not known yet") stays; anything else is left out. */
function etaOf(v: unknown): string {
  if (typeof v === 'string' && v.trim() === '∞') return '∞';
  return durationSeconds(v) === null ? '' : formatDurationCell(v);
}

function render(label: string, s: Snapshot, ms: number): { fraction: number | null; text: string; key: string } {
  // What is not known is left out rather than shown as "?%" or "ETA ∞" (the API's "not known yet").
  const parts = s.percent === null ? [] : [`${Math.floor(s.percent)}%`];
  if (s.tasksTotal) parts.push(`tasks ${count(s.tasksDone ?? 0)}/${count(s.tasksTotal)}`);
  if (s.results !== null) parts.push(`results ${count(s.results)}`);
  const state = s.status === 'done' && !s.exportDone ? 'done, exporting' : s.status || 'unknown';
  // The reason comes right after the state: a narrow terminal cuts the line's end, and a pause or an error is what
  // the reader needs to see.
  const head = s.reason ? `${state} (${s.reason})` : state;
  // The ETA moves on every poll: it is shown, but a plain-line log gets a new line only when state, reason or counts change.
  const key = [head, ...parts].join(' ');
  const eta = s.eta && s.eta !== '∞' ? ` ETA ${s.eta}` : '';
  return {
    fraction: s.percent === null ? null : s.percent / 100,
    text: `run ${label}: ${key}${eta} (elapsed ${elapsed(ms)})`,
    key,
  };
}
