// Delivery configuration: request bodies (api-reference §9), reading the stored config back from the squid record
// (there is no GET /delivery), and comparing the two for `sq delivery apply`.
import { isRecord } from '../lib/guards.js';
import type { HttpClient } from './http.js';
import { RUN_EVENTS, type RunEventName } from './events.js';
import type { Squid } from './records.js';

export type Channel = 'sftp' | 'webhook' | 'email' | 'sheet' | 's3';

export interface FtpFields {
  host: string;
  port: number;
  username: string;
  password: string;
  directory: string;
  is_active: boolean;
}

export interface WebhookFields {
  url: string;
  is_active: boolean;
  retry: boolean;
  events: Record<RunEventName, boolean>;
}

interface SheetFields {
  url: string;
  append: boolean;
  is_active: boolean;
}

export interface S3Fields {
  bucket: string;
  target_path: string;
  is_active: boolean;
  aws_access_key?: string;
  aws_secret_key?: string;
}

interface EmailConfig {
  email: string;
  notifications: boolean;
}

/** The body of one POST /v1/delivery request: exactly one channel. */
export type DeliveryBody =
  | { ftp_fields: FtpFields }
  | { webhook_fields: WebhookFields }
  | { google_sheet_fields: SheetFields }
  | { s3_fields: S3Fields }
  | EmailConfig;

/** All four booleans, always: the API requires every one of them on write. */
export function eventsObject(subscribed: readonly RunEventName[]): Record<RunEventName, boolean> {
  const out = {} as Record<RunEventName, boolean>;
  for (const e of RUN_EVENTS) out[e] = subscribed.includes(e);
  return out;
}

export const DELIVERY_PATH = '/v1/delivery';

export async function postDelivery(
  http: HttpClient,
  squidId: string,
  body: DeliveryBody,
): Promise<Record<string, unknown>> {
  const res = await http.post<unknown>(DELIVERY_PATH, body, { query: { squid: squidId } });
  return isRecord(res) ? res : { result: res };
}

export type TestKind = 'sftp' | 'webhook' | 'email' | 'googlesheet' | 's3';

export interface TestResult {
  success: boolean;
  status_code?: number | null;
  error?: string;
  [k: string]: unknown;
}

/** The test operations take flat bodies (not wrapped in *_fields) and have no squid parameter. */
function deliveryTestPath(kind: TestKind): string {
  return `/v1/delivery/test-${kind}`;
}

export async function postDeliveryTest(
  http: HttpClient,
  kind: TestKind,
  body: Record<string, unknown>,
): Promise<TestResult> {
  const res = await http.post<unknown>(deliveryTestPath(kind), body);
  if (!isRecord(res)) return { success: false, error: 'the API answered with an unexpected body' };
  return { ...res, success: res.success === true } as TestResult;
}

/** The delivery part of a squid record (GET /v1/squids/{hash}); a channel never set is null or, as the live service
 * answers, an object with `is_active: false`. */
export interface StoredDelivery {
  ftp_fields: Record<string, unknown> | null;
  webhook_fields: Record<string, unknown> | null;
  google_sheet_fields: Record<string, unknown> | null;
  s3_fields: Record<string, unknown> | null;
  email: string | null;
  notifications: boolean | null;
}

export function storedDelivery(squid: Squid): StoredDelivery {
  const obj = (v: unknown) => (isRecord(v) && v.is_active !== false ? v : null);
  return {
    ftp_fields: obj(squid.ftp_fields),
    webhook_fields: obj(squid.webhook_fields),
    google_sheet_fields: obj(squid.google_sheet_fields),
    s3_fields: obj(squid.s3_fields),
    email: typeof squid.email === 'string' && squid.email !== '' ? squid.email : null,
    notifications: typeof squid.notifications === 'boolean' ? squid.notifications : null,
  };
}

/** Stored event booleans, from the flat dotted keys or the nested {run: {done}} form the docs also show. */
export function storedEvents(wf: Record<string, unknown>): Record<RunEventName, boolean> | null {
  const ev = wf.events;
  if (!isRecord(ev)) return null;
  const out = {} as Record<RunEventName, boolean>;
  for (const name of RUN_EVENTS) {
    const nested = isRecord(ev.run) ? ev.run[name.slice(4)] : undefined;
    const v = name in ev ? ev[name] : nested;
    if (typeof v !== 'boolean') return null;
    out[name] = v;
  }
  return out;
}

export function channelOf(body: DeliveryBody): Channel {
  if ('ftp_fields' in body) return 'sftp';
  if ('webhook_fields' in body) return 'webhook';
  if ('google_sheet_fields' in body) return 'sheet';
  if ('s3_fields' in body) return 's3';
  return 'email';
}
