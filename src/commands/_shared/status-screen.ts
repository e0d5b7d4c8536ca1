// `sq status` on a terminal, for a person: the plan and credits on one line with a bar, the auto-reset and the resets
// of its window, runs in progress with how far they got, and recent failures with their reason in full (wrapped to the
// width). Ids are short (the shortest unique prefix, 8 or more), times relative. Piped, sq status prints the plain
// screen of status.ts, and --json its document: neither comes here.
import type { Style } from '../../output/ansi.js';
import { idPrefixLength } from '../../output/table.js';
import { parseApiTime, relativeTime } from '../../output/time.js';
import { displayWidth, truncateWidth } from '../../output/width.js';
import { parsePercent } from '../../api/runs.js';
import { finiteNumber, type Rec } from '../../lib/guards.js';
import type { AutoReset } from '../../api/billing.js';
import { count } from '../../io/count.js';

/** An Auto Billing Reset of the 24-hour window (src/billing/resets.ts) and the recent run that set it off, if any. */
export interface WindowReset {
  at: string;
  /** false: dated from the renewal date (about). */
  exact: boolean;
  index: number;
  of: number | null;
  run: string | null;
  squid_name: string | null;
}

/** The status document (`sq status --json`) and each run in it. */
export interface StatusRun {
  id: string;
  squid: string;
  squid_name: string;
  status: string;
  done_reason: string | null;
  done_reason_desc: string | null;
  created_at: string | null;
  ended_at: string | null;
}

export interface Status {
  user: { name: string; email: string | null; plan: string | null; plan_status: string | null };
  credits: {
    available: number | null;
    consumed: number | null;
    remaining: number | null;
    used_pct: number | null;
    reset_time: string | null;
  };
  auto_reset: Pick<
    AutoReset,
    | 'enabled'
    | 'threshold_pct'
    | 'max_resets_per_24h'
    | 'resets_used_in_window'
    | 'window_resets_at'
    | 'current_usage_pct'
  >;
  /** The Auto Billing Resets of the 24-hour window the API dates, each with the recent run that set it off (or null). */
  window_resets: WindowReset[];
  runs_in_progress: StatusRun[];
  failed_runs: StatusRun[];
  failing_deliveries: StatusRun[];
  partial: string | null;
}

interface ScreenOptions {
  style: Style;
  width: number;
  now: number;
  /** Each run in progress's stats (GET /v1/runs/{id}/stats), by run id. */
  progress: Map<string, Rec>;
  /** How many recent runs the failures were looked for in. */
  recentRuns: number;
}

const BAR = 12;
const n = (v: number | null | undefined) => (v === null || v === undefined ? '?' : count(v));

export function peopleScreen(st: Status, o: ScreenOptions): string {
  const { style } = o;
  const when = (t: string | null | undefined) => {
    const ms = parseApiTime(t);
    return ms === undefined ? (t ?? '') : relativeTime(ms, o.now);
  };
  const all = [...st.runs_in_progress, ...st.failed_runs, ...st.failing_deliveries];
  const len = idPrefixLength(all.map((r) => r.id));
  const id = (r: StatusRun) => r.id.slice(0, len);
  const lines: string[] = [];
  const put = (l: string) => lines.push(truncateWidth(l, o.width));
  const u = st.user;
  put(`${style.bold(u.name || '(no name)')}${u.email ? ` <${u.email}>` : ''}`);
  // Plan and credits on one line; what does not fit goes on the next, whole.
  for (const l of joinFit([planText(st), ...creditsParts(st, style, when)], o.width)) put(l);
  put(autoResetText(st, when));
  for (const l of resetLines(st.window_resets, when)) put(l);
  const section = (
    title: string,
    list: StatusRun[],
    none: string,
    paint: (s: string) => string,
    line: (r: StatusRun) => string,
  ) => {
    lines.push('', style.bold(`${title} (${list.length})`));
    if (list.length === 0) put(`  ${style.dim(none)}`);
    for (const r of list) {
      put(`  ${id(r)}  ${paint(r.status)}  ${r.squid_name || r.squid.slice(0, len)}  ${line(r)}`.trimEnd());
      const why = [r.done_reason, r.done_reason_desc].filter(Boolean).join(': ');
      if (why && r.done_reason !== 'tasks_done') lines.push(...wrap(why, o.width, '    '));
    }
  };
  section('Runs in progress', st.runs_in_progress, 'none', style.yellow, (r) =>
    [`started ${when(r.created_at)}`, progressText(o.progress.get(r.id))].filter(Boolean).join('  '),
  );
  section(
    'Recent failures',
    st.failed_runs,
    `none in the ${o.recentRuns} most recent runs`,
    style.red,
    (r) => `ended ${when(r.ended_at ?? r.created_at)}`,
  );
  if (st.failing_deliveries.length)
    section('Failed exports', st.failing_deliveries, '', style.red, (r) => `ended ${when(r.ended_at ?? r.created_at)}`);
  lines.push('');
  lines.push(
    ...wrap(
      style.dim(
        'Webhook and SFTP delivery outcomes are not reported by the API: check a channel with `sq delivery test`.',
      ),
      o.width,
      '',
    ),
  );
  return `${lines.join('\n')}\n`;
}

function planText(st: Status): string {
  const u = st.user;
  return `${u.plan ?? 'unknown plan'}${u.plan_status ? ` (${u.plan_status})` : ''}`;
}

/** ["████░░░░ 25% used", "7,500 of 10,000 credits left", "renews in 20 d"]: the bar coloured by how full it is. */
function creditsParts(st: Status, style: Style, when: (t: string | null) => string): string[] {
  const c = st.credits;
  const pct = c.used_pct;
  const filled = pct === null ? 0 : Math.max(0, Math.min(BAR, Math.round((pct / 100) * BAR)));
  const paint = pct === null ? style.dim : pct >= 90 ? style.red : pct >= 70 ? style.yellow : style.green;
  return [
    pct === null
      ? `${n(c.consumed)} credits used`
      : `${paint('█'.repeat(filled))}${style.dim('░'.repeat(BAR - filled))} ${pct}% used`,
    `${n(c.remaining)} of ${n(c.available)} credits left`,
    ...(c.reset_time ? [`renews ${when(c.reset_time)}`] : []),
  ];
}

/** Parts two spaces apart, as many on a line as fit `width`; the lines after the first indented. */
function joinFit(parts: string[], width: number): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const p of parts) {
    if (cur !== '' && displayWidth(cur) + 2 + displayWidth(p) > width) {
      lines.push(cur);
      cur = `  ${p}`;
    } else cur = cur === '' ? p : `${cur}  ${p}`;
  }
  return [...lines, cur];
}

function autoResetText(st: Status, when: (t: string | null) => string): string {
  const a = st.auto_reset;
  const said = (v: unknown) => (v === undefined || v === null ? '?' : String(v));
  // An answer without `enabled` is not "off": no card charge is claimed either way.
  if (typeof a.enabled !== 'boolean')
    return `Auto-reset UNKNOWN (the API did not say); threshold ${said(a.threshold_pct)}%`;
  if (!a.enabled)
    return `Auto-reset off (threshold ${said(a.threshold_pct)}%, at most ${said(a.max_resets_per_24h)} resets in 24 h)`;
  const window = a.window_resets_at ? `; the window frees ${when(a.window_resets_at)}` : '';
  return (
    `Auto-reset on at ${said(a.threshold_pct)}% usage, charges the card: ${said(a.resets_used_in_window)} ` +
    `of ${said(a.max_resets_per_24h)} resets used in 24 h${window}`
  );
}

/** The resets of the window, oldest first, one line each, with the run that set each off; none when there are none. */
export function resetLines(resets: WindowReset[] | undefined, when: (t: string | null) => string): string[] {
  if (!Array.isArray(resets) || resets.length === 0) return [];
  return resets.map(
    (r) =>
      `  reset ${r.index} of ${r.of ?? '?'} ${r.exact ? '' : 'about '}${when(r.at)}, ` +
      (r.run
        ? `set off by run ${r.run}${r.squid_name ? ` (${r.squid_name})` : ''}`
        : 'by no run among the recent ones'),
  );
}

/** "40% (4 of 10 tasks)", from a run's stats; '' when it has none. */
function progressText(stats: Rec | undefined): string {
  if (!stats) return '';
  const pct = parsePercent(stats.percent_done);
  const done = finiteNumber(stats.total_tasks_done);
  const total = finiteNumber(stats.total_tasks);
  if (!total) return pct ? `${pct}%` : '';
  const tasks = done !== null ? ` (${n(done)} of ${n(total)} tasks)` : '';
  return pct === null ? tasks.trim() : `${pct}%${tasks}`;
}

/** `text` broken at spaces into lines of at most `width` columns, each after `indent`; a longer word is cut. */
export function wrap(text: string, width: number, indent: string): string[] {
  const room = Math.max(10, width - displayWidth(indent));
  const out: string[] = [];
  let cur = '';
  for (const word of text.split(/ +/)) {
    if (cur !== '' && displayWidth(cur) + 1 + displayWidth(word) > room) {
      out.push(cur);
      cur = word;
    } else cur = cur === '' ? word : `${cur} ${word}`;
  }
  if (cur !== '') out.push(cur);
  return out.map((l) => indent + truncateWidth(l, room));
}
