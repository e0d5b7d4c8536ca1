// Task helpers: reading task values from files, tolerating the task shapes of different endpoints, and waiting for
// an upload to finish.
import { TimeoutError, UsageError } from '../errors.js';
import type { HttpClient } from './http.js';
import { unexpectedWriteAnswer } from './http-errors.js';
import { isRecord, type Rec } from '../lib/guards.js';
import { seg } from './path.js';
import { checks } from './checks.js';

/** Task values from a file: a JSON array (strings become `{[key]: value}`), otherwise one value per line. */
export function parseTaskFile(text: string, key: string, flag = '--file'): Rec[] {
  const body = text.replace(/^\uFEFF/, '');
  if (/^\s*\[/.test(body)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      // JSON.parse's message quotes the text around the error: never a file's content in an error.
      throw new UsageError(
        `${flag}: the file starts with "[" but is not valid JSON (expected a JSON array of objects or strings)`,
      );
    }
    const list = parsed as unknown[];
    return list.map((v, i) => {
      if (isRecord(v)) return v;
      if (typeof v === 'string' || typeof v === 'number') return { [key]: String(v) };
      throw new UsageError(
        `${flag}: element ${i + 1} of the JSON array must be an object or a string (got ${v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v})`,
      );
    });
  }
  return body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((v) => ({ [key]: v }));
}

/** get-task answers `hash_value` instead of `id` and an integer `module`: give every task an `id` first. */
export function normalizeTask(t: unknown): Rec {
  if (!isRecord(t)) return { id: null };
  const id = t.id ?? t.hash_value ?? t.hash ?? null;
  return { id, ...t };
}

interface UploadStatus extends Rec {
  id?: string;
  state?: string;
  meta?: { duplicates?: number; inserted?: number; invalid?: number; valid?: number } | null;
}

const UPLOAD_DONE = new Set(['SUCCESS', 'FAILURE']);

export async function uploadStatus(http: HttpClient, id: string): Promise<UploadStatus> {
  // 202 means "still processing" and carries the same shape with meta null.
  const res = await http.request<UploadStatus>('GET', `${UPLOAD_PATH}/${seg('upload id', id)}`, { okStatuses: [202] });
  return isRecord(res.data) ? res.data : {};
}

interface WaitDeps {
  now(): number;
  sleep(ms: number): Promise<void>;
  onState?(state: string): void;
}

const POLL_MS = 1500;

export async function waitForUpload(
  http: HttpClient,
  id: string,
  timeoutMs: number,
  deps: WaitDeps,
): Promise<UploadStatus> {
  const deadline = deps.now() + timeoutMs;
  let last = '';
  for (;;) {
    const s = await uploadStatus(http, id);
    const state = String(s.state ?? '').toUpperCase();
    if (state !== last) deps.onState?.(state || 'UNKNOWN');
    last = state;
    if (UPLOAD_DONE.has(state)) return s;
    if (deps.now() + POLL_MS > deadline) {
      throw new TimeoutError(
        `upload ${id} is still ${state || 'processing'} after the timeout; check later with: sq tasks upload-status ${id}`,
      );
    }
    await deps.sleep(POLL_MS);
  }
}

/** A flat summary row for an upload (tolerates meta null / missing counters). */
export function uploadSummary(s: UploadStatus): Rec {
  const m = isRecord(s.meta) ? s.meta : {};
  return {
    id: s.id ?? null,
    state: s.state ?? null,
    inserted: m.inserted ?? null,
    duplicates: m.duplicates ?? null,
    invalid: m.invalid ?? null,
    valid: m.valid ?? null,
  };
}

export const TASKS_PATH = '/v1/tasks';
const UPLOAD_PATH = '/v1/tasks/upload';

export function taskPath(id: string): string {
  return `${TASKS_PATH}/${seg('task id', id)}`;
}

export function getTask(http: HttpClient, id: string): Promise<unknown> {
  return http.get(taskPath(id), { expect: checks.task });
}

export function deleteTask(http: HttpClient, id: string): Promise<unknown> {
  return http.delete(taskPath(id));
}

/** The API documents no batch limit; large lists go in requests of this many tasks, so none is refused for size. */
export const TASKS_PER_REQUEST = 500;

/** `tasks` in the batches addTasks sends, TASKS_PER_REQUEST at most each, in order. */
export function taskBatches<T>(tasks: T[]): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < tasks.length; i += TASKS_PER_REQUEST) batches.push(tasks.slice(i, i + TASKS_PER_REQUEST));
  return batches;
}

/** `more`: another batch follows, so a dry run plans this one and goes on to the next. */
export async function addTasks(http: HttpClient, squidId: string, tasks: Rec[], more = false): Promise<unknown> {
  const res = await http.post(TASKS_PATH, { squid: squidId, tasks }, more ? { dryRunAnswer: {} } : {});
  // The answer lists the tasks added and counts those skipped: without either, nothing says what happened.
  if (http.sendsWrites && !(isRecord(res) && (Array.isArray(res.tasks) || typeof res.duplicated_count === 'number'))) {
    throw unexpectedWriteAnswer('POST', TASKS_PATH, 'the tasks added or a duplicated_count');
  }
  return res;
}

export function uploadTasks(http: HttpClient, form: FormData): Promise<unknown> {
  return http.post(UPLOAD_PATH, form);
}
