// The Auto Billing Resets of the rolling 24-hour window, and the run that set each off, as far as the API tells them
// (the count and when the oldest leaves the window; the renewal date the newest moved). No requests here.
import { parseApiTime } from '../lib/api-time.js';

const DAY = 86_400_000;
/** A reset fires at the platform's periodic check: up to this long after the run that pushed usage above the threshold ended. */
export const CHECK_SLACK_MS = 10 * 60_000;

export interface WindowReset {
  /** When it fired (ms); `exact` false when it is derived from the renewal date (the interval's length is assumed). */
  at: number;
  exact: boolean;
  /** Its place in the window (1 = the oldest) and the window's cap, for "resets used 1 of 2". */
  index: number;
  of: number | null;
}

const intervalMs = (interval: unknown) => (interval === 'daily' ? DAY : interval === 'yearly' ? 365 * DAY : 30 * DAY);

/** The resets of the window the API lets sq date: the oldest (exact) and, with two or more, the newest (about). */
export function windowResets(autoReset: Record<string, unknown>, balance: Record<string, unknown>): WindowReset[] {
  const used = typeof autoReset.resets_used_in_window === 'number' ? autoReset.resets_used_in_window : 0;
  const of = typeof autoReset.max_resets_per_24h === 'number' ? autoReset.max_resets_per_24h : null;
  const ends = parseApiTime(autoReset.window_resets_at);
  if (!(used > 0) || ends === null) return [];
  const out: WindowReset[] = [{ at: ends - DAY, exact: true, index: 1, of }];
  const renews = parseApiTime(balance.reset_time);
  if (used >= 2 && renews !== null) {
    const at = renews - intervalMs(balance.interval);
    if (at > ends - DAY) out.push({ at, exact: false, index: used, of });
  }
  return out;
}

/** The reset this run set off: one that fired while it ran, or at the check just after it ended. */
export function resetOfRun(
  resets: WindowReset[],
  run: { started_at?: unknown; created_at?: unknown; ended_at?: unknown },
  now: number,
): WindowReset | null {
  const start = parseApiTime(run.started_at) ?? parseApiTime(run.created_at);
  if (start === null) return null;
  const end = (parseApiTime(run.ended_at) ?? now) + CHECK_SLACK_MS;
  return resets.find((r) => r.at >= start && r.at <= end) ?? null;
}

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** "set off Auto Billing Reset at 14:05 UTC (resets used 1 of 2)". */
export function resetText(r: WindowReset): string {
  return `set off Auto Billing Reset at ${r.exact ? '' : 'about '}${hhmm(r.at)} UTC (resets used ${r.index} of ${r.of ?? 'an unknown number'})`;
}
