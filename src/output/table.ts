// Terminal tables. cli-table3 is imported on first use only: most invocations never draw a table.

import type { Column } from './types.js';
import { makeStyle, stripAnsi } from './ansi.js';
import { cellText, defaultHeader, plainText, terminalSafe, truncate } from './cells.js';
import { flatten } from './fields.js';
import { importPackage } from '../import-package.js';

type TableCtor = typeof import('cli-table3');
let ctor: Promise<TableCtor> | null = null;

function loadTable(): Promise<TableCtor> {
  ctor ??= importPackage<TableCtor | { default?: TableCtor }>('cli-table3').then((m) => ((m as unknown as { default?: TableCtor }).default ?? m) as TableCtor);
  return ctor;
}

// Borderless, two spaces between columns, like gh: easy to read and to copy from.
const CHARS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
};

export interface TableOptions {
  color: boolean;
  /** Only on a terminal: piped tables are never cut. */
  truncate: boolean;
  /** Terminal width: on a terminal, a list wider than this is fitted by shortening its widest columns. */
  width?: number;
}

const GAP = 2;
/** No column is squeezed below this (or its header), and `id` columns never are: ids get copied from tables. */
const MIN_WIDTH = 10;

export interface Fit {
  /** Per column: the width to cut it to, or undefined to leave it whole. */
  widths: (number | undefined)[];
  /** How many columns, from the right, do not fit even at their narrowest. */
  hidden: number;
}

/**
 * Widths that make the rows fit `width`: shorten the widest shrinkable column one character at a time; when even
 * the narrowest widths do not fit, leave out columns from the right (the caller says so on stderr).
 */
export function fitWidths(head: string[], rows: string[][], keys: string[], width: number): Fit {
  // A loop, not Math.max(...rows): spreading one argument per row overflows the stack past ~125,000 rows.
  const natural = head.map((h, i) => {
    let w = stripAnsi(h).length;
    for (const r of rows) w = Math.max(w, stripAnsi(r[i] ?? '').length);
    return w;
  });
  const floor = head.map((h, i) => (keys[i] === 'id' ? natural[i] : Math.min(natural[i], Math.max(MIN_WIDTH, stripAnsi(h).length))));
  let shown = head.length;
  const span = (ws: number[], n: number) => ws.slice(0, n).reduce((a, b) => a + b, 0) + GAP * (n - 1);
  while (shown > 1 && span(floor, shown) > width) shown--;
  const widths = natural.slice(0, shown);
  while (span(widths, shown) > width) {
    let widest = -1;
    for (let i = 0; i < shown; i++) {
      if (widths[i] > floor[i] && (widest < 0 || widths[i] > widths[widest])) widest = i;
    }
    if (widest < 0) break;
    widths[widest]--;
  }
  return { widths: widths.map((w, i) => (w < natural[i] ? w : undefined)), hidden: head.length - shown };
}

async function draw(head: string[] | null, rows: string[][], opts: TableOptions): Promise<string> {
  const Table = await loadTable();
  const style = makeStyle(opts.color);
  const table = new Table({
    chars: CHARS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    ...(head ? { head: head.map((h) => style.bold(h)) } : {}),
  });
  for (const r of rows) table.push(r);
  const text = table.toString();
  // cli-table3 pads the last column and leaves empty border lines; neither belongs in a terminal.
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')
    .join('\n') + '\n';
}

function cell(col: Column, row: Record<string, unknown>, opts: TableOptions): string {
  // Formatted cells carry API text too (a webhook URL, a squid name): control characters are neutralised for all.
  const text = terminalSafe(cellText(col, row));
  if (!opts.truncate || col.maxWidth === undefined) return text;
  const plain = stripAnsi(text);
  return plain.length > col.maxWidth ? truncate(terminalSafe(plain), col.maxWidth) : text;
}

/** A list as a table; on a terminal it is fitted to the width, and `hidden` names the columns left out. */
export async function renderListTable(
  columns: Column[],
  rows: Record<string, unknown>[],
  opts: TableOptions,
): Promise<{ text: string; hidden: string[] }> {
  let head = columns.map((c) => c.header ?? defaultHeader(c.key));
  let cells = rows.map((r) => columns.map((c) => cell(c, r, opts)));
  let hidden: string[] = [];
  if (opts.truncate && opts.width && opts.width > 0) {
    const fit = fitWidths(head, cells, columns.map((c) => c.key), opts.width);
    const shown = columns.length - fit.hidden;
    hidden = columns.slice(shown).map((c) => c.key);
    head = head.slice(0, shown);
    cells = cells.map((r) =>
      r.slice(0, shown).map((t, i) => {
        const w = fit.widths[i];
        return w !== undefined && stripAnsi(t).length > w ? truncate(terminalSafe(stripAnsi(t)), w) : t;
      }),
    );
  }
  return { text: await draw(head, cells, opts), hidden };
}

/** One record as key/value rows: the given columns, else every (flattened) key. */
export async function renderRecordTable(
  row: Record<string, unknown>,
  columns: Column[] | null,
  opts: TableOptions & { title?: string },
): Promise<string> {
  const style = makeStyle(opts.color);
  const pairs: string[][] = columns
    ? columns.map((c) => [style.bold(c.header ?? c.key), cell(c, row, opts)])
    : flatten(row).map(([k, v]) => [style.bold(terminalSafe(k)), terminalSafe(plainText(v))]);
  const title = opts.title ? style.bold(terminalSafe(opts.title)) + '\n' : '';
  if (pairs.length === 0) return title;
  return title + (await draw(null, pairs, opts));
}
