// Timestamps for people: "3 min ago" on a terminal, or local time with its UTC offset. Piped output never comes here.
//
// The API's several date forms are read by lib/api-time.ts, the one parser.

import { parseApiTime as apiTime } from '../lib/api-time.js';

/** Epoch milliseconds, or undefined when `value` is not one of the API's date forms (it is then shown as given). */
export function parseApiTime(value: unknown): number | undefined {
  return apiTime(value) ?? undefined;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** Short enough for a table column: "just now", "3 min ago", "2 d ago", "in 3 min"…, rounded to the nearest unit. */
export function relativeTime(t: number, now: number): string {
  const d = now - t;
  const a = Math.abs(d);
  // Less than a minute either way is "just now": a clock a few seconds ahead (a fast emulator, a server's skew) never
  // shows a run that just started as starting "in <1 min".
  if (a < MIN) return 'just now';
  const units: [number, string, number][] = [
    [MIN, 'min', 60],
    [HOUR, 'h', 24],
    [DAY, 'd', 30],
    [30 * DAY, 'mo', 12],
    [365 * DAY, 'y', Infinity],
  ];
  let text = '';
  for (const [size, name, next] of units) {
    const n = Math.round(a / size);
    if (n < next) {
      text = `${Math.max(1, n)} ${name}`;
      break;
    }
  }
  return d >= 0 ? `${text} ago` : `in ${text}`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** The UTC offset local time (TZ) had at `t`: "UTC", "UTC+1", "UTC+5:30", "UTC-3". */
export function zoneAt(t: number): string {
  const off = -new Date(t).getTimezoneOffset();
  if (off === 0) return 'UTC';
  const a = Math.abs(off);
  return `UTC${off > 0 ? '+' : '-'}${Math.floor(a / 60)}${a % 60 ? `:${two(a % 60)}` : ''}`;
}

/** Local time (TZ) with the offset it had then: "2026-11-23 15:04 UTC+1"; without it when a header names it. */
export function absoluteTime(t: number, withZone = true): string {
  const d = new Date(t);
  const text = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
  return withZone ? `${text} ${zoneAt(t)}` : text;
}
