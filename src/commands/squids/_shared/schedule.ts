// A squid's schedule as `sq squids get/list` show it ("Mondays at 09:00 Europe/Paris") and as the update flags send it.
import { canonicalTimeZone, describeCron, parseCron, zoneNames } from '../../../api/cron.js';
import { closest } from '../../../lib/suggest.js';
import { UsageError } from '../../../errors.js';

/**
 * The schedule of a squid record in words. The detail has `schedule: {cron_expression, timezone}` (the shape is not
 * documented; the list's field table calls it a cron string, so a string is read too); none is "".
 */
export function scheduleWords(value: unknown): string {
  const v = value as { cron_expression?: unknown; timezone?: unknown } | string | null | undefined;
  const cron = typeof v === 'string' ? v : typeof v?.cron_expression === 'string' ? v.cron_expression : undefined;
  if (!cron) return '';
  const tz = typeof v === 'object' && typeof v?.timezone === 'string' ? v.timezone : 'UTC';
  try {
    return describeCron(parseCron(cron), tz);
  } catch {
    return `cron "${cron}" ${tz}`;
  }
}

/** `--schedule CRON` checked (5 fields, each in range): exit 2 naming the flag, before any request. */
export function cronFlag(value: string): string {
  try {
    return parseCron(value).source;
  } catch (e) {
    throw new UsageError(`--schedule: ${(e as Error).message}`);
  }
}

/**
 * `--timezone TZ` checked against the IANA zone names: exit 2 naming the flag and the closest names, before any
 * request. Sent in the zone list's own spelling (europe/paris → Europe/Paris), the one the API's list has.
 */
export function timezoneFlag(value: string): string {
  const tz = canonicalTimeZone(value);
  if (tz !== null) return tz;
  throw new UsageError(
    `--timezone: ${JSON.stringify(value)} is not an IANA time zone name (e.g. Europe/Paris, America/New_York, UTC)${didYouMean(value)}`,
  );
}

/** "; did you mean Europe/Paris?": the zone names within a typo or two of `value`, else those holding its last part. */
export function didYouMean(value: string): string {
  const zones = zoneNames();
  const lower = value.trim().toLowerCase();
  const last = lower.split('/').pop() || lower;
  const near = closest(value.trim(), zones);
  const close = near.length ? near : last ? zones.filter((z) => z.toLowerCase().includes(last)).slice(0, 5) : [];
  return close.length ? `; did you mean ${close.join(', ')}?` : '';
}
