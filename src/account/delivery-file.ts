// The `sq delivery apply` file: parsed, ${ENV}-expanded and validated as a whole before any request, with the path
// of every bad field (squids."Paris restaurants".webhook.events[1]) in the error.
import { UsageError } from '../errors.js';
import { httpUrlFlag, isEmail, RUN_EVENTS, type RunEventName } from '../validate/index.js';
import { MAX_URL_LENGTH, urlTooLong } from '../validate/url.js';
import { channelOf, eventsObject, type Channel, type DeliveryBody } from '../api/delivery.js';
import { importPackage } from '../import-package.js';
import { isRecord } from '../output/cells.js';
import { MASK, maskUrlAsWritten, urlSecrets } from '../output/secrets.js';

export interface SquidPlan {
  /** The squid as written in the file: name, prefix or hash. */
  ref: string;
  bodies: DeliveryBody[];
  /** The URL of a channel as the file writes it, when it takes a \${NAME}: the plan masks the stored URL there. */
  written: Partial<Record<Channel, string>>;
}

interface ApplyFile {
  squids: SquidPlan[];
  /** Every value read from the environment (and every URL query token), so any message can be scrubbed of them. */
  secrets: string[];
  /**
   * Secrets and URLs whose environment variable is not set, when the caller allows that (`sq plan`): left out of the
   * body, so they are not compared, and `sq apply` refuses to send the channel.
   */
  missing: { path: string; name: string }[];
}

type Obj = Record<string, unknown>;

const ALLOWED: Record<string, string[]> = {
  sftp: ['host', 'port', 'username', 'password', 'directory', 'active'],
  webhook: ['url', 'events', 'retry', 'active'],
  email: ['address', 'notifications'],
  sheet: ['url', 'append', 'active'],
  s3: ['bucket', 'target_path', 'access_key', 'secret_key', 'active'],
};
const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE_ENV_REF = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function key(k: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `.${k}` : `.${JSON.stringify(k)}`;
}

class Checker {
  problems: string[] = [];
  secrets: string[] = [];
  missing: { path: string; name: string }[] = [];
  constructor(
    private readonly env: Record<string, string | undefined>,
    private readonly opts: CheckOptions = {},
  ) {}

  /** A value that must never be printed: kept for the caller, and handed over at once, before any message is made. */
  secret(v: string) {
    this.secrets.push(v);
    this.opts.onSecret?.(v);
  }

  bad(path: string, msg: string): undefined {
    this.problems.push(`${path}: ${msg}`);
    return undefined;
  }

  /**
   * Expands ${VAR}; secrets must be exactly one reference, so they never sit in the file in clear. Every value taken
   * from the environment is a secret (a token in a URL's path is one), registered before any message can quote it.
   */
  expand(path: string, v: string, secret: boolean, mayBeMissing = secret): string | undefined {
    if (secret && !WHOLE_ENV_REF.test(v.trim())) {
      return this.bad(path, 'secrets are not accepted in the file; write an environment reference like ${SFTP_PASSWORD}');
    }
    let missing: string | null = null;
    let control: string | null = null;
    const out = v.replace(ENV_REF, (_, name: string) => {
      const val = this.env[name];
      if (val === undefined || val === '') missing ??= name;
      else this.secret(val);
      if (val && CONTROL.test(val)) control ??= name;
      return val ?? '';
    });
    // A newline in a host or URL would be sent as it is (URL parsing drops it silently): named by its variable only.
    if (control && !secret) return this.bad(path, `environment variable ${control} holds a control character (a newline?), which this field cannot contain`);
    if (missing && mayBeMissing && this.opts.allowMissingSecrets) {
      this.missing.push({ path, name: missing });
      return undefined;
    }
    if (missing) return this.bad(path, `environment variable ${missing} is not set or empty`);
    return out;
  }

  str(o: Obj, path: string, k: string, opts: { required?: boolean; secret?: boolean; allowEmpty?: boolean; mayBeMissing?: boolean } = {}): string | undefined {
    const v = o[k];
    const p = `${path}.${k}`;
    if (v === undefined || v === null) return opts.required ? this.bad(p, 'is required') : undefined;
    if (typeof v !== 'string' && typeof v !== 'number') return this.bad(p, `must be a string (got ${typeof v})`);
    const s = this.expand(p, String(v), !!opts.secret, !!(opts.secret || opts.mayBeMissing));
    if (s === undefined) return undefined;
    if (!opts.allowEmpty && s.trim() === '') return this.bad(p, 'must not be empty');
    if (!opts.secret && CONTROL.test(s)) return this.bad(p, 'must not contain control characters (a newline, a tab…)');
    return s;
  }

  bool(o: Obj, path: string, k: string, def: boolean): boolean {
    const v = o[k];
    if (v === undefined || v === null) return def;
    if (typeof v !== 'boolean') {
      this.bad(`${path}.${k}`, `must be true or false (got ${JSON.stringify(v)})`);
      return def;
    }
    return v;
  }

  port(o: Obj, path: string): number | undefined {
    let v = o.port;
    if (v === undefined || v === null) return 22;
    if (typeof v === 'string') v = this.expand(`${path}.port`, v, false);
    if (v === undefined) return undefined;
    const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 65535) {
      return this.bad(`${path}.port`, `must be an integer from 1 to 65535 (got ${JSON.stringify(v)})`);
    }
    return n;
  }

  url(o: Obj, path: string, k: string): string | undefined {
    // A URL carries its token from \${VAR}: like a secret, one whose variable is not set may be left uncompared.
    const s = this.str(o, path, k, { required: true, mayBeMissing: true });
    if (s === undefined) return undefined;
    if (s.includes(MASK)) return this.bad(`${path}.${k}`, `holds a token masked by sq export (${MASK}): write the real URL, e.g. with \${WEBHOOK_TOKEN} in its query`);
    if (s.length > MAX_URL_LENGTH) return this.bad(`${path}.${k}`, urlTooLong(s.length));
    try {
      httpUrlFlag(k, s);
      // A token in the URL's query or path is a secret like a password: masked in every report, trace and error.
      for (const v of urlSecrets(s)) this.secret(v);
      return s;
    } catch {
      // The flag's message names a flag; a file problem names its path, and quotes the URL as written (${VAR} and all).
      return this.bad(`${path}.${k}`, `must be an http(s) URL (got ${JSON.stringify(maskUrlAsWritten(String(o[k])))})`);
    }
  }

  events(o: Obj, path: string): RunEventName[] | undefined {
    const v = o.events;
    const p = `${path}.events`;
    if (v === undefined || v === null) return this.bad(p, `is required: a list of ${RUN_EVENTS.join(', ')} (or "all")`);
    if (v === 'all') return [...RUN_EVENTS];
    // A \${…} reference (sq export writes one: the service does not answer the events) expands to the list or "all".
    const text = typeof v === 'string' && v.includes('${') ? this.expand(p, v, false, true) : v;
    if (text === undefined) return undefined;
    if (text === 'all') return [...RUN_EVENTS];
    const list = typeof text === 'string' ? text.split(',').map((s) => s.trim()) : text;
    if (!Array.isArray(list)) return this.bad(p, `must be a list of ${RUN_EVENTS.join(', ')}`);
    const out: RunEventName[] = [];
    list.forEach((e, i) => {
      if (typeof e === 'string' && (RUN_EVENTS as readonly string[]).includes(e)) out.push(e as RunEventName);
      else this.bad(`${p}[${i}]`, `unknown event ${JSON.stringify(e)}; allowed: ${RUN_EVENTS.join(', ')}`);
    });
    return out;
  }

  unknownKeys(o: Obj, path: string, allowed: string[]) {
    for (const k of Object.keys(o)) {
      if (!allowed.includes(k)) this.bad(`${path}${key(k)}`, `unknown field; allowed: ${allowed.join(', ')}`);
    }
  }
}

function channelBody(c: Checker, channel: string, v: unknown, path: string): DeliveryBody | undefined {
  if (channel === 'email' && typeof v === 'string') v = { address: v };
  if (!isRecord(v)) return c.bad(path, `must be a mapping of ${ALLOWED[channel].join(', ')}`);
  c.unknownKeys(v, path, ALLOWED[channel]);
  const before = c.problems.length;
  let body: DeliveryBody | undefined;
  switch (channel) {
    case 'sftp': {
      const f = {
        host: c.str(v, path, 'host', { required: true }),
        port: c.port(v, path),
        // sq export writes username and directory as \${…} references (the service does not answer them): like a
        // secret, one whose variable is not set is left uncompared by plan.
        username: c.str(v, path, 'username', { required: true, mayBeMissing: true }),
        password: c.str(v, path, 'password', { required: true, secret: true }),
        directory: c.str(v, path, 'directory', { required: true, mayBeMissing: true }),
        is_active: c.bool(v, path, 'active', true),
      };
      body = { ftp_fields: f as never };
      break;
    }
    case 'webhook': {
      const url = c.url(v, path, 'url');
      const events = c.events(v, path);
      body = { webhook_fields: { url: url as string, is_active: c.bool(v, path, 'active', true), retry: c.bool(v, path, 'retry', true), events: eventsObject(events ?? []) } };
      break;
    }
    case 'email': {
      const address = c.str(v, path, 'address', { required: true });
      if (address !== undefined && !isEmail(address)) c.bad(`${path}.address`, `must be an e-mail address (got ${JSON.stringify(address)})`);
      body = { email: address as string, notifications: c.bool(v, path, 'notifications', true) };
      break;
    }
    case 'sheet':
      body = { google_sheet_fields: { url: c.url(v, path, 'url') as string, append: c.bool(v, path, 'append', false), is_active: c.bool(v, path, 'active', true) } };
      break;
    case 's3': {
      const s3 = {
        bucket: c.str(v, path, 'bucket', { required: true }) as string,
        target_path: (c.str(v, path, 'target_path', { allowEmpty: true }) ?? '').replace(/^\/+|\/+$/g, ''),
        is_active: c.bool(v, path, 'active', true),
      } as Extract<DeliveryBody, { s3_fields: unknown }>['s3_fields'];
      const ak = c.str(v, path, 'access_key', { secret: true });
      const sk = c.str(v, path, 'secret_key', { secret: true });
      if ((v.access_key === undefined) !== (v.secret_key === undefined)) c.bad(path, 'access_key and secret_key go together: give both, or neither');
      if (ak !== undefined) s3.aws_access_key = ak;
      if (sk !== undefined) s3.aws_secret_key = sk;
      body = { s3_fields: s3 };
      break;
    }
  }
  return c.problems.length === before ? body : undefined;
}

interface CheckOptions {
  /** Secrets and URLs whose variable is not set are left out (listed in `missing`) instead of refused (`sq plan`). */
  allowMissingSecrets?: boolean;
  /** Called with each secret as soon as it is read (ctx.addSecret), so even the check's own error is scrubbed of it. */
  onSecret?: (value: string) => void;
}

/** Validates a parsed document. Every problem is collected; the first is the message, the rest are details. */
export function checkApplyDocument(doc: unknown, env: Record<string, string | undefined>, opts: CheckOptions = {}): ApplyFile {
  const c = new Checker(env, opts);
  const squids: SquidPlan[] = [];
  if (!isRecord(doc)) {
    c.bad('(top level)', 'must be a mapping with a "squids" key');
  } else {
    c.unknownKeys(doc, '', ['squids', 'version']);
    if (doc.version !== undefined && doc.version !== 1) c.bad('version', 'only version 1 exists');
    if (!isRecord(doc.squids)) {
      c.bad('squids', 'is required: a mapping from squid (name, hash prefix or hash) to its delivery channels');
    } else if (Object.keys(doc.squids).length === 0) {
      c.bad('squids', 'lists no squid');
    } else {
      for (const [ref, channels] of Object.entries(doc.squids)) {
        const path = `squids${key(ref)}`;
        if (ref.trim() === '') c.bad(path, 'the squid reference must not be empty');
        if (!isRecord(channels) || Object.keys(channels).length === 0) {
          c.bad(path, `must be a mapping of one or more channels: ${Object.keys(ALLOWED).join(', ')}`);
          continue;
        }
        const bodies: DeliveryBody[] = [];
        const written: SquidPlan['written'] = {};
        for (const [ch, v] of Object.entries(channels)) {
          if (!(ch in ALLOWED)) {
            c.bad(`${path}${key(ch)}`, `unknown channel; allowed: ${Object.keys(ALLOWED).join(', ')}`);
            continue;
          }
          const b = channelBody(c, ch, v, `${path}.${ch}`);
          if (!b) continue;
          bodies.push(b);
          if (isRecord(v) && typeof v.url === 'string' && v.url.includes('${')) written[channelOf(b)] = v.url;
        }
        squids.push({ ref, bodies, written });
      }
    }
  }
  if (c.problems.length) {
    const [first, ...rest] = c.problems;
    throw new UsageError(`invalid delivery file: ${first}`, { details: rest.map((p) => `  also: ${p}`) });
  }
  return { squids, secrets: c.secrets, missing: c.missing };
}

/**
 * `\${NAME}` is not valid inside a YAML flow mapping ({ password: \${X} } reads "{" as a new mapping), and users
 * write it unquoted. So each reference is swapped for a plain-scalar-safe marker (with a random nonce, so no
 * text of the file can collide with it) before parsing, and swapped back afterwards; expansion happens later, on
 * values, so a secret's characters can never break the YAML.
 */
export async function parseApplyText(text: string, file: string, what = 'delivery file'): Promise<unknown> {
  return (await parseApplyTextAt(text, file, what)).value;
}

/** Where a value of the parsed file starts, as `file:line:col` (undefined when the path is not in the file). */
export type Locate = (path: readonly PropertyKey[]) => string | undefined;

/** parseApplyText, and where each value stands in the file: errors name `file:line:col` as a compiler's do. */
export async function parseApplyTextAt(text: string, file: string, what = 'delivery file'): Promise<{ value: unknown; locate: Locate }> {
  const [{ parseDocument, LineCounter }, { randomBytes }] = await Promise.all([
    importPackage<typeof import('yaml')>('yaml'),
    importPackage<typeof import('node:crypto')>('node:crypto'),
  ]);
  const marker = `sqenv${randomBytes(6).toString('hex')}x`;
  const safe = text.replace(ENV_REF, (_, name: string) => `${marker}${name}${marker}`);
  // JSON is valid YAML, so one parser reads both.
  const lines = new LineCounter();
  const doc = parseDocument(safe, { uniqueKeys: true, prettyErrors: true, lineCounter: lines });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const where = e.linePos?.[0] ? `${file}:${e.linePos[0].line}:${e.linePos[0].col}` : file;
    throw new UsageError(`${where}: cannot parse the ${what}: ${e.message.split('\n')[0].split(marker).join('')}`);
  }
  const back = new RegExp(`${marker}([A-Za-z_][A-Za-z0-9_]*)${marker}`, 'g');
  const restore = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(back, (_, name: string) => `\${${name}}`);
    if (Array.isArray(v)) return v.map(restore);
    if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [restore(k) as string, restore(x)]));
    return v;
  };
  const toMarked = (k: PropertyKey) => (typeof k === 'string' ? k.replace(ENV_REF, (_, name: string) => `${marker}${name}${marker}`) : k);
  const locate: Locate = (path) => {
    const node = doc.getIn(path.map(toMarked), true) as { range?: [number, number, number] } | undefined;
    const at = node?.range ? lines.linePos(node.range[0]) : undefined;
    return at ? `${file}:${at.line}:${at.col}` : undefined;
  };
  // A few aliases (*name) are fine; the nested ones of a "billion laughs" file would expand to gigabytes: the yaml
  // package stops at MAX_YAML_ALIASES, and that is a problem of the file (exit 2), not of sq.
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new UsageError(`${file}: cannot parse the ${what}: ${/alias/i.test(why) ? `its aliases (*name) expand more than ${MAX_YAML_ALIASES} times, as a "billion laughs" file does` : why}`);
  }
  return { value: restore(value), locate };
}

/** How far aliases may expand when a file is read (the yaml package's maxAliasCount, its default). */
export const MAX_YAML_ALIASES = 100;
