// Terminal tables. cli-table3 is imported on first use only: most invocations never draw a table.

import type { Column } from './types.js';
import { makeStyle, stripAnsi } from './ansi.js';
import { cellText, defaultHeader, plainText, terminalSafe, truncate } from './cells.js';
import { flatten, getPath } from './fields.js';

type TableCtor = typeof import('cli-table3');
let ctor: Promise<TableCtor> | null = null;

function loadTable(): Promise<TableCtor> {
  ctor ??= import('cli-table3').then((m) => ((m as unknown as { default?: TableCtor }).default ?? m) as TableCtor);
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
  const text = col.format ? col.format(getPath(row, col.key), row) : terminalSafe(cellText(col, row));
  if (!opts.truncate || col.maxWidth === undefined) return text;
  const plain = stripAnsi(text);
  return plain.length > col.maxWidth ? truncate(terminalSafe(plain), col.maxWidth) : text;
}

export function renderListTable(columns: Column[], rows: Record<string, unknown>[], opts: TableOptions): Promise<string> {
  const head = columns.map((c) => c.header ?? defaultHeader(c.key));
  return draw(head, rows.map((r) => columns.map((c) => cell(c, r, opts))), opts);
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
    : flatten(row).map(([k, v]) => [style.bold(k), terminalSafe(plainText(v))]);
  const title = opts.title ? style.bold(terminalSafe(opts.title)) + '\n' : '';
  if (pairs.length === 0) return title;
  return title + (await draw(null, pairs, opts));
}
