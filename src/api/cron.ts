// Five-field cron expressions (minute hour day-of-month month day-of-week), as the update endpoint's
// `cron_expression` takes them, with an IANA timezone: parsing, the next run time and a description in words.
// The CLI's (the emulator keeps a reading of its own). Our own rather than a cron package: none does the 5-field dialect, a next time
// in a named zone through Intl, and words, and each would add its load cost to every start.

export interface Cron {
  readonly source: string;
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly days: readonly number[];
  readonly months: readonly number[];
  readonly weekdays: readonly number[];
  /** Day-of-month and day-of-week both restricted: a day matches either (classic cron). */
  readonly domStar: boolean;
  readonly dowStar: boolean;
}

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  },
  { name: 'day of week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
] as const;

function fieldValues(text: string, i: number): number[] {
  const f = FIELDS[i];
  const names: readonly string[] = 'names' in f ? f.names : [];
  const num = (s: string): number => {
    const named = names.indexOf(s.toLowerCase());
    if (named >= 0) return named + (f.min === 1 ? 1 : 0);
    if (!/^\d+$/.test(s))
      throw new Error(`${f.name} field ${JSON.stringify(text)}: ${JSON.stringify(s)} is not a number`);
    const n = Number(s);
    if (n < f.min || n > f.max)
      throw new Error(`${f.name} field ${JSON.stringify(text)}: ${n} is outside ${f.min}-${f.max}`);
    return n;
  };
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^([^/]+)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new Error(`${f.name} field ${JSON.stringify(text)} is not valid`);
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (step < 1) throw new Error(`${f.name} field ${JSON.stringify(text)}: a step must be at least 1`);
    let lo: number;
    let hi: number;
    if (m[1] === '*') [lo, hi] = [f.min, f.max === 7 ? 6 : f.max];
    else if (m[1].includes('-')) {
      const [a, b] = m[1].split('-');
      [lo, hi] = [num(a), num(b)];
      if (lo > hi) throw new Error(`${f.name} field ${JSON.stringify(text)}: range ${m[1]} runs backwards`);
    } else [lo, hi] = [num(m[1]), m[2] === undefined ? num(m[1]) : f.max === 7 ? 6 : f.max];
    for (let v = lo; v <= hi; v += step) out.add(f.max === 7 && v === 7 ? 0 : v);
  }
  return [...out].sort((a, b) => a - b);
}

/** Parses a 5-field expression; throws an Error whose message names the bad field. */
export function parseCron(expr: string): Cron {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5 || !parts[0]) {
    throw new Error(
      `${JSON.stringify(expr)} has ${parts[0] ? parts.length : 0} fields; a schedule needs 5: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1"`,
    );
  }
  const [minutes, hours, days, months, weekdays] = parts.map((p, i) => fieldValues(p, i));
  return {
    source: parts.join(' '),
    minutes,
    hours,
    days,
    months,
    weekdays,
    domStar: parts[2] === '*',
    dowStar: parts[4] === '*',
  };
}

/** Whether `tz` is an IANA zone name this Node knows (its list, plus UTC and the legacy aliases Intl accepts). */
export function isTimeZone(tz: string): boolean {
  if (!tz || tz !== tz.trim()) return false;
  const known = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  if (known.includes(tz) || tz === 'UTC') return true;
  try {
    // Aliases (Asia/Calcutta, Europe/Kiev, Etc/GMT+5) are valid IANA names that the canonical list leaves out.
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+$|^(?:UTC|GMT|Etc\/[A-Za-z0-9+-]+)$/.test(tz);
  } catch {
    return false;
  }
}

/**
 * The spelling of time zone `tz` to send: the API takes IANA names in their own spelling, so a name typed in another
 * case (europe/paris) is sent as the list spells it (Europe/Paris); an alias typed all in one case (us/pacific) is
 * sent as the zone it links to. Null when `tz` is no zone name at all.
 */
export function canonicalTimeZone(tz: string): string | null {
  if (!tz || tz !== tz.trim()) return null;
  const known = zoneNames();
  if (known.includes(tz) || tz === 'UTC') return tz;
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+$|^(?:UTC|GMT|UCT|Zulu|Etc\/[A-Za-z0-9+-]+)$/i.test(tz)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  const lower = tz.toLowerCase();
  const listed = known.find((z) => z.toLowerCase() === lower);
  if (listed) return listed;
  if (resolved.toLowerCase() === lower) return resolved;
  // An alias the list leaves out (Asia/Kolkata and Europe/Kyiv on Node 20's, US/Pacific, Etc/GMT+5).
  return tz !== lower && tz !== tz.toUpperCase() ? tz : resolved;
}

/** The zone names this Node lists (canonical ones; UTC and the aliases are left out). */
export function zoneNames(): string[] {
  return (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
}

const partsCache = new Map<string, Intl.DateTimeFormat>();
/** Wall-clock fields of instant `ms` in `tz`. */
function wall(ms: number, tz: string): { y: number; mo: number; d: number; h: number; mi: number; dow: number } {
  let f = partsCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    partsCache.set(tz, f);
  }
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(ms)) p[x.type] = x.value;
  return {
    y: +p.year,
    mo: +p.month,
    d: +p.day,
    h: +p.hour % 24,
    mi: +p.minute,
    dow: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(p.weekday),
  };
}

/** The zone's offset from UTC at instant `ms`, to the minute. */
function offsetAt(ms: number, tz: string): number {
  const w = wall(ms, tz);
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi) - Math.floor(ms / 60_000) * 60_000;
}

/** The instant whose wall-clock time in `tz` is the given one: across a daylight-saving change, as docs/emulator.md
 * says, a repeated time is its first pass, a skipped one is read with the offset of before the change. */
function fromWall(y: number, mo: number, d: number, h: number, mi: number, tz: string): number {
  const local = Date.UTC(y, mo - 1, d, h, mi);
  const before = offsetAt(local - 86_400_000, tz);
  const after = offsetAt(local + 86_400_000, tz);
  const shown = (t: number) => {
    const w = wall(t, tz);
    return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi) === local;
  };
  const passes = [local - before, local - after].filter(shown).sort((a, b) => a - b);
  return passes[0] ?? local - before;
}

/** The first time strictly after `after` (ms) that the schedule fires in `tz`, or null within 5 years (e.g. "0 0 31 2 *"). */
export function nextRun(cron: Cron, tz: string, after: number): number | null {
  const start = wall(after, tz);
  // Walk calendar days in the zone's wall clock (UTC arithmetic on the date only, so no DST in the walk).
  const day0 = Date.UTC(start.y, start.mo - 1, start.d);
  for (let i = 0; i < 366 * 5; i++) {
    const date = new Date(day0 + i * 86_400_000);
    const [y, mo, d, dow] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCDay()];
    if (!cron.months.includes(mo)) continue;
    const domOk = cron.days.includes(d);
    const dowOk = cron.weekdays.includes(dow);
    if (!(cron.domStar || cron.dowStar ? domOk && dowOk : domOk || dowOk)) continue;
    const t = firstOfDay(cron, [y, mo, d], tz, after);
    if (t !== null) return t;
  }
  return null;
}

/** The day's first firing after `after`. Past a skipped hour a later wall time can be an earlier instant, so the
 * walls of the next 2 hours after the first found are compared too. */
function firstOfDay(cron: Cron, [y, mo, d]: number[], tz: string, after: number): number | null {
  let best: number | null = null;
  let until = Number.POSITIVE_INFINITY;
  for (const h of cron.hours) {
    for (const mi of cron.minutes) {
      const local = Date.UTC(y, mo - 1, d, h, mi);
      if (local >= until) return best;
      const t = fromWall(y, mo, d, h, mi, tz);
      if (t > after && (best === null || t < best)) [best, until] = [t, best === null ? local + 2 * 3_600_000 : until];
    }
  }
  return best;
}

const DAY_NAMES = ['Sundays', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'];
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const pad = (n: number): string => String(n).padStart(2, '0');
const and = (xs: string[]): string =>
  xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
const ordinal = (n: number): string =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** "Mondays at 09:00 Europe/Paris", "Every day at 10:00 UTC", "Every hour at :15 UTC"; else the expression with its zone. */
export function describeCron(cron: Cron, tz: string): string {
  const [mi, h, dom, mon, dow] = cron.source.split(' ');
  const fixed = /^\d+$/;
  let when: string | undefined;
  if (fixed.test(mi) && /^\d+(,\d+)*$/.test(h))
    when = `at ${and(cron.hours.map((x) => `${pad(x)}:${pad(cron.minutes[0])}`))}`;
  else if (fixed.test(mi) && h === '*') when = `every hour at :${pad(cron.minutes[0])}`;
  if (!when) return `cron "${cron.source}" ${tz}`;
  let days: string | undefined;
  if (dom === '*' && mon === '*' && dow === '*') days = when.startsWith('every') ? '' : 'Every day';
  else if (dom === '*' && mon === '*') {
    days =
      cron.weekdays.join(',') === '1,2,3,4,5'
        ? 'Weekdays'
        : cron.weekdays.join(',') === '0,6'
          ? 'Weekends'
          : and(cron.weekdays.map((d) => DAY_NAMES[d]));
  } else if (/^\d+(,\d+)*$/.test(dom) && dow === '*') {
    const months = mon === '*' ? 'of every month' : `of ${and(cron.months.map((m) => MONTH_NAMES[m - 1]))}`;
    days = `The ${and(cron.days.map(ordinal))} ${months}`;
  }
  if (days === undefined) return `cron "${cron.source}" ${tz}`;
  const text = days ? `${days} ${when}` : when;
  return `${text[0].toUpperCase()}${text.slice(1)} ${tz}`;
}
