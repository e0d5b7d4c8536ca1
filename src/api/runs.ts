// Runs endpoints, read tolerantly: the same Run carries `duration` as float seconds or "H:MM:SS.ffffff", status comes
// lowercase or UPPERCASE, stats give `percent_done` as "NN%" and `eta` as "∞" (api-reference §13, §15).
import { NotFoundError } from '../errors.js';
import type { HttpClient } from './http.js';
import { unexpectedWriteAnswer } from './http-errors.js';
import { isRecord } from '../lib/guards.js';
import { pages, type PageOptions } from './pages.js';
import type { Page, Run, RunStats } from './records.js';
import { seg } from './path.js';
import { isLoopbackHost } from '../lib/loopback.js';
import { checks } from './checks.js';
import type { ExportFormat } from './export-formats.js';

const TERMINAL = ['done', 'aborted', 'error'] as const;

export function runStatus(run: Run | null | undefined): string {
  return typeof run?.status === 'string' ? run.status.toLowerCase() : '';
}

export function isTerminal(status: string): boolean {
  return (TERMINAL as readonly string[]).includes(status.toLowerCase());
}

/** "45%", "45.5 %", 45 → 45; anything else → null. */
export function parsePercent(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v !== 'string') return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(v);
  return m ? Number(m[1]) : null;
}

/** Seconds from float seconds or a "H:MM:SS(.ffffff)" / "D day(s), H:MM:SS" timedelta string. */
export function durationSeconds(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v !== 'string') return null;
  const m = /^\s*(?:(\d+)\s+days?,\s*)?(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)\s*$/.exec(v);
  if (m) return Number(m[1] ?? 0) * 86400 + Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
  const n = Number(v);
  return v.trim() !== '' && Number.isFinite(n) ? n : null;
}

/** Whole-second H:MM:SS for tables; the API's own value stays in JSON. */
export function formatDurationCell(v: unknown): string {
  const s = durationSeconds(v);
  if (s === null) return v === null || v === undefined ? '' : String(v);
  const t = Math.floor(s);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = t % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
}

export const RUNS_PATH = '/v1/runs';

function runPath(runId: string, sub = ''): string {
  return `/v1/runs/${seg('run id', runId)}${sub}`;
}

export function getRun(http: HttpClient, runId: string): Promise<Run> {
  return http.get<Run>(runPath(runId), { expect: checks.run });
}

export function getRunStats(http: HttpClient, runId: string): Promise<RunStats> {
  return http.get(runPath(runId, '/stats'), { expect: checks.runStats });
}

export function listRunPages(http: HttpClient, squidId: string, opts: PageOptions = {}): AsyncGenerator<Page<Run>> {
  return pages<Run>(http, RUNS_PATH, { ...opts, query: { ...opts.query, squid: squidId } });
}

/** The run's tasks: /runs/{run}/tasks, else /runtasks?run= when that answers 404 before anything was read. */
export async function* runTaskPages(http: HttpClient, runId: string, opts: PageOptions = {}): AsyncGenerator<Page> {
  let yielded = false;
  try {
    for await (const p of pages(http, runPath(runId, '/tasks'), opts)) {
      yielded = true;
      yield p;
    }
  } catch (err) {
    if (yielded || !(err instanceof NotFoundError)) throw err;
    yield* pages(http, '/v1/runtasks', { ...opts, query: { ...opts.query, run: runId } });
  }
}

export async function startRun(http: HttpClient, squidId: string): Promise<Run> {
  const run = await http.post<Run>(RUNS_PATH, { squid: squidId }, { expect: checks.run });
  if (!isRecord(run) || typeof run.id !== 'string' || run.id === '')
    throw unexpectedWriteAnswer('POST', RUNS_PATH, 'the id of a run');
  return run;
}

export function abortRun(http: HttpClient, runId: string): Promise<Run> {
  return http.post<Run>(runPath(runId, '/abort'), undefined, { expect: checks.run });
}

export interface ExportRequest {
  format: ExportFormat;
  fields?: string[];
  omit?: string[];
}

/** The download query: nothing for a plain CSV (the sampled request), else file_format, fields and omit. */
function exportQuery(o?: ExportRequest): Record<string, string> | undefined {
  if (!o || (o.format === 'csv' && !o.fields?.length && !o.omit?.length)) return undefined;
  return {
    file_format: o.format,
    ...(o.fields?.length ? { fields: o.fields.join(',') } : {}),
    ...(o.omit?.length ? { omit: o.omit.join(',') } : {}),
  };
}

/** The presigned export URL, null when the export is not ready (404), or `{converting}` (202, with its progress). */
export async function downloadUrl(
  http: HttpClient,
  runId: string,
  o?: ExportRequest,
): Promise<string | null | { converting: number | null }> {
  const res = await http.request<Record<string, unknown>>('GET', runPath(runId, '/download'), {
    okStatuses: [404],
    query: exportQuery(o),
  });
  if (res.status === 404) return null;
  if (res.status === 202) {
    const p = Number(res.data?.progress);
    return { converting: Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : null };
  }
  const url = res.data?.s3 ?? res.data?.url ?? res.data?.download_url;
  if (typeof url !== 'string' || url === '') {
    throw new NotFoundError(`the API gave no download URL for run ${runId} (expected {"s3": "<url>"})`);
  }
  return url;
}

/** Loopback hosts are the emulator (or a local proxy): the 5 s polling floor of the live service does not apply. */
export function isLoopback(baseUrl: string): boolean {
  try {
    return isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

export const MIN_POLL_MS = 5000;
