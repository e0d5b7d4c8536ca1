// Squids: create, list (name filter), detail, partial update (answering the documented update record), empty, delete.
import type { EmuCore } from '../emu.js';
import type { EmuRequest, EmuResponse } from '../types.js';
import { defaultSquidParams, defOf, paramsWithoutFunctions, squidParamProblem } from '../crawlers.js';
import { abortRun, forgetRun, isActive } from '../engine.js';
import { archiveSquid } from '../credits.js';
import { paginate } from '../pagination.js';
import { newSquid } from '../seed.js';
import { errB, isoZ, isRecord, json } from '../util.js';
import { runsOfSquid, squidDetailView, squidSummaryView } from '../views.js';
import { bodyObject, findSquid, MAX_CONCURRENCY, type Rec } from './common.js';
import { slotsProblem } from '../model/slots.js';
import { checkLinks } from '../model/account-links.js';
import type { SquidRecord } from '../model/records.js';
import { checkCron, checkZone } from '../model/schedule.js';
import { applySquidUpdate, updateAnswer } from '../model/squid-update.js';
import * as store from '../model/store.js';

function nameTaken(emu: EmuCore, name: string, except?: string): boolean {
  const n = name.trim().toLowerCase();
  return store.records(emu, 'squids').some((s) => s.id !== except && String(s.name).toLowerCase() === n);
}

function autoName(emu: EmuCore, crawlerName: string): string {
  for (let n = 1; ; n++) if (!nameTaken(emu, `${crawlerName} (${n})`)) return `${crawlerName} (${n})`;
}

/** Removes tasks matching `pred` of a squid, with their run tasks and results. */
/**
 * Deletes the squid's tasks that `pred` picks. `keepFinished` (empty): the results a finished run collected from them
 * stay, as that run's results (its export and `results list --run` still have them); only results of runs still in
 * progress go. Deleting the squid takes every result with it.
 */
function deleteTasks(emu: EmuCore, squidId: string, pred: (t: Rec) => boolean, keepFinished = false): number {
  const ids = new Set<string>();
  for (const t of store.records(emu, 'tasks')) if (t.squid === squidId && pred(t)) ids.add(String(t.id));
  for (const id of ids) store.dropRecord(emu, 'tasks', id);
  for (const rt of store.records(emu, 'runtasks')) if (ids.has(rt.task)) store.dropRecord(emu, 'runtasks', rt.id);
  const finished = (run: unknown) => store.record(emu, 'runs', String(run))?.is_done === true;
  if (ids.size) emu.deleteResults((r) => ids.has(String(r.task)) && !(keepFinished && finished(r.run)));
  return ids.size;
}

type Check = { ok: true; value: unknown } | { ok: false; message: string };
const UPDATABLE: Record<string, (v: unknown, emu: EmuCore, squid: SquidRecord) => Check> = {
  name: (v, emu, s) =>
    typeof v !== 'string' || !v.trim()
      ? { ok: false, message: 'name must be a non-empty string.' }
      : nameTaken(emu, v, String(s.id))
        ? { ok: false, message: 'A squid with this name already exists (DuplicateSquid).' }
        : { ok: true, value: v.trim() },
  is_active: (v) =>
    typeof v === 'boolean' ? { ok: true, value: v } : { ok: false, message: 'is_active must be a boolean.' },
  concurrency: (v, emu, s) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_CONCURRENCY)
      return { ok: false, message: `concurrency must be an integer between 1 and ${MAX_CONCURRENCY}.` };
    const max = Number(store.record(emu, 'crawlers', String(s.crawler))?.max_concurrency ?? MAX_CONCURRENCY);
    return v > max
      ? { ok: false, message: `concurrency exceeds this crawler's maximum of ${max} (ConcurrencyLimitExceeded).` }
      : { ok: true, value: v };
  },
  to_complete: (v) =>
    typeof v === 'boolean' ? { ok: true, value: v } : { ok: false, message: 'to_complete must be a boolean.' },
  export_unique_results: (v) =>
    typeof v === 'boolean'
      ? { ok: true, value: v }
      : { ok: false, message: 'export_unique_results must be a boolean.' },
  no_line_breaks: (v) =>
    typeof v === 'boolean' ? { ok: true, value: v } : { ok: false, message: 'no_line_breaks must be a boolean.' },
  run_notify: (v) =>
    v === null || v === 'on_success' || v === 'on_error'
      ? { ok: true, value: v }
      : { ok: false, message: 'run_notify must be on_success, on_error or null.' },
  cron_expression: checkCron,
  timezone: checkZone,
  params: (v, emu, s) => {
    if (!isRecord(v)) return { ok: false, message: 'params must be an object.' };
    const crawler = store.record(emu, 'crawlers', String(s.crawler));
    for (const [name, value] of Object.entries(v)) {
      if (crawler && name !== 'functions' && !Object.hasOwn(defOf(crawler).squid, name)) {
        const allowed = [
          ...Object.keys(defOf(crawler).squid),
          ...(Object.keys(defOf(crawler).functions).length ? ['functions'] : []),
        ];
        return {
          ok: false,
          message: `Unknown parameter ${JSON.stringify(name)} for this crawler; allowed: ${allowed.join(', ')} (InvalidParameter).`,
        };
      }
      const problem = crawler ? squidParamProblem(defOf(crawler), name, value) : null;
      if (problem) return { ok: false, message: problem };
    }
    if (
      v.functions !== undefined &&
      (!isRecord(v.functions) || Object.values(v.functions).some((b) => typeof b !== 'boolean'))
    )
      return { ok: false, message: 'params.functions must map function names to booleans.' };
    // A REPLACE, as the vendor's clients expect (their SDK reads the params, changes them and sends them whole): a key
    // left out goes back to the crawler's default, whatever was set before; `functions` likewise, as a whole map.
    // (Inferred: the docs say neither "merge" nor what a left-out key becomes; a new squid's params are the defaults.)
    const defaults = crawler ? defaultSquidParams(defOf(crawler)) : {};
    const functions =
      v.functions === undefined ? defaults.functions : { ...((defaults.functions ?? {}) as Rec), ...v.functions };
    return { ok: true, value: { ...defaults, ...v, ...(functions === undefined ? {} : { functions }) } };
  },
  accounts: (v, emu, s) => {
    const r = checkLinks(emu, s, v);
    return r.ok ? { ok: true, value: r.ids } : { ok: false, message: r.message };
  },
};

export function registerSquids(emu: EmuCore): void {
  emu.route('POST', '/v1/squids', (req) => createSquid(emu, req));

  emu.route('GET', '/v1/squids', (req) => {
    const name = req.query.get('name')?.toLowerCase();
    const list = store
      .records(emu, 'squids')
      .filter((s) => !name || String(s.name).toLowerCase().includes(name))
      .reverse();
    return paginate(req, list, (s) => squidSummaryView(emu, s), { freePlan: emu.config.freePlan, style: 'errB' });
  });

  emu.route('GET', '/v1/squids/:hash', (req) => {
    const f = findSquid(emu, req.params.hash, 'squid_hash');
    return f.res ?? json(200, squidDetailView(emu, f.rec));
  });

  emu.route('POST', '/v1/squids/:hash', (req) => updateSquid(emu, req));

  emu.route('POST', '/v1/squids/:hash/empty', (req) => {
    const f = findSquid(emu, req.params.hash, 'squid_hash');
    if (f.res) return f.res;
    const type = bodyObject(req).type;
    if (type !== 'url' && type !== 'params') return errB(400, 'type must be "url" or "params".', 'type');
    const n = deleteTasks(emu, String(f.rec.id), (t) => t.type === type, true);
    emu.markDirty();
    return json(200, { id: f.rec.id, object: 'squid', emptied: true, deleted_count: n });
  });

  emu.route('DELETE', '/v1/squids/:hash', (req) => {
    const f = findSquid(emu, req.params.hash, 'squid_hash');
    if (f.res) return f.res;
    const id = String(f.rec.id);
    archiveSquid(emu, f.rec);
    deleteTasks(emu, id, () => true);
    for (const run of store.records(emu, 'runs')) {
      if (run.squid !== id) continue;
      forgetRun(emu, String(run.id));
      store.dropRecord(emu, 'runs', String(run.id));
      delete emu.runMeta[String(run.id)];
    }
    emu.deleteResults((r) => r.squid === id);
    store.dropRecord(emu, 'squids', id);
    emu.markDirty();
    return json(200, { id, object: 'squid', deleted: true });
  });
}

/** POST /v1/squids: a new squid of a crawler, named or auto-named, if a slot is free. */
function createSquid(emu: EmuCore, req: EmuRequest): EmuResponse {
  const b = bodyObject(req);
  if (typeof b.crawler !== 'string' || !b.crawler) return errB(400, 'crawler is required.', 'crawler');
  const crawler = store.record(emu, 'crawlers', b.crawler);
  if (!crawler) return errB(404, 'Crawler not found (ModuleNotFound).', 'crawler');
  if (b.name !== undefined && (typeof b.name !== 'string' || !b.name.trim()))
    return errB(400, 'name must be a non-empty string.', 'name');
  if (typeof b.name === 'string' && nameTaken(emu, b.name))
    return errB(400, 'A squid with this name already exists (DuplicateSquid).', 'name');
  const name = typeof b.name === 'string' ? b.name.trim() : autoName(emu, String(crawler.name));
  const noSlot = slotsProblem(emu, 1);
  if (noSlot) return errB(400, noSlot, 'squid');
  const s = newSquid(emu, crawler, name, emu.clock.now(), false);
  emu.markDirty();
  return json(200, {
    id: s.id,
    account: [],
    concurrency: s.concurrency,
    crawler: s.crawler,
    created_at: isoZ(emu.clock.now()),
    is_active: s.is_active,
    name: s.name,
    params: paramsWithoutFunctions(s.params),
    schedule: s.schedule,
    to_complete: s.to_complete,
  });
}

/**
 * POST /v1/squids/:hash: the fields given, each checked (an unknown one refused), within the account's slots; the
 * answer is in the form of the squid's crawler (model/squid-update.ts), or the link-account page's when only accounts
 * were set.
 */
function updateSquid(emu: EmuCore, req: EmuRequest): EmuResponse {
  const f = findSquid(emu, req.params.hash, 'squid_hash');
  if (f.res) return f.res;
  const squid = f.rec;
  if (!isRecord(req.body)) return errB(400, 'The body must be a JSON object.', 'body');
  const touched: [string, unknown][] = [];
  // A field the update does not take (a typo, or `chain` / `auto_verify_emails`, which have their own endpoints or
  // none) is refused rather than dropped: a client believing it was stored would be wrong (the vendor's SDK 0.7).
  const unknownKey = Object.keys(req.body).find((k) => !Object.hasOwn(UPDATABLE, k));
  if (unknownKey)
    return errB(
      400,
      `Unknown field ${JSON.stringify(unknownKey)}; allowed: ${Object.keys(UPDATABLE).join(', ')} (InvalidParameter).`,
      unknownKey,
    );
  for (const [key, raw] of Object.entries(req.body)) {
    const r = UPDATABLE[key](raw, emu, squid);
    if (!r.ok) return errB(400, r.message, key);
    touched.push([key, r.value]);
  }
  // Slots: an active squid holds its concurrency's worth; activating it or raising its concurrency must fit.
  const next = Object.fromEntries(touched);
  const active = (next.is_active ?? squid.is_active) !== false;
  const wanted = Math.max(1, Number(next.concurrency ?? squid.concurrency ?? 1));
  const held = squid.is_active !== false ? Math.max(1, Number(squid.concurrency ?? 1)) : 0;
  if (active && wanted > held) {
    const noSlot = slotsProblem(emu, wanted, String(squid.id));
    if (noSlot) return errB(400, noSlot, next.concurrency !== undefined ? 'concurrency' : 'is_active');
  }
  applySquidUpdate(emu, squid, touched);
  // A deactivated squid stops: its run in progress is stopped (aborted), freeing its slot.
  if (next.is_active === false)
    for (const run of runsOfSquid(emu, String(squid.id))) if (isActive(run)) abortRun(emu, run);
  // Linking accounts alone answers as the link-account page shows: 200 {name, concurrency, accounts}.
  if (touched.length === 1 && touched[0][0] === 'accounts')
    return json(200, { name: squid.name, concurrency: squid.concurrency, accounts: squid.accounts });
  const answer = updateAnswer(emu, squid, Object.keys(next));
  return json(answer.status, answer.body);
}
