// Run exports in the changelog's formats (2026-06-16): CSV, XLSX, JSON (an array) and JSONL, with `fields` (only
// these columns, in this order) and `omit` (all but these). No docs page gives the request, so its form is inferred:
// GET /v1/runs/{id}/download?file_format=xlsx&fields=a,b&omit=c. CSV answers {s3} at once, as sampled; the other
// formats convert in the background (changelog: "large exports convert in the background with live progress"):
// 202 {status: "processing", file_format, progress} (the state the vendor's MCP waits on) until the file is ready,
// then {s3}. XLSX over the sheet's row limit is refused up front (400).
import { parseApiTime } from '../lib/api-time.js';
import { defOf } from './crawlers.js';
import { csvDocument } from './csv.js';
import type { EmuCore } from './emu.js';
import { errB, fileStamp, isRecord, json, type Rec } from './util.js';
import { fileSignature, fileToken } from './views.js';
import { toXlsx } from './xlsx.js';
import type { EmuResponse } from './types.js';
import { EXPORT_FORMATS, XLSX_MAX_ROWS, type ExportFormat } from '../tables/export-formats.js';
import * as store from './model/store.js';

/** Business time a background conversion takes per row (at least one step). */
export const CONVERT_MS_PER_ROW = 200;
const INTERNAL = new Set(['object', 'squid', 'run', 'task']);

export interface ExportOptions {
  format: ExportFormat;
  fields: string[] | null;
  omit: string[];
}

const list = (v: string | null): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The options of a download request or file URL, or the 400 naming the bad one. */
export function exportOptions(query: URLSearchParams): ExportOptions | EmuResponse {
  const format = (query.get('file_format') ?? 'csv').toLowerCase();
  if (!EXPORT_FORMATS.includes(format as ExportFormat))
    return errB(400, `file_format must be one of ${EXPORT_FORMATS.join(', ')}.`, 'file_format');
  const fields = query.get('fields') === null ? null : list(query.get('fields'));
  return { format: format as ExportFormat, fields, omit: list(query.get('omit')) };
}

function rowsOf(emu: EmuCore, run: Rec): Rec[] {
  return emu.resultIdsOfRun(String(run.id)).map((id) => store.record(emu, 'results', id) as Rec);
}

/** The export's columns: the crawler's attribute order, then what else the rows carry; `fields`/`omit` applied. */
function columnsOf(emu: EmuCore, run: Rec, rows: Rec[], o: ExportOptions): string[] | EmuResponse {
  const squid = store.record(emu, 'squids', String(run.squid));
  const crawler = squid ? store.record(emu, 'crawlers', String(squid.crawler)) : undefined;
  const present = new Set<string>();
  for (const r of rows) for (const k in r) present.add(k);
  const attrs = (crawler ? defOf(crawler).attributes.map((a) => a.name) : []).filter((n) => present.has(n));
  const all = ['id', ...attrs, ...[...present].filter((k) => k !== 'id' && !INTERNAL.has(k) && !attrs.includes(k))];
  const known = new Set([...all, ...(crawler ? defOf(crawler).attributes.map((a) => a.name) : [])]);
  const unknown = [...(o.fields ?? []), ...o.omit].find((f) => !known.has(f));
  if (unknown)
    return errB(
      400,
      `Unknown column ${JSON.stringify(unknown)}; columns: ${all.join(', ')}.`,
      o.fields?.includes(unknown) ? 'fields' : 'omit',
    );
  return (o.fields ?? all).filter((c) => !o.omit.includes(c));
}

const keyOf = (run: string, o: ExportOptions): string =>
  `${run}|${o.format}|${(o.fields ?? ['*']).join(',')}|${o.omit.join(',')}`;

/** GET /v1/runs/{id}/download: the file's URL, or the conversion's progress. */
export function requestExport(emu: EmuCore, run: Rec, query: URLSearchParams): EmuResponse {
  const o = exportOptions(query);
  if ('status' in o) return o;
  const rows = rowsOf(emu, run);
  const cols = columnsOf(emu, run, rows, o);
  if (!Array.isArray(cols)) return cols;
  if (o.format === 'xlsx' && Number(run.total_results ?? rows.length) > XLSX_MAX_ROWS)
    return errB(
      400,
      `This run has ${Number(run.total_results)} rows; an XLSX file holds at most ${XLSX_MAX_ROWS}. Export it as CSV, JSON or JSONL.`,
      'file_format',
    );
  if (o.format !== 'csv') {
    const conversions = store.section(emu, 'conversions', isRecord, () => ({}));
    const key = keyOf(String(run.id), o);
    conversions[key] ??= emu.clock.now();
    const total = Math.max(1, rows.length) * CONVERT_MS_PER_ROW;
    const progress = Math.min(1, (emu.clock.now() - conversions[key]) / total);
    if (progress < 1)
      return json(202, { status: 'processing', file_format: o.format, progress: Math.round(progress * 100) / 100 });
  }
  return json(200, { s3: fileUrl(emu, String(run.id), o) });
}

function fileUrl(emu: EmuCore, run: string, o: ExportOptions): string {
  const token = fileToken(run);
  const expires = Math.floor(emu.clock.now() / 1000) + 3600;
  const sig = fileSignature(token, expires, store.token(emu));
  const extra = new URLSearchParams();
  if (o.fields) extra.set('fields', o.fields.join(','));
  if (o.omit.length) extra.set('omit', o.omit.join(','));
  const rest = extra.toString();
  return `${emu.baseUrl}/_emulator/files/${token}.${o.format}?${rest ? `${rest}&` : ''}Expires=${expires}&Signature=${sig}`;
}

const TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json',
  jsonl: 'application/x-ndjson',
};

/** The file behind the URL, in its format. */
export function exportFile(emu: EmuCore, run: Rec, format: ExportFormat, query: URLSearchParams): EmuResponse {
  const o = exportOptions(query);
  if ('status' in o) return o;
  const rows = rowsOf(emu, run);
  const cols = columnsOf(emu, run, rows, { ...o, format });
  if (!Array.isArray(cols)) return cols;
  const squid = store.record(emu, 'squids', String(run.squid));
  const filename = `${String(squid?.name ?? 'export')}_${fileStamp(parseApiTime(run.export_time) ?? emu.clock.now())}.${format}`;
  const pick = (r: Rec): Rec => Object.fromEntries(cols.filter((c) => r[c] !== undefined).map((c) => [c, r[c]]));
  const raw =
    format === 'csv'
      ? csvDocument(cols, rows)
      : format === 'xlsx'
        ? toXlsx(cols, rows)
        : format === 'json'
          ? `${JSON.stringify(rows.map(pick))}\n`
          : rows.map((r) => `${JSON.stringify(pick(r))}\n`).join('');
  return {
    status: 200,
    raw,
    headers: {
      'Content-Type': TYPES[format],
      'Content-Disposition': `attachment; filename="${filename.replace(/"/g, '')}"`,
    },
  };
}
