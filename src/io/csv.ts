// CSV/TSV in (task uploads) and CSV out (run exports), RFC 4180 quoting.
import { csvLine } from '../output/formats.js';
import { plainText } from '../output/cells.js';

export function parseDelimited(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

/** A whole CSV document: the cells and lines sq's --format csv writes (plainText, csvLine), the one CSV writer. */
export function toCsv(columns: string[], rows: Iterable<Record<string, unknown>>): string {
  let out = csvLine(columns);
  for (const r of rows) out += csvLine(columns.map((c) => plainText(r[c])));
  return out;
}
