// Task uploads: a CSV/TSV file is parsed at once, then "processed" over business time like the live
// service's background job: PENDING → PROGRESS → SUCCESS (or FAILURE), status 202 until done.
import { readDelimited } from '../csv.js';
import { defOf, taskParamName } from '../crawlers.js';
import type { EmuCore } from '../emu.js';
import { newTask } from '../seed.js';
import { errB, hashId, json, paramsKey } from '../util.js';
import { findSquid, type Rec } from './common.js';
import { existingKeys, taskProblem } from './tasks.js';
import { paramsOf, type UploadRecord } from '../model/records.js';
import * as store from '../model/store.js';

export const UPLOAD_TIMING = { progressMs: 500, doneMs: 2_000 } as const;

function publicUpload(u: UploadRecord): Rec {
  return { id: u.id, object: 'task_upload', state: u.state, meta: u.meta ?? null };
}

function complete(emu: EmuCore, upload: UploadRecord): void {
  // The upload as stored now (a reset may have replaced the state since its timer was set).
  const u = store.record(emu, 'uploads', upload.id);
  if (!u || u.state === 'SUCCESS' || u.state === 'FAILURE') return;
  const squid = store.record(emu, 'squids', String(u.squid));
  const rows = u.rows ?? [];
  store.updateRecord(emu, 'uploads', u.id, { rows: undefined, due_at: null });
  if (!squid) {
    store.updateRecord(emu, 'uploads', u.id, {
      state: 'FAILURE',
      meta: { duplicates: 0, inserted: 0, invalid: rows.length, valid: 0 },
    });
    return;
  }
  const crawler = store.crawlerOf(emu, squid.crawler);
  const seen = existingKeys(emu, String(squid.id));
  let valid = 0;
  let invalid = 0;
  let duplicates = 0;
  let inserted = 0;
  for (const row of rows) {
    if (taskProblem(crawler, row)) {
      invalid++;
      continue;
    }
    valid++;
    const key = paramsKey(row);
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    newTask(emu, squid, paramsOf(row), emu.clock.now());
    inserted++;
  }
  const state = valid === 0 && rows.length > 0 ? 'FAILURE' : 'SUCCESS';
  store.updateRecord(emu, 'uploads', u.id, { state, meta: { duplicates, inserted, invalid, valid } });
}

function scheduleUpload(emu: EmuCore, u: UploadRecord): void {
  const now = emu.clock.now();
  const due = Number(u.due_at ?? now);
  if (u.state === 'PENDING') {
    const progressAt = due - (UPLOAD_TIMING.doneMs - UPLOAD_TIMING.progressMs);
    emu.clock.schedule(Math.max(0, progressAt - now), () => {
      if (store.record(emu, 'uploads', u.id)?.state === 'PENDING')
        store.updateRecord(emu, 'uploads', u.id, { state: 'PROGRESS' });
    });
  }
  emu.clock.schedule(Math.max(0, due - now), () => complete(emu, u));
}

/** After loading a state file: finish uploads that were in flight. */
export function rescheduleUploads(emu: EmuCore): void {
  for (const u of store.records(emu, 'uploads'))
    if (u.state === 'PENDING' || u.state === 'PROGRESS') scheduleUpload(emu, u);
}

export function registerUploads(emu: EmuCore): void {
  emu.route('POST', '/v1/tasks/upload', (req) => {
    const fields = (req.body ?? {}) as Record<string, unknown>;
    const file = req.files.file;
    if (!file) return errB(400, 'A multipart/form-data body with a "file" part is required.', 'file');
    const f = findSquid(emu, fields.squid);
    if (f.res) return f.res;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(file.content);
    } catch {
      return errB(400, 'The file is not valid UTF-8 (BadEncoding).', 'file');
    }
    const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
    const delimiter = /\.tsv$/i.test(file.filename) || firstLine.includes('\t') ? '\t' : ',';
    const table = readDelimited(text, delimiter);
    if (table.length < 2) return errB(400, 'The file needs a header row and at least one task row.', 'file');
    const def = defOf(store.crawlerOf(emu, f.rec.crawler));
    const header = table[0].map((h) => taskParamName(def, h.trim()));
    const known = Object.keys(def.task);
    if (!header.some((h) => known.includes(h)))
      return errB(400, `No column of the header matches a task parameter (${known.join(', ')}).`, 'file');
    const rows = table.slice(1).map((cells) => {
      const row: Record<string, string> = {};
      header.forEach((h, i) => {
        const v = (cells[i] ?? '').trim();
        if (h && v !== '') row[h] = v;
      });
      return row;
    });
    const id = hashId(emu.nextId(), 'upload');
    const u: UploadRecord = {
      id,
      object: 'task_upload',
      state: 'PENDING',
      meta: null,
      squid: f.rec.id,
      rows,
      due_at: emu.clock.now() + UPLOAD_TIMING.doneMs,
    };
    store.putRecord(emu, 'uploads', u);
    scheduleUpload(emu, u);
    emu.markDirty();
    return json(200, { id, object: 'task_upload' });
  });

  emu.route('GET', '/v1/tasks/upload/:id', (req) => {
    const u = store.record(emu, 'uploads', req.params.id);
    if (!u) return errB(404, 'Upload task not found', 'upload_task_id');
    const done = u.state === 'SUCCESS' || u.state === 'FAILURE';
    return json(done ? 200 : 202, publicUpload(u));
  });
}
