// The typed records of the emulator's state, one per resource, with the docs' field types (get-squid-details,
// list-tasks, get-run, get-run-tasks, get-account-details). Type aliases, not interfaces, so a record still passes
// where a view takes a plain object. Each is built by one constructor (seed.ts newSquid/newTask/newAccount,
// records.ts runRecord/runtaskRecord), which sets every field.
import type { RunEventName } from '../../tables/run-events.js';
import type { CrawlerDef } from '../crawler-types.js';

/** A JSON value as stored (params, result cells). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** Task or squid params: the crawler's names to JSON values (squid params may carry `functions`). */
export type Params = { [name: string]: Json | undefined };

/** A crawler (list-crawlers, get-crawler-details): its public fields, and the definition its other endpoints project. */
export type CrawlerRecord = {
  id: string;
  object: 'crawler';
  name: string;
  slug: string;
  icon: string;
  is_public: boolean;
  is_available: boolean;
  is_premium: boolean;
  has_issues: boolean;
  max_concurrency: number;
  credits_per_row: number;
  account: { type: string; baseurl: string; cookies: { name: string; required: boolean }[]; icon: string } | null;
  /** No docs page shows one; sq's crawler search reads it where a record has one. */
  description?: string;
  def: CrawlerDef;
};

export type ChainRecord = {
  id: string;
  target_module_id: string;
  /** The target squid's id, once the first fire created it. */
  target_cluster: string | null;
  field_map: Record<string, string>;
  is_active: boolean;
  autostart: boolean;
  cluster_name: string | null;
  cluster_concurrency: number | null;
  created_at: string;
};

export type ScheduleRecord = { cron_expression: string | null; timezone?: string };

/** A squid's SFTP delivery as stored (spec: delivery configuration). */
export type FtpFields = {
  host: string;
  port: number;
  username: string;
  password: string;
  directory: string;
  is_active: boolean;
};

/** A squid's webhook delivery as stored (spec: delivery configuration, run events). */
export type WebhookFields = {
  url: string;
  is_active: boolean;
  retry: boolean;
  events: Record<RunEventName, boolean>;
};

type SheetFields = { url: string | null; append: boolean; is_active: boolean };
type S3Fields = { bucket: string | null; is_active: boolean; [key: string]: Json | undefined };

export type SquidRecord = {
  id: string;
  object: 'squid';
  created_at: string;
  name: string;
  is_ready: boolean;
  is_active: boolean;
  concurrency: number;
  crawler: string;
  crawler_name: string;
  is_public: boolean;
  params: Params;
  download_url: string | null;
  email: string | null;
  notifications: boolean;
  notifications_params: { run_notify: 'on_success' | 'on_error' | null };
  notifications_activation_date?: string;
  schedule: ScheduleRecord | null;
  schedule_time: string | null;
  no_line_breaks: boolean;
  export_runs: boolean;
  export_unique_results: boolean;
  to_complete: boolean;
  google_sheet_fields: SheetFields | null;
  ftp_fields: FtpFields | null;
  s3_fields: S3Fields | null;
  webhook_fields: WebhookFields | null;
  /** Ids of the linked accounts (model/account-links.ts). */
  accounts: string[];
  chain?: ChainRecord;
  /** The source squid whose chain created this one. */
  chained_from?: string;
};

/** A squid with every documented field at its creation default (get-squid-details), not ready until `is_ready` says. */
export function squidRecord(
  init: Pick<SquidRecord, 'id' | 'created_at' | 'name' | 'crawler' | 'crawler_name' | 'params'>,
): SquidRecord {
  return {
    id: init.id,
    object: 'squid',
    created_at: init.created_at,
    name: init.name,
    is_ready: false,
    is_active: true,
    concurrency: 1,
    crawler: init.crawler,
    crawler_name: init.crawler_name,
    is_public: false,
    params: init.params,
    download_url: null,
    email: null,
    notifications: false,
    notifications_params: { run_notify: null },
    schedule: null,
    schedule_time: null,
    no_line_breaks: false,
    export_runs: false,
    export_unique_results: false,
    to_complete: false,
    google_sheet_fields: null,
    ftp_fields: null,
    s3_fields: null,
    webhook_fields: null,
    accounts: [],
  };
}

export type TaskRecord = {
  id: string;
  object: 'task';
  created_at: string;
  is_active: boolean;
  params: Params;
  squid: string;
  /** The crawler's id. */
  module: string;
  type: 'url' | 'params';
};

export type RunStatus = 'pending' | 'running' | 'paused' | 'uploading' | 'done' | 'error' | 'aborted';

export type RunRecord = {
  id: string;
  object: 'run';
  squid: string;
  is_done: boolean;
  created_at: string;
  started_at: string;
  ended_at: string | null;
  next_launch_at: string | null;
  duration: number;
  credit_used: number;
  origin: 'user' | 'schedule' | 'chain';
  force_launch: boolean;
  status: RunStatus;
  export_done: boolean | null;
  export_count: number;
  export_time: string | null;
  email_done: boolean | null;
  email_time: string | null;
  email_verification: Json;
  total_results: number;
  total_unique_results: number;
  done_reason: string | null;
  done_reason_desc: string | null;
};

export type RuntaskRecord = {
  object: 'runtask';
  id: string;
  task: string;
  run: string;
  status: 'pending' | 'running' | 'completed' | 'error' | 'aborted';
  params: Params;
  started_at: string | null;
  ended_at: string | null;
  total_results: number;
  last_result: number;
  total_pages: number;
  last_page: number;
  done_reason: string | null;
  done_reason_desc: string | null;
  last_collection_at: string | null;
};

/** A limit an account type declares (list-account-types: max, default, attribute, description). */
export type LimitDef = { max?: number; default?: number; attribute?: string; description?: string };
/** An account's counter of one limit (update-account-limits sample). */
export type LimitCounter = {
  max: number;
  default?: number;
  value?: number;
  current?: number;
  timestamp?: number;
  [key: string]: Json | undefined;
};

export type AccountRecord = {
  id: string;
  object: 'account';
  username: string;
  created_at: string;
  last_synchronization_time: string;
  /** HTTP-like code as a string: "200" healthy. */
  status: string;
  status_code_info: string;
  status_code_description: string;
  type: string;
  params: { default: Record<string, LimitDef>; user: Record<string, LimitCounter> };
  updated_at: string | null;
  account_type_hash: string;
  baseurl: string;
  cookies: { name: string; required: boolean }[];
  icon: string;
  /** The run holding the account (account health: lock_time), while it is active. */
  locked_by?: string;
  lock_time?: string;
};

/** An account type (list-account-types): its cookies and the limits its accounts take. */
export type AccountTypeRecord = {
  id: string;
  object: 'account_type';
  name: string;
  icon: string;
  domain: string;
  baseurl: string;
  cookies: { name: string; required: boolean }[];
  params: Record<string, LimitDef>;
};

function isJson(v: unknown, depth = 0): v is Json {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (depth > 32 || typeof v !== 'object') return false;
  return Array.isArray(v) ? v.every((x) => isJson(x, depth + 1)) : Object.values(v).every((x) => isJson(x, depth + 1));
}

/** Params from a request or a result row: each JSON value kept, anything else (undefined, a function) dropped. */
export function paramsOf(values: Record<string, unknown>): Params {
  const out: Params = {};
  for (const [k, v] of Object.entries(values)) if (isJson(v)) out[k] = v;
  return out;
}

/**
 * A result row (get-results): its keys, then one cell per attribute of its crawler (the crawler's columns, JSON
 * values). The cells differ by crawler, so they are a map; the keys that tie the row to its run are typed.
 */
export type ResultRecord = {
  id: string | number;
  squid: string;
  run: string;
  task: string | null;
  [column: string]: Json | undefined;
};

/**
 * A generated row (rows.ts) as the stored result `id`: in place, no copy (100,000-row runs must stay cheap). Its
 * squid and run are checked; its cells are the generator's JSON values.
 */
export function resultRecord(row: Record<string, unknown>, id: string | number): ResultRecord {
  if (typeof row.squid !== 'string' || typeof row.run !== 'string')
    throw new Error('a result row needs its squid and run ids');
  row.id = id;
  row.task ??= null;
  return row as ResultRecord;
}

/** A task upload (upload-tasks, check-upload-status): its rows wait here until it is processed. */
export type UploadRecord = {
  id: string;
  object: 'task_upload';
  state: 'PENDING' | 'PROGRESS' | 'SUCCESS' | 'FAILURE';
  meta: { duplicates: number; inserted: number; invalid: number; valid: number } | null;
  squid: string;
  rows?: Record<string, string>[];
  /** Business-time ms when it is processed; null once done. */
  due_at: number | null;
};

/** A cookie synchronization (sync-account, check-sync-status, refresh-cookies). */
export type SyncRecord = {
  id: string;
  object: 'synchronize-cookies';
  status_code: number;
  status_text: string;
  type: string;
  /** Kept until the sync finishes, then dropped. */
  cookies?: Params;
  account_hash: string | null;
  due_at: number | null;
};

/** Where a run's timers stand (engine.ts), so a --state restart re-arms them. */
export type RunMeta = {
  /** Tasks of the run, in processing order. */
  tasks: string[];
  /** Index of the next task to process. */
  next: number;
  /** Business-time ms when the pending timer should fire (for re-scheduling after a restart). */
  dueAt: number | null;
  step: 'start' | 'task' | 'resume' | 'finish' | 'finish_abort' | null;
};

/** A webhook retry waiting on the clock (webhooks.ts); kept in the state so a --state restart still sends it. */
export type PendingRetry = {
  key: number;
  due: number;
  cfg: { url: string; retry: boolean };
  payload: { [key: string]: Json };
  meta: { squid: string; run: string; event: RunEventName };
  n: number;
};

/** Credits per row: the crawler's rate and each enabled paid function's (credits.ts). */
export type Rates = { base: number; functions: Record<string, number> };
export type FnCharge = { credits: number; attempts: number };
/** What a run charged: the rates last applied, and credits and attempts (tasks that produced rows) per function. */
export type RunCharge = { rates: Rates; functions: Record<string, FnCharge> };
/** Deleted squids and their runs with their charges, shown by the credit views for 30 days (credits.ts). */
export type CreditArchive = {
  squids: Record<string, { id: string; name: string; crawler: string; crawler_name: string; deleted_ms: number }>;
  runs: Record<string, { run: RunRecord; charge: RunCharge }>;
};
