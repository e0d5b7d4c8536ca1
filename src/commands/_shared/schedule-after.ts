// What a squid update turns on: shared by `sq squids update` and `sq api`'s guard of a raw squid update.
import type { Squid } from '../../api/records.js';
import { liveSchedule } from '../../account/state.js';

/**
 * The schedule that fires once `body` is written, when the squid is (and stays) active and the update sets or moves
 * it (--schedule, or --timezone on a scheduled squid); null when it turns nothing on.
 */
export function scheduleAfter(live: Squid, body: Record<string, unknown>): { cron: string; timezone: string } | null {
  if (body.is_active === false || (live.is_active === false && body.is_active !== true)) return null;
  const had = liveSchedule(live);
  const cron =
    typeof body.cron_expression === 'string' ? body.cron_expression : body.cron_expression === null ? null : had?.cron;
  if (!cron) return null;
  return { cron, timezone: typeof body.timezone === 'string' ? body.timezone : (had?.timezone ?? 'UTC') };
}
