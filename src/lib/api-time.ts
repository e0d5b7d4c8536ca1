// The service's timestamps come in several forms (api-reference §15): ISO with Z ("2025-02-10T14:27:45Z"), naive ISO
// with microseconds ("2025-02-04T10:26:50.847633") or without a fraction, ISO with milliseconds and Z, the webhook's
// "YYYY/MM/DD HH:MM:SS" and the account counters' "DD/MM/YYYY HH:MM:SS". Naive forms are UTC.

const ISO = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?\s*(Z|[+-]\d\d:?\d\d)?$/i;
const SLASHED_YMD = /^(\d{4})\/(\d\d)\/(\d\d) (\d\d):(\d\d):(\d\d)$/;
const SLASHED_DMY = /^(\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d):(\d\d)$/;

/** Epoch ms of an API timestamp in any documented form; null for anything else (never a guess). */
export function parseApiTime(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  let m = ISO.exec(s);
  if (m) {
    // Date.parse would read a naive form as local time, and keeps only milliseconds of a microsecond fraction.
    const ms = Number(`0.${m[7] ?? '0'}`) * 1000;
    const t = utc(+m[1], +m[2], +m[3], +m[4], +m[5], +(m[6] ?? 0));
    if (t === null) return null;
    return Math.floor(t + ms) - offsetMs(m[8]);
  }
  if ((m = SLASHED_YMD.exec(s))) return utc(+m[1], +m[2], +m[3], +m[4], +m[5], +m[6]);
  if ((m = SLASHED_DMY.exec(s))) return utc(+m[3], +m[2], +m[1], +m[4], +m[5], +m[6]);
  return null;
}

/** Oldest first; timestamps that do not parse go last, in their text order. */
export function compareApiTime(a: unknown, b: unknown): number {
  const x = parseApiTime(a);
  const y = parseApiTime(b);
  if (x !== null && y !== null) return x - y;
  if (x !== null || y !== null) return x === null ? 1 : -1;
  return String(a ?? '').localeCompare(String(b ?? ''));
}

function utc(y: number, mo: number, d: number, h: number, mi: number, s: number): number | null {
  const t = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(t);
  // 2026-02-30 is refused rather than rolled over into March.
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return t;
}

function offsetMs(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d\d):?(\d\d)$/.exec(zone);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
}
