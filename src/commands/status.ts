// `sq status`: one screen for the account, built from the endpoints other commands use, with a bounded number of
// requests (the recent-runs reader stops early and is capped; see commands/_shared/recent.ts).
import { defineVerb } from '../cli/command.js';
import type { HttpClient } from '../api/http.js';
import { getAutoReset } from '../api/billing.js';
import { items } from '../api/pages.js';
import { recordId } from '../api/resolve.js';
import { getRunStats, RUNS_PATH } from '../api/runs.js';
import type { Balance, Run, User } from '../api/records.js';
import { getBalance, getMe } from '../api/user.js';
import { byNewest, listSquids, MAX_SQUID_PAGES, MAX_SQUID_READS, recentRuns } from './_shared/recent.js';
import { TimeoutError } from '../errors.js';
import { durationFlag } from '../validate/index.js';
import { finiteNumber, stringOf, type Rec } from '../lib/guards.js';
import type { Style } from '../output/ansi.js';
import { openWeb, WEB_OPTION } from '../cli/browser.js';
import type { Status, StatusRun, WindowReset } from './_shared/status-screen.js';
import { resetOfRun, windowResets } from '../billing/resets.js';
import { count } from '../io/count.js';

/** sq status as a whole gives up after this long (--timeout): a service that hangs must not hold the screen for minutes. */
const DEADLINE_MS = 20_000;
const MAX_DEADLINE_MS = 300_000;
/** How many recent runs across squids are looked at for failures and failed exports. */
const RECENT_RUNS = 20;
/** At most this many failed runs are shown. */
const MAX_FAILED = 5;
/** Squids whose active last run is older than the recent runs get one extra read each, at most this many. */
const MAX_ACTIVE_READS = 5;

const ACTIVE = ['pending', 'running', 'paused', 'uploading'];
/** done_reason values that mean the results did not get out (api-reference: squid/run done reasons). */
const EXPORT_FAILED = ['export_failed'];

const DELIVERY_NOTE =
  'The API does not report webhook or SFTP delivery outcomes; failing_deliveries lists recent runs whose export failed ' +
  '(done_reason export_failed). Check a channel with `sq delivery test`.';

export default defineVerb({
  name: 'status',
  summary: 'Show the account at a glance: plan, credits, auto-reset, runs in progress, failures',
  description:
    'One screen for the account. Reads GET /v1/me, /v1/user/balance and /v1/plans/auto-reset, the squid list (at most ' +
    `${MAX_SQUID_PAGES} pages of 100), and the runs of the most recently active squids (at most ${MAX_SQUID_READS}, to find the ` +
    `${RECENT_RUNS} newest runs), plus one read for each squid whose run is still active but older (at most ${MAX_ACTIVE_READS}). ` +
    'Runs in progress are pending, running, paused or uploading, with the pause reason; failed runs are the newest runs in ' +
    `error (at most ${MAX_FAILED}). ${DELIVERY_NOTE} ` +
    'With --json, one object with the keys user {name, email, plan, plan_status}, credits {available, consumed, remaining, ' +
    'used_pct, reset_time}, auto_reset {enabled, threshold_pct, max_resets_per_24h, resets_used_in_window, window_resets_at, ' +
    'current_usage_pct}, window_resets (the Auto Billing Resets of the 24-hour window the API dates: at, exact, index, of, ' +
    ('and the recent run that set it off with its squid_name, or null), runs_in_progress, failed_runs ' +
      'and failing_deliveries (lists of runs: id, squid, squid_name, status, ') +
    'done_reason, done_reason_desc, created_at, ended_at), and partial (why runs may be missing, or null). --fields picks ' +
    'among these keys (dotted paths too, like credits.remaining) and prints them as a record in any format. ' +
    'On a terminal the screen is for reading: plan and credits on one line with a bar, short ids, relative times, each ' +
    `run in progress with how far it got (one stats read each, at most ${MAX_ACTIVE_READS}) and each failure's reason in full. ` +
    'The whole screen has a deadline, 20 s unless --timeout says otherwise: past it, sq status exits 7 naming the reads ' +
    'that did not answer. --web opens the dashboard instead.',
  options: [
    {
      flags: '--timeout <duration>',
      description: 'give up on what has not answered by then, at most 5m',
      defaultText: '20s',
    },
    WEB_OPTION,
  ],
  examples: [
    'sq status',
    'sq status --json',
    'sq status --fields runs_in_progress --json',
    'sq status --fields credits.remaining,auto_reset.enabled',
    'sq status --web',
  ],
  async run(ctx, _args, opts) {
    if (opts.web) return void (await openWeb(ctx, { kind: 'home' }));
    const deadlineMs =
      opts.timeout === undefined ? DEADLINE_MS : durationFlag('--timeout', opts.timeout, { maxMs: MAX_DEADLINE_MS });
    const http = await ctx.http();
    const status = await readStatus(http, deadlineMs);
    const s = ctx.outputSettings();
    // The screen is for reading; a chosen format or --fields makes it a record like any other (fields checked).
    if ((s.explicitFormat && !ctx.out.spec.terminal) || s.fields) {
      await ctx.out.record(status);
      return;
    }
    if (!s.stdoutIsTTY) ctx.out.text(screen(status, ctx.out.style));
    else {
      // On a terminal, for a person: the progress of each run in progress (one read each, a few at most).
      const progress = await runProgress(http, status.runs_in_progress);
      const { peopleScreen } = await import('./_shared/status-screen.js');
      ctx.out.text(
        peopleScreen(status, {
          style: ctx.out.style,
          width: s.columns,
          now: ctx.now(),
          progress,
          recentRuns: RECENT_RUNS,
        }),
      );
    }
    if (status.partial) ctx.out.warn(`${status.partial}: some runs may be missing`);
  },
});

/**
 * Everything within `deadlineMs`: past it, the parts still waiting are named in a TimeoutError (exit 7), with the
 * ones that did answer, rather than a wait of minutes on retries and timeouts of one endpoint.
 */
async function readStatus(base: HttpClient, deadlineMs: number): Promise<Status> {
  const deadline = AbortSignal.timeout(deadlineMs);
  const http = base.withDeadline(deadline);
  const parts = new Map<string, boolean>();
  const part = <T>(name: string, p: Promise<T>): Promise<T> => {
    parts.set(name, false);
    return p.then((v) => (parts.set(name, true), v));
  };
  try {
    return await readParts(http, part);
  } catch (err) {
    if (!deadline.aborted) throw err;
    const missing = [...parts].filter(([, ok]) => !ok).map(([name]) => name);
    const answered = [...parts].filter(([, ok]) => ok).map(([name]) => name);
    throw new TimeoutError(
      `sq status gave up after ${deadlineMs / 1000} s (--timeout): no answer from ${missing.join(', ')}`,
      {
        details: answered.length ? [`answered: ${answered.join(', ')}`] : [],
      },
    );
  } finally {
    await http.close();
  }
}

async function readParts(http: HttpClient, part: <T>(name: string, p: Promise<T>) => Promise<T>): Promise<Status> {
  const [me, balance, autoReset, squids] = await Promise.all([
    part('the user (GET /v1/me)', getMe(http)),
    part('the balance (GET /v1/user/balance)', getBalance(http)),
    part('the auto-reset settings (GET /v1/plans/auto-reset)', getAutoReset(http)),
    part('the squid list (GET /v1/squids)', listSquids(http)),
  ]);
  const recent = await part('the recent runs (GET /v1/runs)', recentRuns(http, RECENT_RUNS, squids));
  const runs = [...recent.runs];
  // A squid runs one run at a time, and its last run is the active one: read it when the recent runs missed it.
  const seen = new Set(runs.map((r) => String(r.squid)));
  const stale = squids.squids
    .filter((s) => ACTIVE.includes(lower(s.last_run_status)) && !seen.has(recordId(s)))
    .slice(0, MAX_ACTIVE_READS);
  await part(
    'the active runs (GET /v1/runs)',
    (async () => {
      for (const s of stale) {
        for await (const r of items<Run>(http, RUNS_PATH, {
          pageSize: 1,
          maxItems: 1,
          query: { squid: recordId(s) },
        })) {
          if (!runs.some((x) => x.id === r.id))
            runs.push({ ...r, squid: r.squid ?? recordId(s), squid_name: stringOf(s.name) });
        }
      }
    })(),
  );
  runs.sort(byNewest);
  const status = (r: Run) => lower(r.status);
  return {
    user: userOf(me),
    credits: creditsOf(balance),
    auto_reset: {
      enabled: autoReset.enabled,
      threshold_pct: autoReset.threshold_pct,
      max_resets_per_24h: autoReset.max_resets_per_24h,
      resets_used_in_window: autoReset.resets_used_in_window,
      window_resets_at: autoReset.window_resets_at ?? null,
      current_usage_pct: autoReset.current_usage_pct ?? null,
    },
    window_resets: windowResetRuns(autoReset as Rec, balance as Rec, runs, http.serverNow()),
    runs_in_progress: runs.filter((r) => ACTIVE.includes(status(r))).map(brief),
    failed_runs: runs
      .filter((r) => status(r) === 'error')
      .slice(0, MAX_FAILED)
      .map(brief),
    failing_deliveries: runs.filter((r) => EXPORT_FAILED.includes(lower(r.done_reason))).map(brief),
    partial: recent.partial || null,
  };
}

/** The window's resets with the runs that set them off (billing/resets.ts), kept apart from the rest of the screen. */
function windowResetRuns(autoReset: Rec, balance: Rec, runs: Run[], now: number): WindowReset[] {
  return windowResets(autoReset, balance).map((r) => {
    const run = runs.find((x) => resetOfRun([r], x as Rec, now) !== null);
    return {
      at: new Date(r.at).toISOString(),
      exact: r.exact,
      index: r.index,
      of: r.of,
      run: run ? recordId(run) : null,
      squid_name: run ? strOrNull(run.squid_name) : null,
    };
  });
}

/** The screen's lines for the window's resets: "reset 1 of 2 at 14:05 UTC, set off by run … (squid …)". */
function windowResetLines(list: WindowReset[]): string[] {
  return list.map(
    (r) =>
      `  reset ${r.index} of ${r.of ?? '?'} at ${r.exact ? '' : 'about '}${r.at.slice(11, 16)} UTC, ` +
      (r.run
        ? `set off by run ${r.run}${r.squid_name ? ` (${r.squid_name})` : ''}`
        : 'by no run among the recent ones'),
  );
}

/** Each run in progress's stats, for the terminal's progress: at most MAX_ACTIVE_READS reads, a failed one left out. */
async function runProgress(http: HttpClient, runs: StatusRun[]): Promise<Map<string, Rec>> {
  const out = new Map<string, Rec>();
  await Promise.all(
    runs.slice(0, MAX_ACTIVE_READS).map(async (r) => {
      const stats = await getRunStats(http, r.id).catch(() => null);
      if (stats) out.set(r.id, stats as Rec);
    }),
  );
  return out;
}

function lower(v: unknown): string {
  return stringOf(v).toLowerCase();
}

function strOrNull(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

function userOf(me: User): Status['user'] {
  const plans = Array.isArray(me.plan) ? (me.plan as Rec[]) : [];
  const plan = plans.find((p) => lower(p?.status) === 'active') ?? plans[0];
  return {
    name: [stringOf(me.first_name), stringOf(me.last_name)].filter(Boolean).join(' '),
    email: strOrNull(me.email),
    plan: strOrNull(plan?.name),
    plan_status: strOrNull(plan?.status),
  };
}

function creditsOf(b: Balance): Status['credits'] {
  const available = finiteNumber(b.available);
  const consumed = finiteNumber(b.consumed);
  return {
    available,
    consumed,
    remaining: available !== null && consumed !== null ? Math.round((available - consumed) * 1e6) / 1e6 : null,
    used_pct: available && consumed !== null ? Math.round((consumed / available) * 1000) / 10 : null,
    reset_time: strOrNull(b.reset_time),
  };
}

function brief(r: Run): StatusRun {
  return {
    id: recordId(r),
    squid: stringOf(r.squid),
    squid_name: stringOf(r.squid_name),
    status: lower(r.status),
    done_reason: strOrNull(r.done_reason),
    done_reason_desc: strOrNull(r.done_reason_desc),
    created_at: strOrNull(r.created_at),
    ended_at: strOrNull(r.ended_at),
  };
}

/** The text screen, piped: long lines kept whole. */
function screen(st: Status, style: Style): string {
  const n = (v: number | null) => (v === null ? '?' : count(v));
  const lines: string[] = [];
  const section = (title: string) => lines.push('', style.bold(title));
  const u = st.user;
  lines.push(style.bold('Account'));
  lines.push(
    `  ${u.name || '(no name)'}${u.email ? ` <${u.email}>` : ''}  plan ${u.plan ?? 'unknown'}${u.plan_status ? ` (${u.plan_status})` : ''}`,
  );
  section('Credits');
  const c = st.credits;
  lines.push(
    `  ${n(c.consumed)} of ${n(c.available)} used${c.used_pct === null ? '' : ` (${c.used_pct}%)`}, ${n(c.remaining)} ` +
      `remaining${c.reset_time ? `; resets ${c.reset_time}` : ''}`,
  );
  section('Auto-reset');
  const a = st.auto_reset;
  const said = (v: unknown) => (v === undefined || v === null ? '?' : String(v));
  lines.push(
    // A field the API left out is "?", and an answer without `enabled` is not "off" (no card charge is claimed).
    typeof a.enabled !== 'boolean'
      ? `  UNKNOWN whether on (the API did not say); threshold ${said(a.threshold_pct)}%, at most ${said(a.max_resets_per_24h)} resets in 24h`
      : a.enabled
        ? `  on at ${said(a.threshold_pct)}% usage; ${said(a.resets_used_in_window)} of ${said(a.max_resets_per_24h)} resets used in 24h` +
          (a.window_resets_at ? `; window resets ${a.window_resets_at}` : '')
        : `  off (threshold ${said(a.threshold_pct)}%, at most ${said(a.max_resets_per_24h)} resets in 24h)`,
  );
  lines.push(...windowResetLines(st.window_resets));
  const runs = (title: string, list: StatusRun[], none: string, paint: (s: string) => string) => {
    section(`${title} (${list.length})`);
    if (list.length === 0) lines.push(`  ${style.dim(none)}`);
    for (const r of list) {
      lines.push(
        `  ${r.id}  ${paint(r.status)}  ${r.squid_name || r.squid}  ${r.ended_at ?? r.created_at ?? ''}`.trimEnd(),
      );
      const why = [r.done_reason, r.done_reason_desc].filter(Boolean).join(': ');
      if (why && r.done_reason !== 'tasks_done') lines.push(`      ${why}`);
    }
  };
  runs('Runs in progress', st.runs_in_progress, 'none', style.yellow);
  runs('Latest failed runs', st.failed_runs, `none in the ${RECENT_RUNS} most recent runs`, style.red);
  runs(
    'Failing deliveries',
    st.failing_deliveries,
    `no failed export in the ${RECENT_RUNS} most recent runs`,
    style.red,
  );
  lines.push(
    `  ${style.dim('webhook and SFTP delivery outcomes are not reported by the API: check a channel with `sq delivery test`')}`,
  );
  return `${lines.join('\n')}\n`;
}
