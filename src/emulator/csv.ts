// The emulator's CSV: the export files it serves and delivers (RFC 4180: a cell with a comma, quote or line break is
// quoted, quotes doubled; objects as JSON) and the task files it reads (uploads, comma or tab). Its own, not sq's
// writer and reader: a mistake in either is then caught by the other's tests.

function cell(v: unknown): string {
  const text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV document: the header, then one line per row, every line ending in \n. */
export function csvDocument(columns: readonly string[], rows: Iterable<Record<string, unknown>>): string {
  const lines = [columns.map(cell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(row[c])).join(','));
  return `${lines.join('\n')}\n`;
}

/** The rows of a delimited text (a BOM skipped, quoted fields, CRLF or LF), blank lines dropped. */
export function readDelimited(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    if (row.some((f) => f.trim() !== '')) rows.push(row);
    row = [];
  };
  for (let i = text.startsWith('\uFEFF') ? 1 : 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') field += text[++i];
      else inQuotes = false;
    } else if (ch === '"' && field === '') inQuotes = true;
    else if (ch === delimiter) endField();
    else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else field += ch;
  }
  if (field !== '' || row.length) endRow();
  return rows;
}
