// The emulator's own reading of a five-field cron expression (minute hour day-of-month month day-of-week, names for
// months and weekdays, ranges, lists, steps; day-of-month and day-of-week both restricted match either, as classic
// cron) and of an IANA zone, for the update's `cron_expression` and `timezone` (api-changelog: "5 fields", "IANA
// name"). Written apart from the client's parser on purpose: a misreading in one is caught by tests of the other.

export interface CronSpec {
  /** The expression as stored: its fields joined by one space. */
  source: string;
  minute: Set<number>;
  hour: Set<number>;
  dom: Set<number>;
  month: Set<number>;
  dow: Set<number>;
  anyDom: boolean;
  anyDow: boolean;
}

interface FieldRule {
  label: string;
  lo: number;
  hi: number;
  names?: string[];
}

const RULES: FieldRule[] = [
  { label: 'minute', lo: 0, hi: 59 },
  { label: 'hour', lo: 0, hi: 23 },
  { label: 'day of month', lo: 1, hi: 31 },
  {
    label: 'month',
    lo: 1,
    hi: 12,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  },
  // 7 is Sunday too.
  { label: 'day of week', lo: 0, hi: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

class CronError extends Error {}

function value(rule: FieldRule, field: string, token: string): number {
  const named = rule.names?.indexOf(token.toLowerCase()) ?? -1;
  if (named >= 0) return rule.lo + named;
  if (!/^\d{1,2}$/.test(token)) throw new CronError(`${rule.label} "${field}": "${token}" is not a number`);
  const n = Number.parseInt(token, 10);
  if (n < rule.lo || n > rule.hi)
    throw new CronError(`${rule.label} "${field}": ${n} is not within ${rule.lo}-${rule.hi}`);
  return n;
}

function readField(rule: FieldRule, field: string): Set<number> {
  const out = new Set<number>();
  for (const item of field.split(',')) {
    const [range, stepText, extra] = item.split('/');
    if (extra !== undefined || range === '' || (stepText !== undefined && !/^\d+$/.test(stepText)))
      throw new CronError(`${rule.label} "${field}" is not valid`);
    const step = stepText === undefined ? 1 : Number.parseInt(stepText, 10);
    if (step === 0) throw new CronError(`${rule.label} "${field}": a step of 0`);
    const top = rule.hi === 7 ? 6 : rule.hi;
    let from: number;
    let to: number;
    if (range === '*') [from, to] = [rule.lo, top];
    else if (range.includes('-')) {
      const [a, b, more] = range.split('-');
      if (more !== undefined) throw new CronError(`${rule.label} "${field}" is not valid`);
      [from, to] = [value(rule, field, a), value(rule, field, b)];
      if (from > to) throw new CronError(`${rule.label} "${field}": ${from} comes after ${to}`);
    } else {
      from = value(rule, field, range);
      to = stepText === undefined ? from : top;
    }
    for (let n = from; n <= to; n += step) out.add(rule.hi === 7 ? n % 7 : n);
  }
  return out;
}

/** The expression read, or the reason it is refused. */
export function readCron(text: string): CronSpec | { error: string } {
  const fields = text.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5)
    return { error: `5 fields are needed (minute hour day-of-month month day-of-week), got ${fields.length}` };
  try {
    const [minute, hour, dom, month, dow] = fields.map((f, i) => readField(RULES[i], f));
    return {
      source: fields.join(' '),
      minute,
      hour,
      dom,
      month,
      dow,
      anyDom: fields[2] === '*',
      anyDow: fields[4] === '*',
    };
  } catch (e) {
    if (e instanceof CronError) return { error: e.message };
    throw e;
  }
}

/** An IANA zone name Intl knows (UTC included). */
export function knownZone(zone: string): boolean {
  if (zone.trim() === '' || zone !== zone.trim()) return false;
  try {
    // Names are case-sensitive on the service: "europe/paris" is not Europe/Paris (Intl would take either).
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    return resolved === zone || resolved.toLowerCase() !== zone.toLowerCase();
  } catch {
    return false;
  }
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formats = new Map<string, Intl.DateTimeFormat>();

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

function wallClock(zone: string, ms: number): Wall {
  // UTC, the zone of every schedule that never set one, reads its wall clock off the date itself: the same fields
  // (proleptic Gregorian both) at ~0.3 µs instead of formatToParts' ~5.7 (the suite spent 1.3 s of CPU here).
  if (zone === 'UTC') return wallAtOffset(ms, 0);
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formats.set(zone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(ms)) p[part.type] = part.value;
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour) % 24,
    minute: Number(p.minute),
    weekday: WEEKDAYS.indexOf(p.weekday),
  };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Far enough for a 29 February schedule. */
const HORIZON = 5 * 366 * 86_400_000;

/** The zone's offset from UTC at minute `ms` (ms), as its wall clock shows it. */
function offsetAt(zone: string, ms: number): number {
  const w = wallClock(zone, ms);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - Math.floor(ms / MINUTE) * MINUTE;
}

/** The wall clock that the UTC fields of `ms` shifted by `offset` read (for an offset the zone no longer shows). */
function wallAtOffset(ms: number, offset: number): Wall {
  const d = new Date(ms + offset);
  const [year, month, day, hour, minute, weekday] = [
    d.getUTCFullYear(),
    d.getUTCMonth() + 1,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCDay(),
  ];
  return { year, month, day, hour, minute, weekday };
}

function dayMatches(spec: CronSpec, w: Wall): boolean {
  if (!spec.month.has(w.month)) return false;
  if (spec.anyDom && spec.anyDow) return true;
  if (spec.anyDom) return spec.dow.has(w.weekday);
  if (spec.anyDow) return spec.dom.has(w.day);
  return spec.dom.has(w.day) || spec.dow.has(w.weekday);
}

const matches = (spec: CronSpec, w: Wall): boolean =>
  dayMatches(spec, w) && spec.hour.has(w.hour) && spec.minute.has(w.minute);

/**
 * A clock change forward between `from` and `to` (the offset grew from `before`): the first instant of the skipped
 * wall-clock times at which one of them matches, read with the offset of before the change (02:30 fires at 03:30).
 */
function skippedFiring(spec: CronSpec, zone: string, from: number, to: number, before: number): number | null {
  let [lo, hi] = [from, to];
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (offsetAt(zone, mid) > before) hi = mid;
    else lo = mid;
  }
  const gap = offsetAt(zone, hi) - before;
  for (let u = hi; u < hi + gap; u += MINUTE) if (matches(spec, wallAtOffset(u, before))) return u;
  return null;
}

/** Whether instant `t` is the second pass of a wall-clock time a clock change back repeats. */
function repeated(zone: string, t: number, offset: number): boolean {
  const earlier = offsetAt(zone, t - 3 * HOUR);
  return earlier > offset && offsetAt(zone, t - (earlier - offset)) === earlier;
}

/**
 * The first minute after `after` (ms) at which the expression fires in `zone`, or null when none comes. Each matching
 * wall-clock time fires once (docs/emulator.md, assumed: the docs say nothing of daylight saving): a time a change
 * skips fires as long after the change as it lay into the gap (02:30 → 03:30), a time a change repeats fires on its
 * first pass only.
 */
export function nextFiring(spec: CronSpec, zone: string, after: number): number | null {
  let t = Math.floor(after / MINUTE) * MINUTE + MINUTE;
  let [last, lastOffset] = [t - 3 * HOUR, offsetAt(zone, t - 3 * HOUR)];
  // A skipped time's firing, returned unless the walk finds an earlier one.
  let pending: number | null = null;
  while (t <= after + HORIZON) {
    const w = wallClock(zone, t);
    const offset = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - t;
    if (offset > lastOffset && pending === null) {
      const skipped = skippedFiring(spec, zone, last, t, lastOffset);
      if (skipped !== null && skipped > after) pending = skipped;
    }
    if (pending !== null && t >= pending) return pending;
    [last, lastOffset] = [t, offset];
    // A wrong day jumps to about 23:00 of it (an hour of margin for a daylight-saving change), then hour by hour.
    if (!dayMatches(spec, w)) t += (Math.max(0, 22 - w.hour) * 60 + 60 - w.minute) * MINUTE;
    else if (!spec.hour.has(w.hour)) t += (60 - w.minute) * MINUTE;
    else if (!spec.minute.has(w.minute) || repeated(zone, t, offset)) t += MINUTE;
    else return t;
  }
  return pending;
}
