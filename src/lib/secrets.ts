// Secret masking. The API echoes secrets back (the SFTP password, S3 keys), so every record is masked by default.

export const MASK = '********';

// Matched as the whole key or as its suffix ("sftp_password", "sftpPassword", "x-api-key").
const SECRET_NAMES = [
  'password',
  'passwd',
  'secret',
  'token',
  'api_key',
  'apikey',
  'aws_access_key',
  'aws_secret_key',
  'secret_key',
  'authorization',
  'cookie',
  'cookies',
  'private_key',
];

/** SECRET_NAMES by their last character: isSecretKey, run on every key printed, compares only the few that match. */
const SECRET_NAMES_BY_LAST = new Map<string, string[]>();
for (const name of SECRET_NAMES) {
  const last = name[name.length - 1];
  SECRET_NAMES_BY_LAST.set(last, [...(SECRET_NAMES_BY_LAST.get(last) ?? []), name]);
}

export function isSecretKey(key: string): boolean {
  const lower = key.toLowerCase();
  const k = lower.includes('-') ? lower.replaceAll('-', '_') : lower;
  const names = SECRET_NAMES_BY_LAST.get(k[k.length - 1]);
  if (names === undefined) return false;
  for (let i = 0; i < names.length; i++) if (k.endsWith(names[i])) return true;
  return false;
}

/** Query parameters whose values are credentials: the secret field names of bodies, plus what webhook and signed URLs
 * carry (key, sig, signature, auth, code — Azure Functions' key —, X-Amz-Signature, X-Amz-Credential…). */
export function isSecretQueryName(name: string): boolean {
  return isSecretKey(name) || /^(key|sig|auth|code)$|signature|credential|_key$|_auth$/i.test(name);
}

/**
 * Whether a URL's path segment is a credential. Known webhook hosts by position: Slack (the last segment), Discord
 * (`/api/webhooks/ID/TOKEN`), Office 365 (every segment after the first but `IncomingWebhook`). Any other host, by
 * looks: a UUID, hex mixing letters and digits, or letters and digits that change class (case, digit) often with few
 * vowels: random keys, not words (`IncomingWebhookHandlerV2`, `run-events-2024-11-25` are kept).
 */
export function isSecretPathSegment(host: string, segments: readonly string[], i: number): boolean {
  const seg = segments[i];
  if (seg === '' || /^\$\{\w+\}$/.test(seg)) return false;
  if (!/slack|discord|office/i.test(host)) return looksLikeToken(seg);
  const h = host.toLowerCase();
  if (h === 'hooks.slack.com') return i > 1 && segments.slice(i + 1).every((s) => s === '');
  if (/(^|\.)discord(app)?\.com$/.test(h)) {
    const at = segments.findIndex(
      (s, j) =>
        s === 'webhooks' &&
        (segments[j - 1] === 'api' || (/^v\d+$/.test(segments[j - 1] ?? '') && segments[j - 2] === 'api')),
    );
    return at >= 0 && i === at + 2;
  }
  if (/(^|\.)webhook\.office\.com$|^outlook\.office(365)?\.com$/.test(h))
    return i > 1 && !/^IncomingWebhook$/i.test(seg);
  return looksLikeToken(seg);
}

function looksLikeToken(raw: string): boolean {
  if (raw.length < 16) return false;
  let s = raw;
  try {
    s = decodeURIComponent(raw);
  } catch {
    // kept as written
  }
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)) return true;
  if (!/^[A-Za-z0-9_.~+=-]{16,}$/.test(s)) return false;
  if (/^[0-9a-f]+$/i.test(s)) return /[0-9]/.test(s) && /[a-f]/i.test(s);
  // Character classes by code: lower case 0, upper case 1, digit 2 (a regex per character would be slow on big lists).
  const cls = (c: number) => (c >= 97 && c <= 122 ? 0 : c >= 65 && c <= 90 ? 1 : 2);
  let length = 0;
  let changes = 0;
  let letters = 0;
  let vowels = 0;
  for (const piece of s.split(/[^A-Za-z0-9]+/)) {
    if (piece.length < 6) continue;
    length += piece.length;
    for (let j = 0; j < piece.length; j++) {
      const c = cls(piece.charCodeAt(j));
      if (c < 2) letters++;
      if ('aeiouAEIOU'.includes(piece[j])) vowels++;
      if (j > 0 && c !== cls(piece.charCodeAt(j - 1))) changes++;
    }
  }
  if (length < 16 || (letters === length && !/[A-Z]/.test(s))) return false;
  const rate = changes / length;
  return (rate >= 0.25 && vowels < 0.3 * letters) || rate >= 0.45;
}

/** The replacement of each secret part of a URL: one text, or one per part (sq export names a variable for each). */
type Mask = string | ((secret: string) => string);
const maskOf = (mask: Mask, secret: string) => (typeof mask === 'string' ? mask : mask(secret));

/** The common case, cheaply: no segment long enough to be a token, on a host with no rule of its own. */
function mayHoldPathToken(host: string, path: string): boolean {
  for (let i = 0, run = 0; i < path.length; i++) if ((run = path.charCodeAt(i) === 47 ? 0 : run + 1) >= 16) return true;
  return /slack|discord|office/i.test(host);
}

/** A URL's path ("/a/b") with its secret segments (isSecretPathSegment) replaced by `mask`; `webhook-hosts`: only the
 * known webhook services' token segments (Slack, Discord, Office), not any token-like one. */
function maskPath(host: string, path: string, mask: Mask, which: 'any-host' | 'webhook-hosts' = 'any-host'): string {
  if (which === 'webhook-hosts' && !/slack|discord|office/i.test(host)) return path;
  if (!mayHoldPathToken(host, path)) return path;
  const segments = path.split('/');
  return segments.map((seg, i) => (isSecretPathSegment(host, segments, i) ? maskOf(mask, seg) : seg)).join('/');
}

/** The credentials a URL carries, as they appear in it, to register as known secrets that every message masks. */
export function urlSecrets(url: string): string[] {
  const found: string[] = [];
  maskUrlAsWritten(url, (secret) => {
    let decoded = secret;
    try {
      decoded = decodeURIComponent(secret.replace(/\+/g, ' '));
    } catch {
      // kept as written
    }
    found.push(secret, decoded);
    return secret;
  });
  return [...new Set(found)].filter((s) => s !== '');
}

/**
 * A URL (any scheme://) with the values of its secret-looking query parameters, its password (`user:pw@host`) and its
 * secret path segments (isSecretPathSegment) replaced by `mask`; anything else is returned as it is. A URL that does
 * not parse is masked on its text.
 */
export function maskUrlQuery(
  text: string,
  mask: string = MASK,
  opts: { paths?: 'any-host' | 'webhook-hosts' } = {},
): string {
  // No "://", no URL: every string field of every record comes here, and this answers most without a regular expression
  if (!text.includes('://')) return text;
  if (!/^[a-z][a-z0-9+.-]*:\/\/([^?#\s]*\?|[^/?#\s]*@)/i.test(text)) {
    // No query and no password: only the path can hold a token, and the text alone tells (no parsing, for speed).
    const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#\s]*)(\/[^?#\s]*)/i.exec(text);
    if (!m) return text;
    const path = maskPath(m[1].replace(/:\d*$/, ''), m[2], mask, opts.paths);
    return path === m[2] ? text : text.slice(0, m[0].length - m[2].length) + path + text.slice(m[0].length);
  }
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return maskUrlAsWritten(text, mask);
  }
  const secret = [...new Set(u.searchParams.keys())].filter(
    (k) => isSecretQueryName(k) && u.searchParams.getAll(k).some((v) => v !== ''),
  );
  const path = maskPath(u.hostname, u.pathname, mask, opts.paths);
  if (secret.length === 0 && u.password === '' && path === u.pathname) return text;
  for (const k of secret) u.searchParams.set(k, mask);
  if (u.password !== '') u.password = mask;
  u.pathname = path;
  return u.toString();
}

/**
 * maskUrlQuery's masking done on the text, so that the URL is quoted exactly as written (for a URL that does not parse,
 * or one a file writes). A \${NAME} reference is kept: it names the secret, it is not the secret. `mask` may be a
 * function, given each secret as written and returning its replacement (sq export writes a \${NAME} for each).
 */
export function maskUrlAsWritten(text: string, mask: Mask = MASK): string {
  const [, head, query = '', hash = ''] = /^([^?#]*)(\?[^#]*)?(#.*)?$/s.exec(text)!;
  const [, origin = '', path = head] = /^([a-z][a-z0-9+.-]*:\/\/[^/]*)(.*)$/is.exec(head) ?? [];
  const host = /^[^:]+:\/\/(?:[^@]*@)?(\[[^\]]*\]|[^:]*)/.exec(origin)?.[1] ?? '';
  const maskedOrigin = origin.replace(
    /^([^:/?#]+:\/\/[^:/?#@]*:)(?!\$\{\w+\}@)([^/?#]*)@/,
    (_, user: string, pw: string) => `${user}${maskOf(mask, pw)}@`,
  );
  const maskedPath = origin ? maskPath(host, path, mask) : path;
  const q = query.replace(/([?&])([^=&]*)=([^&]+)/g, (all, sep: string, name: string, v: string) =>
    isSecretQueryName(name) && !/^\$\{\w+\}$/.test(v) ? `${sep}${name}=${maskOf(mask, v)}` : all,
  );
  return maskedOrigin + maskedPath + q + hash;
}

/** A URL as a message quotes it: masked by position (maskUrlQuery), which also hides a value too short for redactText;
 * as it is with --show-secrets (`show`). */
export function shownUrl(url: string, show: boolean): string {
  return show ? url : maskUrlQuery(url);
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return false;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A deep copy with every non-empty value under a secret-named key replaced by MASK (whole value, even an object), and
 * every `known` secret (ctx.secrets(): a value from \${VAR}, a token in a URL's path) masked inside strings.
 * With `show` the input is returned untouched. Non-plain objects (Date, Buffer) are kept by reference.
 */
export function maskSecrets<T>(value: T, show: boolean, known: readonly string[] = []): T {
  if (show) return value;
  return maskDeep(value, MASK, known, true) as T;
}

/** The copy maskSecrets makes, with `mask` in place of each secret (the emulator's request log writes "****"). */
export function maskDeep(
  value: unknown,
  mask: string = MASK,
  known: readonly string[] = [],
  webhooks = false,
): unknown {
  // `webhooks`: webhook URLs by their own rule (sq's output); the context of a value is whether it sits in a webhook's
  // fields (webhook_fields, a plan's webhook channel, a key naming a webhook URL).
  return transformDeep<boolean>(
    value,
    true,
    (v, key, webhook) => {
      if (key !== undefined && isSecretKey(key) && !isEmpty(v)) return mask;
      // Known secrets first, so a ${VAR} value that spans path segments is masked whole. A number whose digits are a
      // secret (a numeric password) becomes the mask string here, not `"port":********` in a JSON line.
      if (typeof v === 'number' && known.includes(String(v))) return mask;
      if (typeof v === 'string') {
        if (known.includes(v)) return mask;
        const text = redactText(v, known);
        return webhook && /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? maskWebhookUrl(text, mask) : maskUrlQuery(text, mask);
      }
      return Array.isArray(v) || isPlainObject(v) ? DESCEND : v;
    },
    {
      root: false,
      enter: (v, webhook) => (Array.isArray(v) ? webhook : webhooks && (webhook || v.channel === 'webhook')),
      child: (inner, key) => inner || (webhooks && key !== undefined && webhookKey(key)),
    },
  );
}

/** Whether a key names a webhook (what /webhook|hook_?url/i matches), read character by character: this runs on every
 * key of every record printed. */
export function webhookKey(key: string): boolean {
  // Most keys hold no "hook" at all: one native look first (toLowerCase keeps any ASCII "hook" a "hook").
  if (key.length < 7 || !key.toLowerCase().includes('hook')) return false;
  for (let at = asciiIndexOf(key, 'hook', 0); at >= 0; at = asciiIndexOf(key, 'hook', at + 1)) {
    if (asciiAt(key, 'web', at - 3) || asciiAt(key, 'url', at + 4) || asciiAt(key, '_url', at + 4)) return true;
  }
  return false;
}

/** `word` (lower-case ASCII) at `at` in `s`, ASCII letters compared in any case (as a regular expression's i flag). */
function asciiAt(s: string, word: string, at: number): boolean {
  if (at < 0 || at + word.length > s.length) return false;
  for (let j = 0; j < word.length; j++) {
    let c = s.charCodeAt(at + j);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== word.charCodeAt(j)) return false;
  }
  return true;
}

function asciiIndexOf(s: string, word: string, from: number): number {
  for (let i = from; i + word.length <= s.length; i++) if (asciiAt(s, word, i)) return i;
  return -1;
}

const DESCEND = Symbol('descend');

interface Frame<C> {
  src: unknown[] | Record<string, unknown>;
  keys: string[] | null;
  i: number;
  out: unknown[] | Record<string, unknown>;
  changed: boolean;
  /** The context of this array's or object's own values (from `enter`). */
  inner: C;
}

/** How a context flows down a walk: the root's, the one inside an array or object, a value's under its key. */
interface Flow<C> {
  root: C;
  enter(v: unknown[] | Record<string, unknown>, c: C): C;
  child(inner: C, key: string | undefined): C;
}

/**
 * A copy of a JSON-like value with each value replaced by what `visit` returns for it (`key`: its key in an object;
 * `c`: its context, as `flow` carries it down), or, for DESCEND, with its array or plain object walked in turn.
 * `copy` false: an array or object none of whose values changed is the original. Walked with a stack of its own, not
 * by recursion, so a deeply nested scraped record never overflows the call stack.
 */
function transformDeep<C = undefined>(
  root: unknown,
  copy: boolean,
  visit: (v: unknown, key: string | undefined, c: C) => unknown,
  flow?: Flow<C>,
): unknown {
  const rootCtx = flow?.root as C;
  const first = visit(root, undefined, rootCtx);
  if (first !== DESCEND) return first;
  const frame = (v: unknown, c: C): Frame<C> => {
    const arr = Array.isArray(v);
    const src = v as unknown[] | Record<string, unknown>;
    return {
      src,
      keys: arr ? null : Object.keys(src),
      i: 0,
      out: arr ? [] : {},
      changed: false,
      inner: flow ? flow.enter(src, c) : c,
    };
  };
  const put = (f: Frame<C>, val: unknown) => {
    if (f.keys) {
      const k = f.keys[f.i];
      if (val !== (f.src as Record<string, unknown>)[k]) f.changed = true;
      // defineProperty for a key "__proto__" (JSON.parse makes it an own key): it stays a key, never the prototype.
      if (k === '__proto__')
        Object.defineProperty(f.out, k, { value: val, enumerable: true, writable: true, configurable: true });
      else (f.out as Record<string, unknown>)[k] = val;
    } else {
      if (val !== (f.src as unknown[])[f.i]) f.changed = true;
      (f.out as unknown[]).push(val);
    }
    f.i++;
  };
  const stack: Frame<C>[] = [frame(root, rootCtx)];
  for (;;) {
    const f = stack[stack.length - 1];
    const n = f.keys ? f.keys.length : (f.src as unknown[]).length;
    if (f.i >= n) {
      stack.pop();
      const done = copy || f.changed ? f.out : f.src;
      if (stack.length === 0) return done;
      put(stack[stack.length - 1], done);
      continue;
    }
    const key = f.keys ? f.keys[f.i] : undefined;
    const v = key !== undefined ? (f.src as Record<string, unknown>)[key] : (f.src as unknown[])[f.i];
    const c = flow ? flow.child(f.inner, key) : f.inner;
    const r = visit(v, key, c);
    if (r === DESCEND) stack.push(frame(v, c));
    else put(f, r);
  }
}

/**
 * A webhook URL as sq shows it, by the rule sq export writes it: on a host with a rule of its own (Slack, Discord,
 * Office 365) its token segments masked; on any other host everything after the host masked, as the token can be
 * anything there. A password is masked; a \${NAME} reference is kept (it names the secret, it is not the secret).
 */
export function maskWebhookUrl(url: string, mask: string = MASK): string {
  const parts = webhookParts(url);
  if (!parts) return url;
  if (parts.ownRule) return maskUrlQuery(url, mask);
  const origin = maskUrlAsWritten(parts.origin, mask);
  return parts.secretRest === '' ? origin + parts.rest : `${origin}/${mask}`;
}

/**
 * A webhook URL's origin and the rest; `secretRest`: what maskWebhookUrl hides on a host without a rule of its own
 * (everything after the host but a bare `/` or a `${NAME}` reference), '' when nothing is.
 */
function webhookParts(url: string): { origin: string; rest: string; ownRule: boolean; secretRest: string } | null {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/is.exec(url);
  if (!m) return null;
  const [, origin, rest] = m;
  const host = /^[^:]+:\/\/(?:[^@]*@)?(\[[^\]]*\]|[^:]*)/.exec(origin)?.[1] ?? '';
  const plain = rest === '' || rest === '/' || /^\/?\$\{\w+\}$/.test(rest);
  const ownRule =
    !plain &&
    /^hooks\.slack\.com$|(^|\.)discord(app)?\.com$|(^|\.)webhook\.office\.com$|^outlook\.office(365)?\.com$/i.test(
      host,
    );
  return { origin, rest, ownRule, secretRest: plain || ownRule ? '' : rest.replace(/^\//, '') };
}

/** The secrets of a webhook URL by maskWebhookUrl's rule, so that every message and trace of the command hides the
 * same part the records do. */
export function webhookUrlSecrets(url: string): string[] {
  const rest = webhookParts(url)?.secretRest ?? '';
  // A rest of fewer than 8 characters (`/hook`) would mask that text in every word of the command's messages
  // ("web****"): records and the success line still show it as `/********` (maskWebhookUrl).
  return [...new Set([...urlSecrets(url), ...(rest.length >= 8 ? [rest] : [])])];
}

/** `value` with every `known` secret masked inside its strings, and nothing else changed (results, fixed documents);
 * copies only what changes. */
export function redactDeep<T>(value: T, known: readonly string[]): T {
  if (known.length === 0) return value;
  return transformDeep(value, false, (v) =>
    typeof v === 'string' ? redactText(v, known) : Array.isArray(v) || isPlainObject(v) ? DESCEND : v,
  ) as T;
}

/** The values maskDeep would hide (under secret-named keys, at any depth), for the scrubbing of free text. */
export function secretValues(value: unknown, out: string[] = []): string[] {
  // A stack of its own, not recursion: any depth.
  const todo: unknown[] = [value];
  while (todo.length) {
    const v = todo.pop();
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) todo.push(v[i]);
    else if (isPlainObject(v)) {
      for (const [k, x] of Object.entries(v).reverse()) {
        if (isSecretKey(k) && (typeof x === 'string' || typeof x === 'number')) out.push(String(x));
        else todo.push(x);
      }
    }
  }
  return out;
}

/** "****" + the last 4 characters; short keys (< 8 chars) would be mostly revealed, so they get "****" alone. */
export function maskKey(key: string): string {
  return key.length < 8 ? '****' : '****' + key.slice(-4);
}

/** An Authorization header value with its key masked, the scheme kept: `Token ****abcd`. */
export function maskAuthorization(value: string): string {
  const m = /^(\S+)\s+(.*)$/.exec(value.trim());
  return m ? `${m[1]} ${maskKey(m[2])}` : `Token ${maskKey(value)}`;
}

/**
 * Last line of defence for free text (errors, traces): every known secret of 4+ characters becomes MASK. A shorter one
 * would scrub ordinary words, so only where it stands as a whole quoted value, `"ab"`, as plans, JSON and "(got …)"
 * messages quote it.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  // The common case, cheaply: no known secret occurs in the text.
  let found = false;
  for (let i = 0; i < secrets.length && !found; i++) found = valid(secrets[i]) && text.includes(quoted(secrets[i]));
  if (!found) return text;
  // Longest first, so a secret that contains another is replaced whole.
  const known = [...new Set(secrets.filter(valid))].sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of known) out = out.split(quoted(s)).join(s.length >= 4 ? MASK : `"${MASK}"`);
  return out;
}

/** How redactText looks for a secret: as it is from 4 characters, else only as a whole quoted value. */
function quoted(s: string): string {
  return s.length >= 4 ? s : JSON.stringify(s);
}

function valid(s: unknown): s is string {
  return typeof s === 'string' && s !== '';
}
