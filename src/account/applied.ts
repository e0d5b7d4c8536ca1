// What sq last applied of each delivery channel, per profile and account: the fields the API does not read back
// (SFTP username and directory, a webhook's events and retry, S3 target_path, every secret) cannot be compared with
// the live record, so plan compares the file with this instead. Never assumed equal: a field sq has no memory of is
// "cannot be read back: will be sent" and counts as a change (Terraform's rule for unknown values).
//
// One file per profile next to the profile file: <config dir>/applied/<profile>.json, 0600, written atomically
// (a temp file renamed over the old one). Inside, one entry per account (the base URL's origin and a keyed hash of
// the API key), then squid id, then channel, then field. Secrets are kept only as HMAC-SHA256 keyed with the API
// key: a change is seen without the secret being kept. Deleting the file forgets it all: the next apply sends every
// field that cannot be read back once, and remembers again.
import { join } from 'node:path';
import type { Ctx } from '../cli/context.js';
import { resolveAuth } from '../config/resolve.js';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { readCacheFile } from '../lib/cache-file.js';
import { makeDirSync } from '../lib/regular-file.js';
import { isRecord, type Rec } from '../lib/guards.js';
import { channelOf, type Channel, type DeliveryBody } from '../api/delivery.js';
import { MASK } from '../lib/secrets.js';

/** Fields kept only as a keyed hash. */
export const SECRET_FIELDS = new Set(['password', 'aws_access_key', 'aws_secret_key']);
/** Fields kept as a keyed hash too: a webhook or sheet URL may carry its token (the API reads them back anyway). */
const HASHED_FIELDS = new Set([...SECRET_FIELDS, 'url']);

/** What sq last applied of one channel, field by field, as plan compares it. */
export interface ChannelMemory {
  /** true/false: the file's value is/is not what sq last applied; undefined: sq never applied this field here. */
  same(field: string, want: unknown): boolean | undefined;
  /** The value last applied, as the plan shows it (secrets masked). */
  last(field: string): unknown;
}

/** A channel's fields, flat: the events object becomes events.run.done and the like. */
export function channelFields(body: DeliveryBody): Rec {
  const channel = channelOf(body);
  const inner = (channel === 'email' ? body : Object.values(body)[0]) as Rec;
  const out: Rec = {};
  for (const [k, v] of Object.entries(inner)) {
    if (k === 'events' && isRecord(v)) for (const [e, on] of Object.entries(v)) out[`events.${e}`] = on;
    else if (v !== undefined) out[k] = v;
  }
  return out;
}

/** squid id → channel → field → what was applied. */
type Store = Record<string, Record<string, Rec>>;

export class AppliedState {
  private data: Store = {};
  private readonly account: string;
  private readonly key: string;
  private dirty = false;

  constructor(
    readonly file: string,
    origin: string,
    token: string,
    /** Makes the profile directory the file goes in (never a missing home directory); throws when it cannot. */
    private readonly makeDir: () => void = () => undefined,
  ) {
    this.key = token;
    this.account = `${origin} ${this.hash('account', token).slice(0, 16)}`;
    this.data = readStore(file)[this.account] ?? {};
  }

  private hash(field: string, value: unknown): string {
    const { createHmac } = process.getBuiltinModule('node:crypto');
    return createHmac('sha256', this.key)
      .update(`${field}\0${JSON.stringify(value)}`)
      .digest('hex');
  }

  private stored(field: string, value: unknown): unknown {
    return HASHED_FIELDS.has(field) ? { hmac: this.hash(field, value) } : value;
  }

  memory(squidId: string, channel: Channel): ChannelMemory {
    const known = this.data[squidId]?.[channel] ?? {};
    return {
      same: (field, want) =>
        field in known ? JSON.stringify(known[field]) === JSON.stringify(this.stored(field, want)) : undefined,
      last: (field) => (!(field in known) ? null : HASHED_FIELDS.has(field) ? MASK : known[field]),
    };
  }

  /**
   * What sq last applied to a squid, by channel, of the fields `live` (the squid record's channels) does not answer;
   * hashed fields (secrets, URLs) are left out. For `sq delivery show`.
   */
  lastApplied(squidId: string, live: Record<string, Rec | null>): Record<string, Rec> {
    const out: Record<string, Rec> = {};
    for (const [channel, fields] of Object.entries(this.data[squidId] ?? {})) {
      const have = live[channel] ?? {};
      const kept = Object.entries(fields).filter(
        ([k]) => !HASHED_FIELDS.has(k) && !(k in have) && !(k.startsWith('events.') && 'events' in have),
      );
      if (kept.length) out[channel] = Object.fromEntries(kept);
    }
    return out;
  }

  /** What was just sent to a squid's channel (kept in memory until save()). */
  remember(squidId: string, body: DeliveryBody): void {
    const fields = channelFields(body);
    const kept: Rec = {};
    for (const [k, v] of Object.entries(fields)) kept[k] = this.stored(k, v);
    this.data[squidId] = { ...this.data[squidId], [channelOf(body)]: kept };
    this.dirty = true;
  }

  /** Writes the file (0600, atomically), re-reading it first so another profile's or account's entries are kept. */
  save(): void {
    if (!this.dirty) return;
    this.makeDir();
    const all = readStore(this.file);
    all[this.account] = this.data;
    writeWhole(this.file, `${JSON.stringify({ version: 1, accounts: all }, null, 1)}\n`);
    this.dirty = false;
  }
}

/** A new 0600 file renamed over the old one: a reader sees the old state or the new, whole. Throws when it cannot. */
function writeWhole(file: string, text: string): void {
  makeDirSync(dirname(file));
  const tmp = `${file}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

function readStore(file: string): Record<string, Store> {
  try {
    const doc = JSON.parse(readCacheFile(file) ?? '{}') as unknown;
    if (isRecord(doc) && isRecord(doc.accounts)) return doc.accounts as Record<string, Store>;
  } catch {
    // none yet, or unreadable: nothing remembered, so every field that cannot be read back is sent
  }
  return {};
}

/** The state file of the profile in use, for the account of its key and base URL. */
export async function appliedState(ctx: Ctx): Promise<AppliedState> {
  const store = await ctx.config();
  const auth = resolveAuth(ctx.globals, ctx.env, store);
  return new AppliedState(appliedFile(store.dir, auth.profile), new URL(auth.baseUrl).origin, auth.token ?? '', () =>
    store.makeDir(),
  );
}

export function appliedFile(configDir: string, profile: string): string {
  return join(configDir, 'applied', `${profile}.json`);
}
