// How a squid's stored delivery differs from a wanted one (sq plan, sq apply, sq delivery apply): plan logic on top of
// the API's delivery records (api/delivery.ts).

import { RUN_EVENTS } from '../api/events.js';
import { storedEvents, type DeliveryBody, type StoredDelivery } from '../api/delivery.js';
import type { ChannelMemory } from './applied.js';

/** A secret the service answered with, or null when it cannot be compared (absent, empty or masked). */
function readableSecret(v: unknown): string | null {
  if (typeof v !== 'string' || v === '' || /^\*+$/.test(v) || /^\*{4}.{0,4}$/.test(v)) return null;
  return v;
}

interface Difference {
  /** Field names that differ (never their values: some are secrets), and those that will be sent unread. */
  fields: string[];
  /** Fields --assume-unchanged names that could not be read back: not compared, not sent. */
  unverified: string[];
  /** Fields the service does not read back and sq never applied here: "cannot be read back: will be sent". */
  unreadable: string[];
  /** The value sq last applied of each field compared with its memory (the plan's "from"). */
  from: Record<string, unknown>;
}

/** What the diff knows beside the live record: what sq last applied, and the fields the user says are unchanged. */
export interface DiffContext {
  memory?: ChannelMemory;
  /** Whether --assume-unchanged names this field of this channel. */
  assumed?: (field: string) => boolean;
}

/**
 * A field the service did not answer: compared with what sq last applied; never applied by sq, it is sent (a change),
 * unless --assume-unchanged names it.
 */
function unread(out: Difference, name: string, want: unknown, ctx: DiffContext) {
  const same = ctx.memory?.same(name, want);
  if (same === true) return;
  if (same === false) {
    out.fields.push(name);
    out.from[name] = ctx.memory?.last(name) ?? null;
  } else if (ctx.assumed?.(name)) out.unverified.push(name);
  else {
    out.fields.push(name);
    out.unreadable.push(name);
  }
}

function cmp(out: Difference, name: string, want: unknown, have: unknown, ctx: DiffContext) {
  if (want === undefined) return;
  if (have === undefined) unread(out, name, want, ctx);
  else if (want !== have) out.fields.push(name);
}

function cmpSecret(out: Difference, name: string, want: string | undefined, have: unknown, ctx: DiffContext) {
  if (want === undefined) return;
  const stored = readableSecret(have);
  // Absent, empty or masked: the service did not give it back, which says nothing about what it stores.
  if (stored === null) unread(out, name, want, ctx);
  else if (stored !== want) out.fields.push(name);
}

/** A channel the service reports not configured: nothing to do when it is wanted inactive anyway. */
function absent(key: string, wantActive: boolean): Difference {
  return { fields: wantActive === false ? [] : [key], unverified: [], unreadable: [], from: {} };
}

/**
 * What differs between a desired body and the stored config. A field the service does not give back is compared
 * with what sq last applied (src/account/applied.ts), so a second `apply` stays a no-op and a changed one is sent.
 */
export function diffDelivery(body: DeliveryBody, current: StoredDelivery, ctx: DiffContext = {}): Difference {
  const out: Difference = { fields: [], unverified: [], unreadable: [], from: {} };
  if ('ftp_fields' in body) {
    const want = body.ftp_fields;
    const have = current.ftp_fields;
    if (!have) return absent('ftp_fields', want.is_active);
    cmp(out, 'host', want.host, have.host, ctx);
    cmp(out, 'port', want.port, typeof have.port === 'string' ? Number(have.port) : have.port, ctx);
    // username and directory are not in the documented subset {host, port, is_active}: compared when answered.
    cmp(out, 'username', want.username, have.username, ctx);
    cmp(out, 'directory', want.directory, have.directory, ctx);
    // The SFTP echo sample omits is_active; only a stored value that disagrees counts as a change.
    if (typeof have.is_active === 'boolean') cmp(out, 'is_active', want.is_active, have.is_active, ctx);
    else if (want.is_active === false) out.fields.push('is_active');
    cmpSecret(out, 'password', want.password, have.password, ctx);
  } else if ('webhook_fields' in body) {
    const want = body.webhook_fields;
    const have = current.webhook_fields;
    if (!have) return absent('webhook_fields', want.is_active);
    // No URL: its \${VAR} is not set (sq plan), so it is not compared.
    if (want.url !== undefined) cmp(out, 'url', want.url, have.url, ctx);
    cmp(out, 'is_active', want.is_active, have.is_active, ctx);
    cmp(out, 'retry', want.retry, have.retry, ctx);
    const ev = storedEvents(have);
    for (const e of RUN_EVENTS) cmp(out, `events.${e}`, want.events[e], ev?.[e], ctx);
  } else if ('google_sheet_fields' in body) {
    const want = body.google_sheet_fields;
    const have = current.google_sheet_fields;
    if (!have) return absent('google_sheet_fields', want.is_active);
    if (want.url !== undefined) cmp(out, 'url', want.url, have.url, ctx);
    cmp(out, 'append', want.append, have.append, ctx);
    cmp(out, 'is_active', want.is_active, have.is_active, ctx);
  } else if ('s3_fields' in body) {
    const want = body.s3_fields;
    const have = current.s3_fields;
    if (!have) return absent('s3_fields', want.is_active);
    cmp(out, 'bucket', want.bucket, have.bucket, ctx);
    cmp(out, 'target_path', want.target_path, have.target_path, ctx);
    cmp(out, 'is_active', want.is_active, have.is_active, ctx);
    cmpSecret(out, 'aws_access_key', want.aws_access_key, have.aws_access_key, ctx);
    cmpSecret(out, 'aws_secret_key', want.aws_secret_key, have.aws_secret_key, ctx);
  } else {
    cmp(out, 'email', body.email, current.email, ctx);
    cmp(out, 'notifications', body.notifications, current.notifications, ctx);
  }
  return out;
}
