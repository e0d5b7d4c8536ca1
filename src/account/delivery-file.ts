// The `sq delivery apply` file: parsed, ${ENV}-expanded and validated as a whole before any request, with the path
// of every bad field (squids."Paris restaurants".webhook.events[1]) in the error.
import { UsageError, refuseProblems } from '../errors.js';
import { httpUrlFlag, isEmail, RUN_EVENTS, type RunEventName } from '../validate/index.js';
import { MAX_URL_LENGTH, urlTooLong } from '../validate/url.js';
import { channelOf, eventsObject, type Channel, type DeliveryBody } from '../api/delivery.js';
import { importPackage } from '../import-package.js';
import { isRecord, type Rec } from '../lib/guards.js';
import { MASK, urlSecrets } from '../lib/secrets.js';

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

const ALLOWED: Record<string, string[]> = {
  sftp: ['host', 'port', 'username', 'password', 'directory', 'active'],
  webhook: ['url', 'events', 'retry', 'active'],
  email: ['address', 'notifications'],
  sheet: ['url', 'append', 'active'],
  s3: ['bucket', 'target_path', 'access_key', 'secret_key', 'active'],
};
export const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE_ENV_REF = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
/** From this length a secret is masked wherever it occurs (redactText); a shorter one only where it stands whole. */
const SHORT_SECRET = 4;
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
   * from the environment is a secret (a token in a URL's path is one), registered before any message can quote it,
   * unless `hidden` is false (an SFTP port).
   */
  expand(path: string, v: string, secret: boolean, mayBeMissing = secret, hidden = true): string | undefined {
    if (secret && !WHOLE_ENV_REF.test(v.trim())) {
      return this.bad(
        path,
        'secrets are not accepted in the file; write an environment reference like ${SFTP_PASSWORD}',
      );
    }
    let missing: string | null = null;
    let control: string | null = null;
    let short = false;
    let refused: string | null = null;
    const out = v.replace(ENV_REF, (_, name: string) => {
      // sq mcp's --secret-env: checked here, on each ${NAME} as the parser gave it (escapes resolved), never on raw text.
      if (this.opts.allowedEnv && !this.opts.allowedEnv.has(name)) {
        refused ??= name;
        return '';
      }
      const val = this.env[name];
      if (val === undefined || val === '') missing ??= name;
      else if (hidden) this.secret(val);
      if (hidden && val && val.length < SHORT_SECRET) short = true;
      if (val && CONTROL.test(val)) control ??= name;
      return val ?? '';
    });
    // A value of 1–3 characters is masked by redactText only where it stands whole or quoted: masking every "a" of the
    // output would garble it. Inside a longer value (directory: /upload/\${D}, D=ab) the whole value it made is the
    // secret instead, as written and as the field keeps it (trimmed, without its end slashes): that field, its echo by
    // the service, and any message quoting it are masked whole (issue 33, D13).
    if (short && !missing && !WHOLE_ENV_REF.test(v)) {
      for (const whole of new Set([out, out.trim(), out.trim().replace(/^\/+|\/+$/g, '')]))
        if (whole !== '' && !this.secrets.includes(whole)) this.secret(whole);
    }
    if (refused) return this.bad(path, refusedEnvText(refused));
    // A newline in a host or URL would be sent as it is (URL parsing drops it silently): named by its variable only.
    if (control && !secret)
      return this.bad(
        path,
        `environment variable ${control} holds a control character (a newline?), which this field cannot contain`,
      );
    if (missing && mayBeMissing && this.opts.allowMissingSecrets) {
      this.missing.push({ path, name: missing });
      return undefined;
    }
    if (missing) return this.bad(path, `environment variable ${missing} is not set or empty`);
    return out;
  }

  str(
    o: Rec,
    path: string,
    k: string,
    opts: { required?: boolean; secret?: boolean; allowEmpty?: boolean; mayBeMissing?: boolean } = {},
  ): string | undefined {
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

  bool(o: Rec, path: string, k: string, def: boolean): boolean {
    const v = o[k];
    if (v === undefined || v === null) return def;
    if (typeof v !== 'boolean') {
      this.bad(`${path}.${k}`, `must be true or false (got ${kindOf(v)})`);
      return def;
    }
    return v;
  }

  port(o: Rec, path: string): number | undefined {
    let v = o.port;
    if (v === undefined || v === null) return 22;
    // A port is no secret: a number from \${SFTP_PORT} is shown as it is. Masked, it was a \`port: ********\` in the text
    // plan, a 2222 in the JSON one, and a \`"port":********\` line of --dry-run that no JSON parser reads (and every other
    // "2222" of the output masked with it).
    if (typeof v === 'string') v = this.expand(`${path}.port`, v, false, false, false);
    if (v === undefined) return undefined;
    const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 65535) {
      return this.bad(`${path}.port`, `must be an integer from 1 to 65535 (got ${kindOf(v)})`);
    }
    return n;
  }

  url(o: Rec, path: string, k: string): string | undefined {
    // A URL carries its token from \${VAR}: like a secret, one whose variable is not set may be left uncompared.
    const s = this.str(o, path, k, { required: true, mayBeMissing: true });
    if (s === undefined) return undefined;
    if (s.includes(MASK))
      return this.bad(
        `${path}.${k}`,
        `holds a token masked by sq export (${MASK}): write the real URL, e.g. with \${WEBHOOK_TOKEN} in its query`,
      );
    if (s.length > MAX_URL_LENGTH) return this.bad(`${path}.${k}`, urlTooLong(s.length));
    try {
      httpUrlFlag(k, s);
      // A token in the URL's query or path is a secret like a password: masked in every report, trace and error.
      for (const v of urlSecrets(s)) this.secret(v);
      return s;
    } catch {
      // The flag's message names a flag; a file problem names its path, never the file's text.
      return this.bad(`${path}.${k}`, 'must be an http(s) URL (http:// or https:// and a host)');
    }
  }

  events(o: Rec, path: string): RunEventName[] | undefined {
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
      else this.bad(`${p}[${i}]`, `unknown event (${kindOf(e)}); allowed: ${RUN_EVENTS.join(', ')}`);
    });
    return out;
  }

  unknownKeys(o: Rec, path: string, allowed: string[]) {
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
      body = {
        webhook_fields: {
          url: url as string,
          is_active: c.bool(v, path, 'active', true),
          retry: c.bool(v, path, 'retry', true),
          events: eventsObject(events ?? []),
        },
      };
      break;
    }
    case 'email': {
      const address = c.str(v, path, 'address', { required: true });
      if (address !== undefined && !isEmail(address)) c.bad(`${path}.address`, 'must be an e-mail address (name@host)');
      body = { email: address as string, notifications: c.bool(v, path, 'notifications', true) };
      break;
    }
    case 'sheet':
      body = {
        google_sheet_fields: {
          url: c.url(v, path, 'url') as string,
          append: c.bool(v, path, 'append', false),
          is_active: c.bool(v, path, 'active', true),
        },
      };
      break;
    case 's3': {
      const s3 = {
        bucket: c.str(v, path, 'bucket', { required: true }) as string,
        target_path: (c.str(v, path, 'target_path', { allowEmpty: true }) ?? '').replace(/^\/+|\/+$/g, ''),
        is_active: c.bool(v, path, 'active', true),
      } as Extract<DeliveryBody, { s3_fields: unknown }>['s3_fields'];
      const ak = c.str(v, path, 'access_key', { secret: true });
      const sk = c.str(v, path, 'secret_key', { secret: true });
      if ((v.access_key === undefined) !== (v.secret_key === undefined))
        c.bad(path, 'access_key and secret_key go together: give both, or neither');
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
  /** The only environment variables a \${NAME} may name (sq mcp's --secret-env); any, when absent. */
  allowedEnv?: ReadonlySet<string>;
}

/** The variable sq mcp passes its verbs: the names of its --secret-env, comma-separated ('' for none). */
export const MCP_SECRET_ENV = 'SQ_MCP_SECRET_ENV';

/** The path of a document sq mcp read under its --root and passes on stdin: its name in errors, beside it its tasks files. */
export const MCP_DOC = 'SQ_MCP_DOC';

/** --secret-env's allow-list when the verb runs for sq mcp; undefined on the command line. */
export function mcpAllowedEnv(env: Record<string, string | undefined>): ReadonlySet<string> | undefined {
  const list = env[MCP_SECRET_ENV];
  return list === undefined ? undefined : new Set(list.split(',').filter(Boolean));
}

/** Why sq mcp refuses a \${NAME}: the allow-list names the variables a write may read a secret from. */
export function refusedEnvText(name: string): string {
  const how = `start it with \`sq mcp --secret-env ${name}\` (the allow-list of --secret-env; default none)`;
  return `environment variable ${name} is not one this server may read secrets from; ${how}`;
}

/** Validates a parsed document. Every problem is collected; the first is the message, the rest are details. */
export function checkApplyDocument(
  doc: unknown,
  env: Record<string, string | undefined>,
  opts: CheckOptions = {},
): ApplyFile {
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
  refuseProblems(c.problems, 'invalid delivery file: ');
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
export async function parseApplyTextAt(
  text: string,
  file: string,
  what = 'delivery file',
): Promise<{ value: unknown; locate: Locate }> {
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
    // The parser's own message may quote the text (an alias, a tag, a token): only what was expected, by its code.
    throw new UsageError(`${where}: cannot parse the ${what}: ${yamlProblem(e.code)}`);
  }
  const back = new RegExp(`${marker}([A-Za-z_][A-Za-z0-9_]*)${marker}`, 'g');
  const restore = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(back, (_, name: string) => `\${${name}}`);
    if (Array.isArray(v)) return v.map(restore);
    if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [restore(k) as string, restore(x)]));
    return v;
  };
  const toMarked = (k: PropertyKey) =>
    typeof k === 'string' ? k.replace(ENV_REF, (_, name: string) => `${marker}${name}${marker}`) : k;
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
    throw new UsageError(
      `${file}: cannot parse the ${what}: ` +
        (/alias/i.test(why)
          ? `its aliases (*name) expand more than ${MAX_YAML_ALIASES} times, as a "billion laughs" file does`
          : 'expected valid YAML or JSON'),
    );
  }
  return { value: restore(value), locate };
}

/**
 * What a value of the file is, by its kind only ("a string", "a list"…): no error quotes a file's content, so
 * `sq plan -f .env` (or an agent pointing plan at ~/.ssh/id_ed25519) cannot print a secret into a log.
 */
export function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'boolean') return 'true/false';
  if (typeof v === 'string') return v === '' ? 'an empty string' : 'a string';
  if (typeof v === 'number') return 'a number';
  return `a ${typeof v}`;
}

/**
 * What the YAML (or JSON) parser expected, by its error code: the yaml package's messages can quote the file's text
 * (an alias name, a tag, the token it stopped at), and no error quotes a file's content.
 */
export function yamlProblem(code: string): string {
  const texts: Record<string, string> = {
    ALIAS_PROPS: 'an alias (*name) cannot take an anchor or a tag',
    BAD_ALIAS: 'expected an alias name after "*"',
    BAD_DIRECTIVE: 'expected a %YAML or %TAG directive',
    BAD_DQ_ESCAPE: 'expected a valid escape in a double-quoted string',
    BAD_INDENT: 'expected the indentation of the enclosing block',
    BAD_PROP_ORDER: 'expected an anchor or tag before its value',
    BAD_SCALAR_START: 'expected a value here (a plain value cannot start with this character)',
    BLOCK_AS_IMPLICIT_KEY: 'expected a single-line key (a block cannot be a key)',
    BLOCK_IN_FLOW: 'expected a flow value ({…}, […] or a scalar) inside a flow collection',
    DUPLICATE_KEY: 'expected each key at most once in a mapping (a key is repeated)',
    IMPOSSIBLE: 'expected valid YAML or JSON',
    KEY_OVER_1024_CHARS: 'expected an implicit key of at most 1024 characters',
    MISSING_CHAR: 'expected a closing character (a quote, "]" or "}") or a ":"',
    MULTILINE_IMPLICIT_KEY: 'expected a key on one line',
    MULTIPLE_ANCHORS: 'expected at most one anchor per value',
    MULTIPLE_DOCS: 'expected one document (no "---" between documents)',
    MULTIPLE_TAGS: 'expected at most one tag per value',
    NON_STRING_KEY: 'expected a string key',
    TAB_AS_INDENT: 'expected spaces for indentation (not tabs)',
    TAG_RESOLVE_FAILED: 'expected a value its tag can take',
    UNEXPECTED_TOKEN: 'expected a key, a value or the end of the document here',
    BAD_COLLECTION_TYPE: 'expected a collection of the type its tag names',
  };
  return texts[code] ?? `expected valid YAML or JSON (${code})`;
}

/** How far aliases may expand when a file is read (the yaml package's maxAliasCount, its default). */
export const MAX_YAML_ALIASES = 100;
