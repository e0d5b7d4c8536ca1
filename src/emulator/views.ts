// Public shapes of stored records. Stored records hold the documented fields; derived ones (durations,
// last-run fields, linked squids) are computed here at read time.
import { createHash } from 'node:crypto';
import type { EmuCore } from './emu.js';
import { paramsWithoutFunctions } from './crawlers.js';
import { float4, hashId, isoZ, naiveUs, timedelta, type Rec } from './util.js';
import { parseApiTime } from '../lib/api-time.js';
import { nextLaunchMs } from './model/schedule.js';
import { exhausted, limitCounter } from './collect.js';
import { linksView } from './model/account-links.js';
import type { SquidRecord } from './model/records.js';
import * as store from './model/store.js';

export function runDurationMs(emu: EmuCore, run: Rec): number {
  const start = parseApiTime(run.started_at);
  if (start === null) return 0;
  const end = parseApiTime(run.ended_at) ?? emu.clock.now();
  return Math.max(0, end - start);
}

/** The two timestamp forms the samples show: `…Z` without a fraction, and naive UTC with microseconds. */
export type StampForm = 'Z' | 'us';

/**
 * `rec` with the timestamp fields `keys` in the form the endpoint's sample shows, whatever form the record was
 * stored in (seeded, created here or by a chain); null and unparsable values stay as they are.
 */
export function stamped(rec: Rec, keys: readonly string[], form: StampForm): Rec {
  const out: Rec = { ...rec };
  for (const k of keys) {
    const ms = parseApiTime(rec[k]);
    if (ms !== null) out[k] = form === 'Z' ? isoZ(ms) : naiveUs(ms);
  }
  return out;
}

const RUN_STAMPS = ['created_at', 'started_at', 'ended_at', 'export_time', 'email_time', 'next_launch_at'] as const;
/** Run tasks (get-run-tasks sample): `…Z`. */
export const runtaskView = (rt: Rec): Rec => stamped(rt, ['started_at', 'ended_at', 'last_collection_at'], 'Z');

/** Run as list/start/abort show it: duration in float seconds (0 until it starts running), credit_used to 4 decimals. */
export function runView(emu: EmuCore, run: Rec): Rec {
  const { email_verification: _ev, ...rest } = run;
  const duration = run.status === 'pending' ? 0 : float4(runDurationMs(emu, run) / 1000);
  return stamped({ ...rest, duration, credit_used: float4(run.credit_used) }, RUN_STAMPS, 'Z');
}

/**
 * Run as GET /runs/{hash} shows it: duration as a timedelta string (the live service differs by endpoint), and
 * `email_done` false rather than null, as the get-run sample has it.
 */
export function runDetailView(emu: EmuCore, run: Rec): Rec {
  const view = {
    ...run,
    duration: timedelta(runDurationMs(emu, run)),
    credit_used: float4(run.credit_used),
    email_done: run.email_done ?? false,
  };
  return stamped(view, RUN_STAMPS, 'us');
}

export function runsOfSquid(emu: EmuCore, squid: string): Rec[] {
  // Newest first; runs created in the same microsecond keep reverse insertion order.
  return store
    .records(emu, 'runs')
    .filter((r) => r.squid === squid)
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (parseApiTime(b.r.created_at) ?? 0) - (parseApiTime(a.r.created_at) ?? 0) || b.i - a.i)
    .map((x) => x.r);
}

export function fileToken(run: string): string {
  return hashId(run, 'file');
}

export function fileSignature(token: string, expires: number, secret: string): string {
  return createHash('md5').update(`${token}:${expires}:${secret}`).digest('hex');
}

/** A presigned-looking URL on this emulator, valid for an hour of business time. */
export function downloadUrl(emu: EmuCore, run: string): string {
  const token = fileToken(run);
  const expires = Math.floor(emu.clock.now() / 1000) + 3600;
  const sig = fileSignature(token, expires, store.token(emu));
  return `${emu.baseUrl}/_emulator/files/${token}.csv?Expires=${expires}&Signature=${sig}`;
}

/** When the squid's schedule next starts a run (naive UTC with microseconds, as its other times), null without one. */
function nextLaunch(emu: EmuCore, squid: SquidRecord): string | null {
  const ms = nextLaunchMs(squid, emu.clock.now());
  return ms === null ? null : naiveUs(ms);
}

function lastRunFields(emu: EmuCore, squid: SquidRecord): Rec {
  const runs = runsOfSquid(emu, String(squid.id));
  const last = runs[0];
  const exported = runs.find((r) => r.export_done === true);
  return {
    last_run_status: last ? String(last.status).toUpperCase() : null,
    last_run: last ? last.id : null,
    last_run_at: last ? last.created_at : null,
    last_run_done_reason: last ? last.done_reason : null,
    last_run_is_done: last ? last.is_done : null,
    total_runs: runs.length,
    next_launch_at: nextLaunch(emu, squid),
    download_url: exported ? downloadUrl(emu, String(exported.id)) : null,
  };
}

/**
 * What GET /v1/squids/{hash} shows of each delivery channel (get-squid-details sample): always an object, the
 * sampled default when never set, else only the documented subset. Never a password, key or username: the full
 * configuration stays in the state, where the SFTP and webhook deliveries read it.
 */
export const DELIVERY_VIEWS: Record<string, { keys: readonly string[]; unset: Rec }> = {
  ftp_fields: { keys: ['host', 'port', 'is_active'], unset: { host: 'localhost', port: 22, is_active: false } },
  s3_fields: { keys: ['bucket', 'is_active'], unset: { bucket: null, is_active: false } },
  webhook_fields: { keys: ['url', 'is_active'], unset: { url: null, is_active: false } },
  google_sheet_fields: { keys: ['url', 'append', 'is_active'], unset: { url: null, append: false, is_active: false } },
};

function deliveryView(squid: Rec): Rec {
  const out: Rec = {};
  for (const [key, { keys, unset }] of Object.entries(DELIVERY_VIEWS)) {
    const stored = squid[key];
    out[key] =
      stored && typeof stored === 'object'
        ? Object.fromEntries(keys.map((k) => [k, (stored as Rec)[k] ?? unset[k]]))
        : { ...unset };
  }
  return out;
}

export function squidDetailView(emu: EmuCore, squid: SquidRecord): Rec {
  // Not in the get-squid-details sample: the record's object and the e-mail channel's activation date (the e-mail
  // echo has it). Its accounts are shown as SDK 0.7 reads them, for a crawler that uses accounts only (the sample's
  // Google Maps squid has none).
  const { chain, chained_from: _from, object: _o, accounts: _a, notifications_activation_date: _n, ...rest } = squid;
  const view = {
    ...rest,
    ...linksView(emu, squid),
    ...deliveryView(squid),
    ...lastRunFields(emu, squid),
    ...(chain ? { chain: chainView(emu, chain as Rec) } : {}),
  };
  return stamped(view, ['created_at', 'last_run_at'], 'us');
}

/** A squid chain as the chain pages show it (api-reference §8). */
export function chainView(emu: EmuCore, chain: Rec): Rec {
  const crawler = store.record(emu, 'crawlers', chain.target_module_id);
  const target = chain.target_cluster ? store.record(emu, 'squids', String(chain.target_cluster)) : undefined;
  return {
    id: chain.id,
    target_module: {
      id: crawler?.id,
      public_name: crawler?.name,
      name: crawler?.slug,
      max_concurrency: crawler?.max_concurrency,
    },
    target_cluster: target ? { id: target.id, hash_value: target.id, name: target.name } : null,
    field_map: chain.field_map,
    is_active: chain.is_active,
    autostart: chain.autostart,
    cluster_name: chain.cluster_name,
    cluster_concurrency: chain.cluster_concurrency,
    created_at: chain.created_at,
  };
}

export function squidSummaryView(emu: EmuCore, squid: SquidRecord): Rec {
  const d = lastRunFields(emu, squid);
  // list-squids sample: created_at `…Z`, last_run_at naive with microseconds.
  const view: Rec = {
    id: squid.id,
    created_at: squid.created_at,
    name: squid.name,
    is_ready: squid.is_ready,
    is_active: squid.is_active,
    concurrency: squid.concurrency,
    params: paramsWithoutFunctions(squid.params),
    crawler: squid.crawler,
    crawler_name: squid.crawler_name,
    last_run_status: d.last_run_status,
    total_runs: d.total_runs,
    last_run_at: d.last_run_at,
    next_launch_at: d.next_launch_at,
    is_public: squid.is_public,
    // Documented in the list's field table but absent from its sample (whose squid has none): shown when set.
    ...(squid.schedule ? { schedule: squid.schedule } : {}),
  };
  return stamped(stamped(view, ['created_at'], 'Z'), ['last_run_at'], 'us');
}

/** A task as the list-tasks sample shows it (no `object`), created_at naive with microseconds. */
export function taskListView(t: Rec): Rec {
  return stamped(
    { id: t.id, created_at: t.created_at, is_active: t.is_active, params: t.params },
    ['created_at'],
    'us',
  );
}

export function taskCreatedView(t: Rec): Rec {
  const module = 'shown_module' in t ? (t.shown_module ?? undefined) : t.module;
  return stamped(
    { id: t.id, object: 'task', created_at: t.created_at, is_active: t.is_active, params: t.params, module },
    ['created_at'],
    'us',
  );
}

interface TaskLookups {
  /** Each task's last runtask (the latest in state order). */
  lastRuntask: Map<unknown, Rec>;
  crawlerIds: string[];
}

/** What taskDetailView reads about every task, made in one pass: a listing shows a page of tasks with one. */
export function taskLookups(emu: EmuCore): TaskLookups {
  const lastRuntask = new Map<unknown, Rec>();
  for (const rt of store.records(emu, 'runtasks')) lastRuntask.set(rt.task, rt);
  return { lastRuntask, crawlerIds: store.recordIds(emu, 'crawlers') };
}

export function taskDetailView(emu: EmuCore, t: Rec, known: TaskLookups = taskLookups(emu)): Rec {
  const last = known.lastRuntask.get(t.id);
  const status = last
    ? {
        status: last.status,
        started_at: stamped(last, ['started_at'], 'us').started_at,
        ended_at: stamped(last, ['ended_at'], 'us').ended_at,
        is_done: ['completed', 'aborted', 'error'].includes(String(last.status)),
        total_results: last.last_result,
        total_pages: last.total_pages,
        done_reason: last.done_reason,
        has_errors: last.status === 'error',
        errors: last.status === 'error' ? last.done_reason_desc : null,
      }
    : {
        status: 'pending',
        started_at: null,
        ended_at: null,
        is_done: false,
        total_results: 0,
        total_pages: 0,
        done_reason: null,
        has_errors: false,
        errors: null,
      };
  return {
    hash_value: t.id,
    created_at: stamped(t, ['created_at'], 'us').created_at,
    is_active: t.is_active,
    params: t.params,
    // The live get-task returns the crawler's internal integer here, not its hash.
    module: typeof t.shown_module === 'number' ? t.shown_module : known.crawlerIds.indexOf(String(t.module)) + 1,
    object: 'task',
    status,
  };
}

/**
 * Account health (changelog, the vendor's SDK: `status`, `resets_in`, `lock_time`): the samples' accounts are healthy
 * and show neither key, so each is shown only when it applies: `resets_in` (seconds until the daily limit resets)
 * once the limit is reached, `lock_time` (when a run took it) while a run holds it.
 */
function health(emu: EmuCore, a: Rec): Rec {
  const out: Rec = {};
  const c = limitCounter(a);
  if (c && exhausted(a)) out.resets_in = Math.max(0, Math.round(Number(c.timestamp) - emu.clock.now() / 1000));
  const run = a.locked_by ? store.record(emu, 'runs', String(a.locked_by)) : undefined;
  if (run && ['pending', 'running', 'paused', 'uploading'].includes(String(run.status))) out.lock_time = a.lock_time;
  return out;
}

export function accountView(emu: EmuCore, a: Rec): Rec {
  const squids = store
    .records(emu, 'squids')
    .filter((s) => Array.isArray(s.accounts) && (s.accounts as string[]).includes(String(a.id)))
    .map((s) => ({ name: s.name, hash_value: s.id }));
  const { locked_by: _l, lock_time: _t, ...rest } = a;
  return stamped(
    { ...rest, ...health(emu, a), squids },
    ['created_at', 'last_synchronization_time', 'updated_at'],
    'Z',
  );
}
