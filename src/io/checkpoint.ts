// Checkpoints for resumable exports: the pages whose records are wholly written (and the byte offset after them),
// plus everything that decides what those bytes look like. `--resume` continues only a checkpoint that matches the
// command in all of them, never making a file that looks whole but is not.
import { stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { SqError, UsageError } from '../errors.js';
import { readRegularFile, replaceFile } from '../lib/atomic-file.js';
import { MAX_PAGE_SIZE } from '../api/pages.js';
import { FORMATS, FORMAT_SPECS, type Format } from '../output/types.js';

export const CHECKPOINT_VERSION = 1;
/** Formats whose bytes can be cut after any page and continued (a JSON array cannot: it is one document). */
export const RESUMABLE_FORMATS = FORMATS.filter((f) => FORMAT_SPECS[f].resumable);

export interface Checkpoint {
  version: number;
  command: 'results list';
  /** The resolved scope, and what the user typed for it (a squid name or prefix). */
  scope: { squid: string } | { run: string };
  scope_ref: string;
  task: string | null;
  format: string;
  fields: string[] | null;
  /** CSV/TSV columns of the header already written; the resumed rows must line up with it. */
  columns: string[] | null;
  page_size: number;
  /** Pages 1..pages are wholly written; the next export request asks for page pages + 1. */
  pages: number;
  records: number;
  /** Bytes written up to the end of page `pages` (the CSV header included). */
  bytes: number;
  /** total_results when the export started: when it differs, the pages no longer line up. */
  total_results: number | null;
  /** The -o target, or null for stdout. */
  target: string | null;
  updated_at: string;
}

/** What the command in hand would write; compared with a checkpoint before any request. */
type Want = Pick<Checkpoint, 'task' | 'format' | 'fields' | 'page_size' | 'target'> & {
  scopeFlag: '--squid' | '--run';
  scopeRef: string;
};

/** Where an -o export keeps its partial data and checkpoint: hidden siblings of the target. */
export function siblings(target: string): { partial: string; checkpoint: string } {
  const full = resolve(target);
  const dir = dirname(full);
  const base = basename(full);
  return { partial: join(dir, `.${base}.sq-partial`), checkpoint: join(dir, `.${base}.sq-checkpoint`) };
}

export async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}

/** The checkpoint at `path`; null when there is none. One that is not ours or is damaged is a UsageError naming it,
 * ending with `startOver`. */
export async function readCheckpoint(
  path: string,
  startOver = 'delete it and export again',
): Promise<Checkpoint | null> {
  const text = await readRegularFile(path, 'checkpoint');
  if (text === null) return null;
  let ck: Record<string, unknown> | null = null;
  try {
    ck = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // reported below
  }
  if (ck === null || typeof ck !== 'object' || Array.isArray(ck) || ck.command !== 'results list') {
    throw new UsageError(`"${path}" is not a checkpoint written by sq results list`);
  }
  if (ck.version !== CHECKPOINT_VERSION) {
    throw new UsageError(
      `the checkpoint "${path}" has version ${String(ck.version)}; this sq reads version ${CHECKPOINT_VERSION}`,
    );
  }
  const damaged = checkpointProblem(ck);
  if (damaged)
    throw new UsageError(`the checkpoint "${path}" is damaged: ${damaged}, so it cannot be trusted; ${startOver}`);
  return ck as unknown as Checkpoint;
}

/** The first field of a parsed checkpoint that is not what sq writes (types, ranges, and how they add up); null when none. */
export function checkpointProblem(ck: Record<string, unknown>): string | null {
  const got = (v: unknown) => `got ${v === undefined ? 'nothing' : JSON.stringify(v)}`;
  const int = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): v is number =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  const text = (v: unknown): v is string => typeof v === 'string' && v !== '';
  const names = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every(text);
  const scope = ck.scope as Record<string, unknown> | null;
  const keys = scope && typeof scope === 'object' && !Array.isArray(scope) ? Object.keys(scope) : [];
  if (keys.length !== 1 || !['squid', 'run'].includes(keys[0]) || !text(scope![keys[0]]))
    return `scope must be {"squid": id} or {"run": id}, ${got(ck.scope)}`;
  if (!text(ck.scope_ref)) return `scope_ref must be a non-empty string, ${got(ck.scope_ref)}`;
  if (ck.task !== null && !text(ck.task)) return `task must be null or a non-empty string, ${got(ck.task)}`;
  if (!(RESUMABLE_FORMATS as readonly unknown[]).includes(ck.format))
    return `format must be one of ${RESUMABLE_FORMATS.join(', ')}, ${got(ck.format)}`;
  if (ck.fields !== null && !names(ck.fields)) return `fields must be null or a list of field names, ${got(ck.fields)}`;
  // CSV/TSV rows are rendered by these columns (or by the fields): they make the header already written.
  const tabular = FORMAT_SPECS[ck.format as Format].line !== null;
  if ((tabular || ck.columns !== null) && !names(ck.columns))
    return `columns must be a list of column names, ${got(ck.columns)}`;
  if (!int(ck.page_size, 1, MAX_PAGE_SIZE))
    return `page_size must be an integer from 1 to ${MAX_PAGE_SIZE}, ${got(ck.page_size)}`;
  if (!int(ck.pages, 1)) return `pages must be a whole number of pages, at least 1, ${got(ck.pages)}`;
  if (ck.total_results !== null && !int(ck.total_results, 0))
    return `total_results must be null or an integer of at least 0, ${got(ck.total_results)}`;
  if (!int(ck.records, 1)) return `records must be an integer of at least 1, ${got(ck.records)}`;
  // Every page before the last is whole; the last is too, unless it was the listing's last (then the export ended
  // just after it, before its file was renamed into place).
  const full = ck.pages * ck.page_size;
  const lastShort = ck.records === ck.total_results && ck.records > full - ck.page_size && ck.records < full;
  if (ck.records !== full && !lastShort)
    return `records must be pages × page_size (${ck.pages} × ${ck.page_size} = ${full}), ${got(ck.records)}`;
  // At least one byte per record (its newline), and the header line.
  if (!int(ck.bytes, ck.records + (tabular ? 1 : 0)))
    return `bytes must be an integer of at least ${ck.records + (tabular ? 1 : 0)} for ${ck.records} records, ${got(ck.bytes)}`;
  if (ck.target !== null && !text(ck.target)) return `target must be null or a path, ${got(ck.target)}`;
  return null;
}

/**
 * Checks the first `ck.bytes` bytes of the saved pages before anything is appended to them: no NUL byte, the last
 * byte ends a whole record, the CSV/TSV header is the checkpoint's, and the record count is the checkpoint's. The
 * problem, as the end of a sentence about the file; null when they line up.
 */
export async function savedPagesProblem(fh: FileHandle, ck: Checkpoint): Promise<string | null> {
  const { line, multiline } = FORMAT_SPECS[ck.format as Format];
  const header = line ? Buffer.from(line(ck.fields ?? ck.columns ?? [])) : null;
  const buf = Buffer.alloc(1 << 20);
  let lines = 0;
  let quoted = false;
  let last = -1;
  let headerSeen = false;
  const start: Buffer[] = [];
  for (let pos = 0; pos < ck.bytes; ) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, ck.bytes - pos), pos);
    if (bytesRead === 0) return `has ${pos} bytes, fewer than the ${ck.bytes} its checkpoint counts`;
    const chunk = buf.subarray(0, bytesRead);
    const nul = chunk.indexOf(0);
    if (nul >= 0)
      return (
        `holds a NUL byte at offset ${pos + nul}: it is not what sq wrote (a file extended past the ` +
        `data it got, as truncate -s does to a file that lost data)`
      );
    if (header && !headerSeen) start.push(Buffer.from(chunk.subarray(0, Math.min(bytesRead, header.length + 1))));
    // Newlines outside quotes end records: a quoted CSV cell may hold newlines ("" inside it toggles twice); TSV and
    // NDJSON escape theirs. indexOf keeps this at memory speed (a byte loop did not).
    let quote = multiline ? chunk.indexOf(0x22) : -1;
    let newline = chunk.indexOf(0x0a);
    while (newline >= 0 || quote >= 0) {
      if (quote >= 0 && (newline < 0 || quote < newline)) {
        quoted = !quoted;
        quote = chunk.indexOf(0x22, quote + 1);
        continue;
      }
      if (!quoted) {
        if (lines === 0) headerSeen = true;
        lines++;
      }
      newline = chunk.indexOf(0x0a, newline + 1);
    }
    last = chunk[bytesRead - 1];
    pos += bytesRead;
  }
  if (last !== 0x0a || quoted)
    return `does not end with a whole record at byte ${ck.bytes} (its checkpoint's count): its last record is cut`;
  if (header) {
    const first = Buffer.concat(start).subarray(0, header.length);
    if (!first.equals(header)) {
      return (
        `starts with a header other than the one its checkpoint's columns make (${JSON.stringify(header.toString().trimEnd())}): ` +
        `the rows would not line up with it`
      );
    }
  }
  const records = lines - (header ? 1 : 0);
  if (records !== ck.records)
    return `holds ${records} record${records === 1 ? '' : 's'} in its first ${ck.bytes} bytes, but its checkpoint counts ${ck.records}`;
  return null;
}

/** Replace the checkpoint atomically: a crash leaves the old one or the new one, never half of one. */
export async function writeCheckpoint(path: string, ck: Checkpoint): Promise<void> {
  await replaceFile(path, JSON.stringify({ ...ck, updated_at: new Date().toISOString() }, null, 2) + '\n');
}

export async function removeCheckpoint(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/** The first way the checkpoint differs from the command, as a message naming the flag; null when it matches. */
export function mismatch(ck: Checkpoint, want: Want): string | null {
  const scopeFlag = 'squid' in ck.scope ? '--squid' : '--run';
  const scopeId = 'squid' in ck.scope ? ck.scope.squid : ck.scope.run;
  const show = (v: unknown) => (v === null || v === undefined ? 'none' : Array.isArray(v) ? v.join(',') : String(v));
  if (scopeFlag !== want.scopeFlag)
    return `the checkpoint is for ${scopeFlag} ${scopeId}, this command uses ${want.scopeFlag}`;
  if (want.scopeRef !== ck.scope_ref && want.scopeRef !== scopeId)
    return `${scopeFlag}: the checkpoint is for ${ck.scope_ref}, this command asks for ${want.scopeRef}`;
  const pairs: [string, unknown, unknown][] = [
    ['--task', ck.task, want.task],
    ['--format', ck.format, want.format],
    ['--fields', ck.fields, want.fields],
    ['page size', ck.page_size, want.page_size],
    ['-o', ck.target, want.target],
  ];
  for (const [flag, had, asked] of pairs) {
    if (show(had) !== show(asked)) return `${flag}: the checkpoint has ${show(had)}, this command has ${show(asked)}`;
  }
  return null;
}

/** The results changed under an interrupted export: its pages no longer line up with the ones still to read. */
export class ResultsChangedError extends SqError {}

/** Refuse a resume whose remaining pages would not line up with the ones already written. */
export function checkTotal(ck: Checkpoint, total: number | null, startOver: string): void {
  if (ck.total_results === null || total === null || total === ck.total_results) return;
  throw new ResultsChangedError(
    `cannot resume: the results changed since the export was interrupted (${ck.total_results} then, ${total} now; ` +
      `a squid still running?), so the pages already written no longer line up with the rest. Nothing was changed; ${startOver}`,
  );
}
