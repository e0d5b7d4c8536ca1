// Terminal tables: borderless, two spaces between columns, like gh: easy to read and to copy from. Every width is a
// display width (width.ts), for fitting and for padding alike, so CJK and emoji names line up and never overflow.
//
// On a terminal (`truncate`), cells are for reading: ids shortened to a unique prefix, times relative, statuses in
// lower case and coloured. Piped output never comes through here.

import type { Column } from './types.js';
import { makeStyle, stripAnsi, type Style } from './ansi.js';
import { cellText, defaultHeader, plainText, terminalSafe } from './cells.js';
import { flatten, getPath } from './fields.js';
import { displayWidth, padWidth, truncateWidth } from './width.js';
import { absoluteTime, parseApiTime, relativeTime, zoneAt } from './time.js';

interface TableOptions {
  color: boolean;
  /** Only on a terminal: piped tables are never cut, and show ids, times and statuses exactly as the API sent them. */
  truncate: boolean;
  /** Terminal width: on a terminal, a list wider than this is fitted by shortening its widest columns. */
  width?: number;
  /** --full-ids: no id prefixes. */
  fullIds?: boolean;
  /** --absolute-times: local date and time with the UTC offset instead of "3 min ago". */
  absoluteTimes?: boolean;
  /** --wide: every column whole, none left out, whole ids. */
  wide?: boolean;
  /** --fields: the columns asked for are shown even when every row says the same. */
  keepColumns?: boolean;
  /** The clock relative times count from (ctx.now, virtual in tests). */
  now?: () => number;
}

const GAP = 2;
/** No column is squeezed below this (or its header); `id` columns and those marked `keep` never are. */
const MIN_WIDTH = 10;
/** A kept column is still cut past this: the longest time sq writes is 25 wide; an unparsed one may be anything. */
const KEEP_MAX = 25;
/** Shortest id prefix shown (git's default abbreviation is 7). */
const MIN_ID = 8;

interface Fit {
  /** Per column: the width to cut it to, or undefined to leave it whole. */
  widths: (number | undefined)[];
  /** How many columns, from the right, do not fit even at their narrowest. */
  hidden: number;
}

/** The main name column keeps this much of its width before any column is left out. */
const NAME_MIN = 20;

/**
 * Widths that make the rows fit `width`: shorten the widest shrinkable column one column at a time; when even
 * the narrowest widths do not fit, leave out columns from the right (the caller says so on stderr). `rank` says
 * which columns give way last: 0 (the default) first, then 1 (a name beside the main one), then 2 (the main name,
 * which also keeps NAME_MIN of its width before any column is left out).
 */
export function fitWidths(
  head: string[],
  rows: string[][],
  keys: string[],
  width: number,
  keep: boolean[] = [],
  rank: number[] = [],
): Fit {
  // A loop, not Math.max(...rows): spreading one argument per row overflows the stack past ~125,000 rows.
  const natural = head.map((h, i) => {
    let w = displayWidth(h);
    for (const r of rows) w = Math.max(w, displayWidth(r[i] ?? ''));
    return w;
  });
  const narrowest = (h: string, i: number) => Math.min(natural[i], Math.max(MIN_WIDTH, displayWidth(h)));
  const floor = head.map((h, i) =>
    keys[i] === 'id'
      ? natural[i]
      : keep[i]
        ? Math.min(natural[i], KEEP_MAX)
        : rank[i] === 2
          ? Math.min(natural[i], Math.max(NAME_MIN, narrowest(h, i)))
          : narrowest(h, i),
  );
  let shown = head.length;
  const span = (ws: number[], n: number) => ws.slice(0, n).reduce((a, b) => a + b, 0) + GAP * (n - 1);
  const main = rank.indexOf(2);
  while (shown > 1 && span(floor, shown) > width) {
    // A column kept whole (an id, a slug: typed back as shown) is left out only once the main name gave up its
    // NAME_MIN too.
    const over = span(floor, shown) - width;
    if (keys[shown - 1] === 'id' && main >= 0 && main < shown && floor[main] > narrowest(head[main], main)) {
      floor[main] = Math.max(narrowest(head[main], main), floor[main] - over);
      continue;
    }
    shown--;
  }
  const widths = natural.slice(0, shown);
  while (span(widths, shown) > width) {
    let widest = -1;
    for (let i = 0; i < shown; i++) {
      if (widths[i] <= floor[i]) continue;
      const better =
        widest < 0 ||
        (rank[i] ?? 0) < (rank[widest] ?? 0) ||
        ((rank[i] ?? 0) === (rank[widest] ?? 0) && widths[i] > widths[widest]);
      if (better) widest = i;
    }
    if (widest < 0) break;
    widths[widest]--;
  }
  return { widths: widths.map((w, i) => (w < natural[i] ? w : undefined)), hidden: head.length - shown };
}

/** A column that names what the row is (a squid's or crawler's name, an account's username): the last to be cut. */
function nameLike(c: Column): boolean {
  const last = c.key.slice(c.key.lastIndexOf('.') + 1);
  return last === 'name' || last.endsWith('_name') || last === 'username' || last === 'title';
}

/** How a column that says the same on every row is named in the line under the table: "all active", "no schedule". */
function sameOnEveryRow(header: string, value: string): string {
  const h = header.toLowerCase();
  const v = stripAnsi(value);
  if (v === 'true') return `all ${h}`;
  if (v === 'false') return `none ${h}`;
  if (v === '') return `no ${h}`;
  return `${h} ${v}`;
}

/** One prefix length for a column of ids: the shortest (at least MIN_ID) at which no two different ids shown agree. */
export function idPrefixLength(ids: readonly string[], min = MIN_ID): number {
  const sorted = [...new Set(ids)].sort();
  let len = min;
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1];
    const b = sorted[i];
    let common = 0;
    while (common < a.length && a[common] === b[common]) common++;
    len = Math.max(len, common + 1);
  }
  return len;
}

// One case for every status the API sends (runs say "done", squids "DONE"), and a colour for how it went.
const STATUS_COLOR: Record<string, keyof Style> = {
  done: 'green',
  completed: 'green',
  applied: 'green',
  success: 'green',
  synchronized: 'green',
  active: 'green',
  error: 'red',
  failed: 'red',
  failure: 'red',
  aborted: 'yellow',
  paused: 'yellow',
  stopped: 'yellow',
  running: 'cyan',
  pending: 'cyan',
  uploading: 'cyan',
  progress: 'cyan',
  queued: 'cyan',
};

function statusText(value: string, style: Style): string {
  const s = value.toLowerCase();
  const colour = STATUS_COLOR[s];
  return colour ? style[colour](s) : s;
}

type Kind = NonNullable<Column['kind']>;

/** For a record without declared columns (`runs get`, `balance`): what its keys say they hold. */
function inferKind(key: string): Kind | undefined {
  const last = key.slice(key.lastIndexOf('.') + 1);
  if (last === 'status' || last === 'state' || last.endsWith('_status')) return 'status';
  if (last.endsWith('_at') || last.endsWith('_time') || last === 'timestamp') return 'time';
  return undefined;
}

const HEX_ID = /^[0-9a-f]{32}$/i;
const API_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** 'id' when every value shown is a 32-hex id, 'time' when every one is an API timestamp; undefined otherwise. */
function kindOfValues(values: unknown[]): 'id' | 'time' | undefined {
  const shown = values.filter((v) => v !== undefined && v !== null && v !== '');
  if (shown.length === 0 || !shown.every((v) => typeof v === 'string')) return undefined;
  if (shown.every((v) => HEX_ID.test(v as string))) return 'id';
  if (shown.every((v) => API_TIME.test(v as string) && parseApiTime(v) !== undefined)) return 'time';
  return undefined;
}

/** A key that names something that happened (created_at, started_at, last_run_at…), never something to come. */
const PAST = /(^|[._])(created|started|ended|updated|last|done|finished|locked|scraping|export)(_|$)/;

/**
 * A cell on a terminal; `detail` (a record table, one value per line) shows a relative time with its date. A time
 * under a key of the past (`key`) is never shown in the future: a server clock ahead of ours says "just now".
 */
function humanCell(
  kind: Kind | undefined,
  value: unknown,
  opts: TableOptions,
  style: Style,
  detail: boolean,
  zoneInHeader = false,
  key = '',
): string | undefined {
  if (!opts.truncate) return undefined;
  if (kind === 'status' && typeof value === 'string') return statusText(terminalSafe(value), style);
  if (kind === 'time') {
    const t = parseApiTime(value);
    if (t === undefined) return undefined;
    if (opts.absoluteTimes) return absoluteTime(t, !zoneInHeader);
    const now = (opts.now ?? Date.now)();
    const rel = t > now && PAST.test(key) ? 'just now' : relativeTime(t, now);
    return detail ? `${rel} (${absoluteTime(t)})` : rel;
  }
  return undefined;
}

function cell(
  col: Column,
  row: Record<string, unknown>,
  opts: TableOptions,
  style: Style,
  detail = false,
  zoneInHeader = false,
): string {
  const human = col.format
    ? undefined
    : humanCell(col.kind, getPath(row, col.key), opts, style, detail, zoneInHeader, col.key);
  if (human !== undefined) return human;
  // Formatted cells carry API text too (a webhook URL, a squid name): control characters are neutralised for all.
  const text = terminalSafe(cellText(col, row));
  if (!opts.truncate || col.maxWidth === undefined) return text;
  return truncateWidth(text, col.maxWidth);
}

/** Rows of cells as lines: each column padded to its widest cell; a cell with line breaks takes several lines. */
function draw(rows: string[][]): string {
  const split = rows.map((r) => r.map((c) => c.split('\n')));
  const widths: number[] = [];
  for (const r of split) r.forEach((lines, i) => (widths[i] = Math.max(widths[i] ?? 0, ...lines.map(displayWidth))));
  let text = '';
  for (const r of split) {
    const height = Math.max(1, ...r.map((lines) => lines.length));
    for (let l = 0; l < height; l++) {
      const parts = r.map((lines, i) => (i === r.length - 1 ? (lines[l] ?? '') : padWidth(lines[l] ?? '', widths[i])));
      text += parts.join(' '.repeat(GAP)).trimEnd() + '\n';
    }
  }
  return text;
}

/**
 * A list as a table. On a terminal it is fitted to the width: the columns that say the same on every row are left
 * out and named in `same` ("all active"), ids shortened, then the widest columns cut, names last; `hidden` names
 * the columns that still did not fit. --wide shows everything whole.
 */
export async function renderListTable(
  columns: Column[],
  rows: Record<string, unknown>[],
  opts: TableOptions,
): Promise<{ text: string; hidden: string[]; same: string[] }> {
  const style = makeStyle(opts.color);
  const fitting = opts.truncate && !opts.wide;
  // Ids and times are recognised by what the column holds, whatever its name: ids are shortened to a unique prefix
  // and times made relative, and neither is ever cut to fit the terminal.
  const kinds = columns.map((c) =>
    c.format
      ? c.kind
      : (c.kind ?? kindOfValues(rows.map((r) => getPath(r, c.key))) ?? (c.key === 'id' ? 'id' : undefined)),
  );
  columns = columns.map((c, i) => (kinds[i] && !c.kind ? { ...c, kind: kinds[i] } : c));
  // --wide: no cell is cut, not even to a column's own maxWidth.
  if (opts.wide) columns = columns.map((c) => (c.maxWidth === undefined ? c : { ...c, maxWidth: undefined }));
  const zones = columnZones(columns, rows, opts);
  let head = columns.map((c, i) => (c.header ?? defaultHeader(c.key)) + (zones[i] ? ` (${zones[i]})` : ''));
  let cells = rows.map((r) => columns.map((c, i) => cell(c, r, opts, style, false, zones[i] !== undefined)));
  if (opts.truncate && !opts.fullIds && !opts.wide) {
    columns.forEach((c, i) => {
      if (c.kind !== 'id' || c.format) return;
      const len = idPrefixLength(cells.map((r) => r[i]).filter((t) => t !== ''));
      for (const r of cells) r[i] = r[i].slice(0, len);
    });
  }
  const names = columns.map(nameLike);
  const main = names.indexOf(true);
  let same: string[] = [];
  if (fitting && !opts.keepColumns && rows.length > 1) {
    // A column that says the same on every row tells nothing row by row: one line under the table says it once. The
    // row's own id (the first id column) and its main name stay, whatever they say.
    const own = columns.findIndex((c) => c.kind === 'id' && !c.format);
    const constant = columns.map((_, i) => i !== main && i !== own && cells.every((r) => r[i] === cells[0][i]));
    if (constant.some(Boolean)) {
      same = columns.map((_, i) => (constant[i] ? sameOnEveryRow(head[i], cells[0][i]) : '')).filter((t) => t !== '');
      const keep = (_: unknown, i: number) => !constant[i];
      columns = columns.filter(keep);
      head = head.filter(keep);
      cells = cells.map((r) => r.filter(keep));
      names.splice(0, names.length, ...names.filter(keep));
    }
  }
  let hidden: string[] = [];
  if (fitting && opts.width && opts.width > 0)
    ({ head, cells, hidden } = fitColumns(columns, names, head, cells, opts.width));
  return { text: draw([head.map((h) => style.bold(h)), ...cells]), hidden, same };
}

/** Absolute times: when every time in a column had the same UTC offset, the header names it once. */
function columnZones(columns: Column[], rows: Record<string, unknown>[], opts: TableOptions): (string | undefined)[] {
  return columns.map((c) => {
    if (!opts.truncate || c.kind !== 'time' || c.format || !opts.absoluteTimes) return undefined;
    const seen = new Set(
      rows
        .map((r) => parseApiTime(getPath(r, c.key)))
        .filter((t) => t !== undefined)
        .map(zoneAt),
    );
    return seen.size === 1 ? [...seen][0] : undefined;
  });
}

/** The table cut to `width`: the widest columns first, names last, ids never; the columns that still do not fit go. */
function fitColumns(columns: Column[], names: boolean[], head: string[], cells: string[][], width: number) {
  const times = columns.map((c) => c.kind === 'time' && !c.format);
  const first = names.indexOf(true);
  const rank = names.map((n, i) => (!n ? 0 : i === first ? 2 : 1));
  const isId = (c: Column) => (c.kind === 'id' && !c.format) || !!c.whole;
  // fitWidths never cuts a column keyed 'id': ids, and the columns marked whole.
  const fit = fitWidths(
    head,
    cells,
    columns.map((c) => (isId(c) ? 'id' : c.key)),
    width,
    times,
    rank,
  );
  const shown = columns.length - fit.hidden;
  const cut = (t: string, i: number) => (fit.widths[i] === undefined ? t : truncateWidth(t, fit.widths[i]));
  return {
    head: head.slice(0, shown),
    cells: cells.map((r) => r.slice(0, shown).map(cut)),
    hidden: columns.slice(shown).map((c) => c.key),
  };
}

/** One record as key/value rows: the given columns, else every (flattened) key. */
export async function renderRecordTable(
  row: Record<string, unknown>,
  columns: Column[] | null,
  opts: TableOptions & { title?: string },
): Promise<string> {
  const style = makeStyle(opts.color);
  // On a terminal a field with nothing in it (null, "") is a line that says nothing: left out (--wide shows it).
  const blank = (v: unknown) => opts.truncate && !opts.wide && (v === null || v === undefined || v === '');
  const pairs: string[][] = columns
    ? columns
        .filter((c) => !(blank(getPath(row, c.key)) && blank(cellText(c, row))))
        .map((c) => [style.bold(c.header ?? c.key), cell(c, row, opts, style, true)])
    : flatten(row)
        .filter(([, v]) => !blank(v))
        .map(([k, v]) => [
          style.bold(terminalSafe(k)),
          humanCell(inferKind(k), v, opts, style, true, false, k) ?? terminalSafe(plainText(v)),
        ]);
  const title = opts.title ? style.bold(terminalSafe(opts.title)) + '\n' : '';
  if (pairs.length === 0) return title;
  return title + draw(pairs);
}
