// The output formats, one entry each, and the line writers of the delimited ones. What a format is lives here: code
// outside src/output asks the descriptor (FORMAT_SPECS[format], ctx.out.spec), never compares a format's name.

/**
 * sq's one CSV writer: RFC 4180 quoting (a field with a comma, quote or line break is quoted, quotes doubled), and
 * every line, the last included, ends with "\n" alone, as the other text formats do (not RFC 4180's CRLF).
 */
export function csvLine(cells: string[]): string {
  return cells.map((s) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)).join(',') + '\n';
}

/** TSV: a backslash, tab, CR or newline in a cell is written as \\, \t, \r or \n, so every record is one line. */
export function tsvLine(cells: string[]): string {
  return (
    cells
      .map((s) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n'))
      .join('\t') + '\n'
  );
}

export interface FormatSpec {
  /** `document`: one JSON document (a list is one array); `lines`: one JSON document per line; null: not JSON. */
  json: 'document' | 'lines' | null;
  /** CSV/TSV: the writer of one delimited line, header or row; null for the formats that are not rows of cells. */
  line: ((cells: string[]) => string) | null;
  /** A record may span lines: a quoted cell keeps its line breaks (CSV; TSV and NDJSON escape theirs). */
  multiline: boolean;
  /** For a person at a terminal (a laid-out table): never written to a file. */
  terminal: boolean;
  /** The bytes can be cut after any page and continued (a JSON array cannot: it is one document). */
  resumable: boolean;
}

/** Adding a format is one entry: the renderer writes each by what its FormatSpec says, with no branch per name. */
export const FORMAT_SPECS = {
  table: { json: null, line: null, multiline: false, terminal: true, resumable: false },
  json: { json: 'document', line: null, multiline: false, terminal: false, resumable: false },
  ndjson: { json: 'lines', line: null, multiline: false, terminal: false, resumable: true },
  csv: { json: null, line: csvLine, multiline: true, terminal: false, resumable: true },
  tsv: { json: null, line: tsvLine, multiline: false, terminal: false, resumable: true },
} as const satisfies Record<string, FormatSpec>;
export type Format = keyof typeof FORMAT_SPECS;
export const FORMATS = Object.keys(FORMAT_SPECS) as readonly Format[];

/** The descriptor of a --format value as given (main.ts reads it before the flags are checked); undefined if none. */
export function specOf(name: string | undefined): FormatSpec | undefined {
  return name !== undefined && Object.hasOwn(FORMAT_SPECS, name) ? FORMAT_SPECS[name as Format] : undefined;
}
