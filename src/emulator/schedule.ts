// A squid's schedule: `cron_expression` and `timezone` (UTC when never set), and when it next fires (next_launch_at).
import { nextRun, parseCron } from '../api/cron.js';
import { isRecord, type Rec } from './util.js';

/** The squid's schedule as {cron, timezone}, or null when none (or one the emulator cannot read). */
export function scheduleOf(squid: Rec): { cron: string; timezone: string } | null {
  const s = squid.schedule;
  if (!isRecord(s) || typeof s.cron_expression !== 'string') return null;
  return { cron: s.cron_expression, timezone: typeof s.timezone === 'string' ? s.timezone : 'UTC' };
}

/** When the schedule next starts a run after `now` (ms), or null: no schedule, inactive, or never again. */
export function nextLaunchMs(squid: Rec, now: number): number | null {
  return squid.is_active === false ? null : nextFireMs(squid, now);
}

/**
 * When the schedule next fires after `now`, active or not: the scheduler asks the run-start rule at each firing, which
 * refuses an inactive squid (SquidInactive) as POST /v1/runs does.
 */
export function nextFireMs(squid: Rec, now: number): number | null {
  const s = scheduleOf(squid);
  if (!s) return null;
  try {
    return nextRun(parseCron(s.cron), s.timezone, now);
  } catch {
    return null;
  }
}

