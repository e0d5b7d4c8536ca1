// Delivery configuration (POST /v1/delivery?squid=, routed by routes/delivery.ts) and the helpers every delivery
// channel shares: error bodies, the delivery log and the outbox of e-mails.
import type { DeliveryRecord, Emu, EmuResponse, FtpFields, RunEvent, WebhookFields } from './types.js';
import { RUN_EVENTS } from './types.js';
import { errB, isRecord, naiveUs, type Rec } from './util.js';
import * as store from './model/store.js';

/** A validation failure that becomes a 400 ErrB body naming the field. */
export class FieldError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

export function validationError(e: FieldError): EmuResponse {
  return errB(400, e.message, e.param);
}

export function str(
  o: Rec,
  key: string,
  param: string,
  opts: { optional?: boolean; allowEmpty?: boolean } = {},
): string {
  const v = o[key];
  if (v === undefined && opts.optional) return '';
  if (typeof v !== 'string') throw new FieldError(param, `${param} is required and must be a string`);
  if (!opts.allowEmpty && v.trim() === '') throw new FieldError(param, `${param} must not be empty`);
  return v;
}

function bool(o: Rec, key: string, param: string): boolean {
  const v = o[key];
  if (typeof v !== 'boolean') throw new FieldError(param, `${param} is required and must be a boolean (true or false)`);
  return v;
}

export function port(o: Rec, key: string, param: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 65535) {
    throw new FieldError(param, `${param} is required and must be an integer from 1 to 65535`);
  }
  return v;
}

export function httpUrl(o: Rec, key: string, param: string): string {
  const v = str(o, key, param);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new FieldError(param, `${param} must be an absolute http(s) URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new FieldError(param, `${param} must be an http(s) URL`);
  return v;
}

export function email(o: Rec, key: string, param: string): string {
  const v = str(o, key, param);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) throw new FieldError(param, `${param} must be an e-mail address`);
  return v;
}

export function recordDelivery(emu: Emu, rec: Omit<DeliveryRecord, 'id' | 'at'> & { at?: string }): DeliveryRecord {
  const full: DeliveryRecord = { id: emu.nextId(), at: emu.nowIso(), ...rec } as DeliveryRecord;
  store.deliveries(emu).push(full);
  emu.markDirty();
  return full;
}

export function userEmail(emu: Emu): string {
  const e = store.user(emu)?.email;
  return typeof e === 'string' && e !== '' ? e : 'user@example.com';
}

export function sendMail(emu: Emu, to: string, subject: string, body: string): void {
  store.outbox(emu).push({ id: emu.nextId(), to, subject, body, at: emu.nowIso() });
  emu.markDirty();
}

function ftpFields(v: unknown): FtpFields {
  if (!isRecord(v)) throw new FieldError('ftp_fields', 'ftp_fields must be an object');
  const p = (k: string): string => `ftp_fields.${k}`;
  return {
    host: str(v, 'host', p('host')),
    port: port(v, 'port', p('port')),
    username: str(v, 'username', p('username')),
    password: str(v, 'password', p('password')),
    directory: str(v, 'directory', p('directory')),
    is_active: bool(v, 'is_active', p('is_active')),
  };
}

function webhookFields(v: unknown): WebhookFields {
  if (!isRecord(v)) throw new FieldError('webhook_fields', 'webhook_fields must be an object');
  const url = httpUrl(v, 'url', 'webhook_fields.url');
  const is_active = bool(v, 'is_active', 'webhook_fields.is_active');
  const retry = bool(v, 'retry', 'webhook_fields.retry');
  const ev = v.events;
  if (!isRecord(ev))
    throw new FieldError('webhook_fields.events', 'webhook_fields.events is required and must be an object');
  const events = {} as Record<RunEvent, boolean>;
  for (const name of RUN_EVENTS) {
    // The docs show both the flat dotted key ("run.done") and the nested form ({run: {done}}).
    const nested = isRecord(ev.run) ? ev.run[name.slice(4)] : undefined;
    const value = Object.hasOwn(ev, name) ? ev[name] : nested;
    if (typeof value !== 'boolean') {
      throw new FieldError(
        `webhook_fields.events.${name}`,
        `webhook_fields.events.${name} is required and must be a boolean`,
      );
    }
    events[name] = value;
  }
  return { url, is_active, retry, events };
}

function sheetFields(v: unknown): Rec {
  if (!isRecord(v)) throw new FieldError('google_sheet_fields', 'google_sheet_fields must be an object');
  const url = httpUrl(v, 'url', 'google_sheet_fields.url');
  const is_active = bool(v, 'is_active', 'google_sheet_fields.is_active');
  const append = bool(v, 'append', 'google_sheet_fields.append');
  return { url, is_active, append };
}

function s3Fields(v: unknown): Rec {
  if (!isRecord(v)) throw new FieldError('s3_fields', 's3_fields must be an object');
  const out: Rec = {
    bucket: str(v, 'bucket', 's3_fields.bucket'),
    is_active: bool(v, 'is_active', 's3_fields.is_active'),
    target_path: str(v, 'target_path', 's3_fields.target_path', { allowEmpty: true }),
  };
  for (const k of ['aws_access_key', 'aws_secret_key']) {
    if (v[k] !== undefined && v[k] !== null) out[k] = str(v, k, `s3_fields.${k}`);
  }
  return out;
}

const CHANNELS = ['ftp_fields', 'webhook_fields', 'google_sheet_fields', 's3_fields', 'email'] as const;

/** The channels whose configuration is one object under its own key (email has two top-level fields). */
const PARSE: Record<Exclude<(typeof CHANNELS)[number], 'email'>, (v: unknown) => unknown> = {
  ftp_fields: ftpFields,
  webhook_fields: webhookFields,
  google_sheet_fields: sheetFields,
  s3_fields: s3Fields,
};

/** Validates and stores one channel on the squid record; returns the 201 body. */
export function configureDelivery(emu: Emu, squid: Rec, body: unknown): Rec {
  if (!isRecord(body))
    throw new FieldError(CHANNELS.join(','), 'the body must be a JSON object carrying one delivery configuration');
  const present = CHANNELS.filter((k) => body[k] !== undefined || (k === 'email' && body.notifications !== undefined));
  if (present.length !== 1) {
    throw new FieldError(
      CHANNELS.join(','),
      present.length === 0
        ? `the body must carry one of ${CHANNELS.join(', ')}`
        : `the body must carry exactly one delivery configuration, got ${present.join(', ')}`,
    );
  }
  const channel = present[0];
  let out: Rec;
  if (channel === 'email') {
    const address = email(body, 'email', 'email');
    const notifications = bool(body, 'notifications', 'notifications');
    squid.email = address;
    squid.notifications = notifications;
    squid.notifications_activation_date = naiveUs(emu.clock.now());
    out = { email: address, notifications, notifications_activation_date: squid.notifications_activation_date };
  } else {
    squid[channel] = PARSE[channel](body[channel]);
    // The SFTP page's echo has no is_active; the others echo what was stored.
    const { is_active: _a, ...ftpEcho } = squid[channel] as Rec;
    out = { [channel]: channel === 'ftp_fields' ? ftpEcho : squid[channel] };
  }
  emu.markDirty();
  // A copy, so a later change to the stored record cannot alter an answer already given.
  return structuredClone(out);
}

/** E-mail, Google Sheet and S3 channels, which the emulator completes without an external backend. */
export function onRunExportedSimple(emu: Emu, run: Rec, rows: Rec[]): void {
  const squidId = String(run.squid);
  const squid = store.record(emu, 'squids', squidId);
  if (!squid) return;
  const runId = String(run.id);
  const name = String(squid.name ?? squidId);
  if (squid.notifications === true) {
    const to = typeof squid.email === 'string' && squid.email !== '' ? squid.email : userEmail(emu);
    sendMail(
      emu,
      to,
      `Run ${runId} of squid "${name}" is done`,
      `Your run ${runId} of squid "${name}" finished with ${rows.length} results. Download them with: sq runs download ${runId}`,
    );
    recordDelivery(emu, { kind: 'email', squid: squidId, run: runId, attempt: 1, ok: true, error: null, target: to });
  }
  const sheet = squid.google_sheet_fields;
  if (isRecord(sheet) && sheet.is_active === true) {
    recordDelivery(emu, {
      kind: 'googlesheet',
      squid: squidId,
      run: runId,
      attempt: 1,
      ok: true,
      error: null,
      target: String(sheet.url),
      simulated: true,
    });
  }
  const s3 = squid.s3_fields;
  if (isRecord(s3) && s3.is_active === true) {
    const prefix = String(s3.target_path ?? '').replace(/^\/+|\/+$/g, '');
    recordDelivery(emu, {
      kind: 's3',
      squid: squidId,
      run: runId,
      attempt: 1,
      ok: true,
      error: null,
      target: `s3://${String(s3.bucket)}/${prefix ? prefix + '/' : ''}`,
      simulated: true,
    });
  }
}
