// The seam between the emulator's core (server, router, state, resources, runs) and its
// feature modules (billing, delivery, webhooks, SFTP). Both sides program against these types.
import type { EventEmitter } from 'node:events';
import type { Clock } from './clock.js';
import { RUN_EVENTS, type RunEventName } from '../tables/run-events.js';
import type {
  AccountRecord,
  AccountTypeRecord,
  CrawlerRecord,
  CreditArchive,
  PendingRetry,
  ResultRecord,
  RunCharge,
  RunMeta,
  RunRecord,
  RuntaskRecord,
  SquidRecord,
  SyncRecord,
  TaskRecord,
  UploadRecord,
} from './model/records.js';

export interface EmuRequest {
  method: string;
  /** Path without the query string, e.g. /v1/squids/abc. */
  path: string;
  /** Values of `:name` segments of the matched route pattern. */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when none), or for multipart the text fields. */
  body: unknown;
  /** Files of a multipart/form-data body, by field name. */
  files: Record<string, { filename: string; content: Buffer }>;
  rawBody: Buffer;
}

export interface EmuResponse {
  status: number;
  /** Serialised as JSON (null is sent as the literal `null`). Omit for an empty body. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as is instead of a JSON body (files, HTML); set content-type in headers. */
  raw?: string | Buffer;
}

export type Handler = (req: EmuRequest) => EmuResponse | Promise<EmuResponse>;

// The run events are the shared table's; the delivery shapes are the emulator's own reading of the spec.
export type RunEvent = RunEventName;
export { RUN_EVENTS };
export type { FtpFields, WebhookFields } from './model/records.js';

export interface AutoResetState {
  enabled: boolean;
  threshold_pct: number;
  max_resets_per_24h: number;
  /** Business-time ms of every automatic reset that fired (for the rolling 24 h window). */
  reset_times: number[];
  /** When set, resets are suppressed until this business-time ms (end of the billing cycle). */
  suppressed_until: number | null;
  /** Outcome the next charge will have (control plane: POST /_emulator/payment). */
  payment_outcome: 'ok' | 'declined' | 'requires_3ds';
}

export interface DeliveryRecord {
  id: number;
  kind: 'webhook' | 'sftp' | 'email' | 'googlesheet' | 's3';
  squid: string;
  run: string | null;
  event?: RunEvent;
  attempt: number;
  /** Business-time ISO timestamp of the attempt. */
  at: string;
  ok: boolean;
  status_code?: number | null;
  error?: string | null;
  target: string;
  /** For SFTP: the remote path written. */
  path?: string;
  /** True for channels the emulator has no backend for (Google Sheet, S3): recorded as delivered, nothing sent. */
  simulated?: boolean;
}

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  body: string;
  at: string;
}

/** Why the run-start rule refuses a run (model/run-start.ts). */
export interface Refusal {
  /** The service's error name, as the message ends with it, e.g. SquidInactive. */
  code: string;
  message: string;
}

/** A launch a schedule or a chain could not make (model/launches.ts). */
export interface RefusedLaunch extends Refusal {
  /** Business-time ISO timestamp. */
  at: string;
  squid: string;
  origin: 'schedule' | 'chain';
}

/** Events the core emits; feature modules subscribe. */
export interface EmuEvents {
  /** A run changed state; `event` is the webhook event type that corresponds. */
  'run.event': [run: Record<string, unknown>, event: RunEvent];
  /** A run reached done and its results are exported (export_done = true). */
  'run.exported': [run: Record<string, unknown>, rows: Record<string, unknown>[]];
  /** Credits were consumed (billing re-checks usage). */
  'credits.consumed': [amount: number];
}

export interface Emu {
  clock: Clock;
  events: EventEmitter<EmuEvents>;
  /** Register a route; pattern segments starting with ':' are parameters, e.g. '/v1/squids/:hash'. */
  route(method: string, pattern: string, handler: Handler): void;
  /** The whole mutable state; persisted (with --state) when markDirty() is called. */
  state: EmuState;
  markDirty(): void;
  /** Next integer id for records that use counters (deliveries, mail). */
  nextId(): number;
  /** ISO string of clock.now(). */
  nowIso(): string;
  /** How long a webhook receiver may take to answer (real ms); the spec's 30 s when unset. Tests lower it. */
  webhookTimeoutMs?: number;
}

/** GET /v1/me (user-me): who the token is. */
export interface UserRecord {
  first_name: string;
  last_name: string;
  email: string;
  email_verified: boolean;
  plan: { name: string; interval: 'monthly' | 'daily'; status: string }[];
  login_count: number;
  profile_image: string | null;
  is_staff: boolean;
  credit_interval: 'monthly' | 'daily';
}

interface Balance {
  id: string;
  object: 'plan';
  name: string;
  available: number;
  consumed: number;
  bonus_credit: number;
  rollover_credit: number;
  rollover_credit_expires_at: string | null;
  interval: 'monthly' | 'daily';
  used_slots: number;
  total_available_slots: number;
  has_unpaid_bill: boolean;
  reset_time: string;
}

/** Sections of the state. The core owns the resource maps; feature modules own their own sections. */
export interface EmuState {
  token: string;
  user: UserRecord;
  balance: Balance;
  /** null when there is no active subscription (then current_usage_pct is null). */
  subscription: { active: boolean; cycle_started_at: number; cycle_ends_at: number } | null;
  crawlers: Record<string, CrawlerRecord>;
  squids: Record<string, SquidRecord>;
  tasks: Record<string, TaskRecord>;
  runs: Record<string, RunRecord>;
  runtasks: Record<string, RuntaskRecord>;
  results: Record<string, ResultRecord>;
  accounts: Record<string, AccountRecord>;
  accountTypes: Record<string, AccountTypeRecord>;
  uploads: Record<string, UploadRecord>;
  syncs: Record<string, SyncRecord>;
  autoReset: AutoResetState;
  deliveries: DeliveryRecord[];
  outbox: OutboxMail[];
  /** Launches a schedule or a chain could not make (model/launches.ts). */
  refusedLaunches?: RefusedLaunch[];
  counter: number;
  /** The feature modules' sections (model/store.ts section()): absent from a state file written before them. */
  runMeta?: Record<string, RunMeta>;
  webhookRetries?: PendingRetry[];
  creditLedger?: Record<string, RunCharge>;
  creditArchive?: CreditArchive;
  /** Business-time ms each export conversion started, by run and options (exports.ts). */
  conversions?: Record<string, number>;
}
