// How a squid's stored delivery differs from a wanted one (sq plan, sq apply, sq delivery apply): plan logic on top of
// the API's delivery records (api/delivery.ts).

import { RUN_EVENTS } from '../api/events.js';
import { storedEvents, type DeliveryBody, type StoredDelivery } from '../api/delivery.js';

/** A secret the service answered with, or null when it cannot be compared (absent, empty or masked). */
function readableSecret(v: unknown): string | null {
  if (typeof v !== 'string' || v === '' || /^\*+$/.test(v) || /^\*{4}.{0,4}$/.test(v)) return null;
  return v;
}

interface Difference {
  /** Field names that differ (never their values: some are secrets). */
  fields: string[];
  /** Secrets that could not be read back and so were not compared. */
  unverified: string[];
}

/** A field the service did not answer with (the documented subsets leave most out) is unverified, not changed. */
function cmp(out: Difference, name: string, want: unknown, have: unknown) {
  if (have === undefined && want !== undefined) out.unverified.push(name);
  else if (want !== have) out.fields.push(name);
}

function cmpSecret(out: Difference, name: string, want: string | undefined, have: unknown) {
  if (want === undefined) return;
  const stored = readableSecret(have);
  // Absent, empty or masked: the service did not give it back, which says nothing about what it stores.
  if (stored === null) {
    out.unverified.push(name);
    return;
  }
  if (stored !== want) out.fields.push(name);
}

/** A channel the service reports not configured: nothing to do when it is wanted inactive anyway. */
function absent(key: string, wantActive: boolean): Difference {
  return { fields: wantActive === false ? [] : [key], unverified: [] };
}

/**
 * What differs between a desired body and the stored config. A secret the service does not give back is reported
 * as unverified rather than changed, so a second `apply` stays a no-op (documented in `sq delivery apply --help`).
 */
export function diffDelivery(body: DeliveryBody, current: StoredDelivery): Difference {
  const out: Difference = { fields: [], unverified: [] };
  if ('ftp_fields' in body) {
    const want = body.ftp_fields;
    const have = current.ftp_fields;
    if (!have) return absent('ftp_fields', want.is_active);
    cmp(out, 'host', want.host, have.host);
    cmp(out, 'port', want.port, typeof have.port === 'string' ? Number(have.port) : have.port);
    // username and directory are not in the documented subset {host, port, is_active}: compared when answered.
    cmp(out, 'username', want.username, have.username);
    cmp(out, 'directory', want.directory, have.directory);
    // The SFTP echo sample omits is_active; only a stored value that disagrees counts as a change.
    if (typeof have.is_active === 'boolean') cmp(out, 'is_active', want.is_active, have.is_active);
    else if (want.is_active === false) out.fields.push('is_active');
    cmpSecret(out, 'password', want.password, have.password);
  } else if ('webhook_fields' in body) {
    const want = body.webhook_fields;
    const have = current.webhook_fields;
    if (!have) return absent('webhook_fields', want.is_active);
    // No URL: its \${VAR} is not set (sq plan), so it is not compared.
    if (want.url !== undefined) cmp(out, 'url', want.url, have.url);
    cmp(out, 'is_active', want.is_active, have.is_active);
    cmp(out, 'retry', want.retry, have.retry);
    const ev = storedEvents(have);
    if (ev === null && have.events === undefined) out.unverified.push('events');
    else for (const e of RUN_EVENTS) cmp(out, `events.${e}`, want.events[e], ev?.[e]);
  } else if ('google_sheet_fields' in body) {
    const want = body.google_sheet_fields;
    const have = current.google_sheet_fields;
    if (!have) return absent('google_sheet_fields', want.is_active);
    if (want.url !== undefined) cmp(out, 'url', want.url, have.url);
    cmp(out, 'append', want.append, have.append);
    cmp(out, 'is_active', want.is_active, have.is_active);
  } else if ('s3_fields' in body) {
    const want = body.s3_fields;
    const have = current.s3_fields;
    if (!have) return absent('s3_fields', want.is_active);
    cmp(out, 'bucket', want.bucket, have.bucket);
    cmp(out, 'target_path', want.target_path, have.target_path);
    cmp(out, 'is_active', want.is_active, have.is_active);
    cmpSecret(out, 'aws_access_key', want.aws_access_key, have.aws_access_key);
    cmpSecret(out, 'aws_secret_key', want.aws_secret_key, have.aws_secret_key);
  } else {
    cmp(out, 'email', body.email, current.email);
    cmp(out, 'notifications', body.notifications, current.notifications);
  }
  return out;
}
