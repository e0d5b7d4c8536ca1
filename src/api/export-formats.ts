// A run's export files as the API makes them: the shared table (src/tables/export-formats.ts), which the emulator reads too.
export { EXPORT_FORMATS, type ExportFormat, XLSX_MAX_ROWS } from '../tables/export-formats.js';
