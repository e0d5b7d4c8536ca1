// Account helpers: reading a cookies export (values are secrets: never echoed), the one-element envelope of
// GET /accounts/{id}, and waiting for a cookie synchronization.
import { ApiError, TimeoutError, UsageError } from '../errors.js';
import type { HttpClient } from './http.js';
import { isRecord, type Rec } from '../lib/guards.js';
import { seg } from './path.js';
import type { Account } from './records.js';

/**
 * Cookies from a file in one of the formats people have at hand:
 * - a JSON object `{name: value}`;
 * - a JSON array of `{name, value, …}` (what browser cookie-export extensions write);
 * - a Netscape cookies.txt (curl, wget, yt-dlp): 7 tab-separated fields, `#` comments, `#HttpOnly_` prefixes.
 * Error messages name cookies but never show a value.
 */
export function parseCookies(text: string, flag = '--cookies-file'): Record<string, string> {
  const raw = text.replace(/^\uFEFF/, '');
  const body = raw.trim();
  if (body === '') throw new UsageError(`${flag}: the file is empty`);
  const out: Record<string, string> = {};
  if (body.startsWith('{') || body.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new UsageError(
        `${flag}: the file looks like JSON but does not parse (expected {"name": "value"} or [{"name": …, "value": …}])`,
      );
    }
    if (Array.isArray(parsed)) {
      parsed.forEach((c, i) => {
        if (!isRecord(c) || typeof c.name !== 'string' || c.value === undefined || c.value === null) {
          throw new UsageError(`${flag}: element ${i + 1} of the JSON array needs "name" and "value"`);
        }
        out[c.name] = String(c.value);
      });
    } else if (isRecord(parsed)) {
      for (const [name, value] of Object.entries(parsed)) {
        if (value === null || typeof value === 'object')
          throw new UsageError(`${flag}: cookie "${name}" must have a string value`);
        out[name] = String(value);
      }
    }
  } else {
    for (const l of raw.split(/\r?\n/)) {
      let line = l;
      // curl marks HttpOnly cookies with this prefix on an otherwise normal line; other # lines are comments.
      if (line.startsWith('#HttpOnly_')) line = line.slice('#HttpOnly_'.length);
      else if (line.trim() === '' || line.startsWith('#')) continue;
      const f = line.split('\t');
      if (f.length < 7)
        throw new UsageError(
          `${flag}: not JSON and not a Netscape cookies.txt (a line has ${f.length} tab-separated fields, expected 7)`,
        );
      out[f[5].trim()] = f.slice(6).join('\t');
    }
  }
  if (Object.keys(out).length === 0) throw new UsageError(`${flag}: no cookies found in the file`);
  return out;
}

/** GET /accounts/{id} answers a list envelope with one element; tolerate a bare record as well. */
export function firstAccount(body: unknown, id: string): Account {
  const list = isRecord(body) && Array.isArray(body.data) ? body.data : Array.isArray(body) ? body : undefined;
  const bare = isRecord(body) && (body.id !== undefined || body.username !== undefined) ? body : undefined;
  const a = list ? list.find(isRecord) : bare;
  if (a) return a;
  throw new ApiError(`the API answered GET /v1/accounts/${id} without an account`);
}

interface SyncStatus extends Rec {
  id?: string;
  status_code?: number | string;
  status_text?: string;
  account_hash?: string | null;
}

export function syncCode(s: SyncStatus): number {
  const n = Number(s.status_code);
  return Number.isFinite(n) ? n : 0;
}

const SYNC_POLL_MS = 1500;

export async function waitForSync(
  http: HttpClient,
  id: string,
  timeoutMs: number,
  deps: { now(): number; sleep(ms: number): Promise<void> },
): Promise<SyncStatus> {
  const deadline = deps.now() + timeoutMs;
  for (;;) {
    const raw = await http.get(`${SYNC_PATH}/${seg('synchronization id', id)}`);
    const s: SyncStatus = isRecord(raw) ? raw : {};
    const code = syncCode(s);
    if (code === 200 || code >= 400) return s;
    if (deps.now() + SYNC_POLL_MS > deadline) {
      // Docs: more than ~30 s at 120 usually means the cookies are bad.
      throw new TimeoutError(
        `synchronization ${id} is still ${s.status_text ?? code} after the timeout; the cookies may be expired or incomplete`,
      );
    }
    await deps.sleep(SYNC_POLL_MS);
  }
}

export const ACCOUNTS_PATH = '/v1/accounts';
/** The reference documents /account_types, the SDK /accounts/types; the spec names the latter, so it goes first. */
export const ACCOUNT_TYPE_PATHS = ['/v1/accounts/types', '/v1/account_types'];
/** Sync status (check-sync-status): GET /v1/synchronize/{id}. */
const SYNC_PATH = '/v1/synchronize';

function accountPath(id: string): string {
  return `${ACCOUNTS_PATH}/${seg('account id', id)}`;
}

export function getAccount(http: HttpClient, id: string): Promise<unknown> {
  // get-account answers an envelope of one account (api-reference §15), read by the caller: the generic check only.
  return http.get(accountPath(id));
}

export function deleteAccount(http: HttpClient, id: string): Promise<unknown> {
  return http.delete(accountPath(id));
}

/** The documented create/refresh form (sync-account, refresh-cookies): {type, cookies[, account]}. */
export const COOKIES_PATH = `${ACCOUNTS_PATH}/cookies`;

export function startSync(http: HttpClient, body: Rec): Promise<SyncStatus> {
  return http.post<SyncStatus>(COOKIES_PATH, body);
}

/** Limit updates go to the account list itself (update-account-limits): {account, type, params: {key: n}}. */
export function updateLimits(http: HttpClient, body: Rec): Promise<unknown> {
  return http.post(ACCOUNTS_PATH, body);
}

/** `--limit key=value…` → {key: n}; each value a whole number from 1 (the account type caps it further), each key once. */
export function parseLimits(pairs: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const pair of pairs) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\S*)\s*$/.exec(pair);
    if (!m) throw new UsageError(`--limit must look like key=value, e.g. batch=10 (got ${JSON.stringify(pair)})`);
    if (!/^\d+$/.test(m[2]) || Number(m[2]) < 1 || !Number.isSafeInteger(Number(m[2]))) {
      throw new UsageError(`--limit ${m[1]} must be a whole number of at least 1 (got ${JSON.stringify(m[2])})`);
    }
    // A key given twice kept the last value silently; own keys only (`constructor`, `__proto__` are plain names).
    if (Object.hasOwn(out, m[1]))
      throw new UsageError(`--limit ${m[1]} is given twice (${out[m[1]]} and ${m[2]}); give each key once`);
    Object.defineProperty(out, m[1], { value: Number(m[2]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The limits an account takes and their maximum (null: none stated), from its type's `params.default`; undefined when
 * the account carries no such map (an unknown shape is never a reason to refuse: the API checks).
 */
export function limitKeys(account: Account): Record<string, number | null> | undefined {
  const params = isRecord(account.params) ? account.params : undefined;
  const defaults = params && isRecord(params.default) ? params.default : undefined;
  if (!defaults || Object.keys(defaults).length === 0) return undefined;
  return Object.fromEntries(
    Object.entries(defaults).map(([k, v]) => [k, isRecord(v) && typeof v.max === 'number' ? v.max : null]),
  );
}
