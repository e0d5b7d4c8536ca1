// A squid's schedule: `cron_expression` and `timezone` (UTC when never set), how an update's values are checked, and
// when it next fires (next_launch_at). Read with the emulator's own cron (model/cron.ts).
import type { SquidRecord } from './records.js';
import { knownZone, nextFiring, readCron } from './cron.js';

type Check = { ok: true; value: unknown } | { ok: false; message: string };

/** An update's `cron_expression`: null removes the schedule; else 5 fields, stored normalised. */
export function checkCron(v: unknown): Check {
  if (v === null) return { ok: true, value: null };
  if (typeof v !== 'string') return { ok: false, message: 'cron_expression must have 5 fields, e.g. "0 10 * * *".' };
  const spec = readCron(v);
  return 'error' in spec ? { ok: false, message: `cron_expression: ${spec.error}.` } : { ok: true, value: spec.source };
}

/** An update's `timezone`: an IANA name. */
export function checkZone(v: unknown): Check {
  return typeof v === 'string' && knownZone(v)
    ? { ok: true, value: v }
    : { ok: false, message: `Unknown timezone ${JSON.stringify(v)}: an IANA name such as "Europe/Paris".` };
}

/** The squid's schedule as {cron, timezone}, or null when none. */
export function scheduleOf(squid: SquidRecord): { cron: string; timezone: string } | null {
  const s = squid.schedule;
  if (!s || typeof s.cron_expression !== 'string') return null;
  return { cron: s.cron_expression, timezone: typeof s.timezone === 'string' ? s.timezone : 'UTC' };
}

/** When the schedule next starts a run after `now` (ms), or null: no schedule, inactive, or never again. */
export function nextLaunchMs(squid: SquidRecord, now: number): number | null {
  return squid.is_active === false ? null : nextFireMs(squid, now);
}

/**
 * When the schedule next fires after `now`, active or not: the scheduler asks the run-start rule at each firing, which
 * refuses an inactive squid (SquidInactive) as POST /v1/runs does.
 */
export function nextFireMs(squid: SquidRecord, now: number): number | null {
  const s = scheduleOf(squid);
  if (!s || !knownZone(s.timezone)) return null;
  const spec = readCron(s.cron);
  return 'error' in spec ? null : nextFiring(spec, s.timezone, now);
}
