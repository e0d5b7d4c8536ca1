// A run's export files as the API makes them (changelog 2026-06-16): one definition for sq and for the emulator.

/** Export formats: CSV, XLSX, JSON (an array), JSONL. */
export const EXPORT_FORMATS = ['csv', 'xlsx', 'json', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** An XLSX sheet holds 1,048,576 rows, the header included (changelog: "XLSX over ~1 M rows is refused up front"). */
export const XLSX_MAX_ROWS = 1_048_575;
