// Column choice and cell text for table, CSV and TSV.

import type { Column } from './types.js';
import { getPath } from './fields.js';
import { isRecord } from '../lib/guards.js';
import { jsonText } from './json-text.js';

export function defaultHeader(key: string): string {
  return key.replace(/[._]/g, ' ').toUpperCase();
}

/** Tabular formats need a record per row; a bare value (a string in a list) becomes { value }. */
export function asRow(item: unknown): Record<string, unknown> {
  return isRecord(item) ? item : { value: item };
}

/**
 * --fields wins (reusing a given column's header/format when the key matches), then the command's columns, then the
 * keys of the first record (a streamed CSV/TSV header is written by then: commands listing mixed records pass columns).
 */
export function chooseColumns(given: Column[] | undefined, fields: string[] | null, first: unknown): Column[] | null {
  if (fields) return fields.map((f) => given?.find((c) => c.key === f) ?? { key: f });
  if (given && given.length > 0) return given;
  if (first === undefined) return null;
  return Object.keys(asRow(first)).map((key) => ({ key }));
}

export function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  return jsonText(value) ?? '';
}

/**
 * A cell a spreadsheet would read as a formula (=, +, -, @, a tab or CR first: `=HYPERLINK(…)` from scraped data),
 * with a ' before it (OWASP's CSV injection advice); a number (-5, +1.5e3) stays a number.
 */
export function formulaSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) ? `'${text}` : text;
}

export function cellText(col: Column, row: Record<string, unknown>): string {
  const v = getPath(row, col.key);
  return col.format ? col.format(v, row) : plainText(v);
}

// C0 controls but tab and newline, DEL, and the C1 controls (U+009B is a CSI to some terminals).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
// eslint-disable-next-line no-control-regex
const SGR = /(\x1b\[[0-9;]*m)/;
/**
 * CSV, TSV, JSON, --jq and --template output written to a terminal: no control character reaches it raw (a scraped
 * cell's OSC 52 could write to the clipboard). Tab and newline stay. In JSON, DEL and the C1 controls become \u
 * escapes, so the document reads the same; elsewhere each becomes U+FFFD. Piped or written to a file, untouched.
 */
export function terminalOutput(json: boolean): (chunk: string) => string {
  // eslint-disable-next-line no-control-regex
  const raw = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
  if (json)
    return (chunk) =>
      chunk.replace(raw, (c) => (c.charCodeAt(0) >= 0x7f ? `\\u00${c.charCodeAt(0).toString(16)}` : '\uFFFD'));
  return (chunk) => chunk.replace(raw, '\uFFFD');
}

/** Data shown on a terminal, without escape sequences, tabs or CRs; with `keepColour`, SGR colour sequences stay. */
export function terminalSafe(s: string, keepColour = false): string {
  if (keepColour)
    return s
      .split(SGR)
      .map((part, i) => (i % 2 ? part : terminalSafe(part)))
      .join('');
  return s.replace(/\t/g, ' ').replace(/\r/g, '').replace(CONTROL, '\uFFFD');
}
