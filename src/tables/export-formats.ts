// A run's export formats (changelog 2026-06-16): data only, read by sq and by the emulator alike; checked against the
// changelog's words by test/unit/shared-tables.test.ts.

/** Export formats: CSV, XLSX, JSON (an array), JSONL. */
export const EXPORT_FORMATS = ['csv', 'xlsx', 'json', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** An XLSX sheet holds 1,048,576 rows, the header included (changelog: "XLSX over ~1 M rows is refused up front"). */
export const XLSX_MAX_ROWS = 1_048_575;
