// Timestamps for people: "3 min ago" on a terminal, or local time with its UTC offset. Piped output never comes here.
//
// The API writes dates in several forms (api-reference §15): ISO with Z or an offset, naive ISO with or without
// microseconds, "YYYY/MM/DD HH:MM:SS" (webhooks, UTC by the spec), "DD/MM/YYYY HH:MM:SS" (account last_batch_at).
// A naive form carries no zone; the service runs on UTC, so it is read as UTC.

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?$/;
const YMD = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DMY = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

/** Epoch milliseconds, or undefined when `value` is not one of the API's date forms (it is then shown as given). */
export function parseApiTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  let m = ISO.exec(s);
  if (m) {
    const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
    let t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0), ms);
    const zone = m[8];
    if (zone && zone !== 'Z') {
      const sign = zone[0] === '-' ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
    }
    return valid(t, +m[2], +m[3]);
  }
  m = YMD.exec(s);
  if (m) return valid(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]), +m[2], +m[3]);
  m = DMY.exec(s);
  if (m) return valid(Date.UTC(+m[3], +m[2] - 1, +m[1], +m[4], +m[5], +m[6]), +m[2], +m[1]);
  return undefined;
}

function valid(t: number, month: number, day: number): number | undefined {
  return Number.isFinite(t) && month >= 1 && month <= 12 && day >= 1 && day <= 31 ? t : undefined;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * Short enough for a table column: "just now", "3 min ago", "5 h ago", "2 d ago", "4 mo ago", "1 y ago", and
 * "in 3 min" and so on for the future. Whole units, rounded down.
 */
export function relativeTime(t: number, now: number): string {
  const d = now - t;
  const a = Math.abs(d);
  if (a < MIN) return d >= 0 ? 'just now' : 'in <1 min';
  const [n, unit] =
    a < HOUR ? [a / MIN, 'min'] : a < DAY ? [a / HOUR, 'h'] : a < 30 * DAY ? [a / DAY, 'd'] : a < 365 * DAY ? [a / (30 * DAY), 'mo'] : [a / (365 * DAY), 'y'];
  const text = `${Math.floor(n)} ${unit}`;
  return d >= 0 ? `${text} ago` : `in ${text}`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** Local time (TZ) with the offset it had then: "2026-11-23 15:04 UTC+1", "2026-07-01 09:30 UTC+5:30", "… UTC". */
export function absoluteTime(t: number): string {
  const d = new Date(t);
  const off = -d.getTimezoneOffset();
  const zone = off === 0 ? 'UTC' : `UTC${off > 0 ? '+' : '-'}${Math.floor(Math.abs(off) / 60)}${Math.abs(off) % 60 ? `:${two(Math.abs(off) % 60)}` : ''}`;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())} ${zone}`;
}
