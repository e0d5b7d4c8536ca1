// An http(s) URL flag. Apart from validate/index.ts because every call checks the base URL, and this check needs
// no schema library.
import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../lib/loopback.js';
import { maskUrlQuery } from '../lib/secrets.js';

/** The longest URL accepted, what browsers and most servers take: a longer one is a mistake (a pasted file). */
export const MAX_URL_LENGTH = 2048;

/** The message for a URL over MAX_URL_LENGTH; the URL itself is not quoted (it may carry a token). */
export function urlTooLong(length: number): string {
  return `is ${length} characters long; the longest URL accepted is ${MAX_URL_LENGTH}`;
}

export function httpUrlFlag(flag: string, value: unknown, example = 'https://example.com/hook'): string {
  return httpUrl(flag, value, example).s;
}

/** httpUrlFlag's check, with the URL it parsed (`u`) beside the text (`s`): a caller checking more parses it once. */
function httpUrl(flag: string, value: unknown, example: string): { s: string; u: URL } {
  const rule = `an http(s) URL, e.g. ${example}`;
  const s = typeof value === 'string' ? value.trim() : '';
  if (s.length > MAX_URL_LENGTH) throw new UsageError(`${flag} ${urlTooLong(s.length)}`);
  let u: URL | undefined;
  try {
    u = s ? new URL(s) : undefined;
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
    // A value with a user name or password ("user:pass@host") is not echoed, even when it is not a URL at all; any
    // other is echoed with its secret query values masked.
    const shown =
      u?.username || u?.password || USERINFO.test(s)
        ? 'a value with a user name or password, not shown'
        : JSON.stringify(typeof value === 'string' ? maskUrlQuery(value) : value);
    throw new UsageError(`${flag} must be ${rule} (got ${shown})`);
  }
  return { s, u };
}

/** "user:pass@" before the host, with or without a scheme and slashes ("htps://me:pw@host", "me:pw@host"). */
const USERINFO = /^(?:[a-z][a-z0-9+.-]*:)?\/*[^/?#]*@/i;

/**
 * The API origin, which every request carries the key to: no user name or password, no query or fragment, and no
 * plain http:// to another machine unless asked. `from` names where the URL came from (--base-url, SQ_BASE_URL, a
 * profile). The URL is not echoed: it may hold a password.
 */
export function baseUrlFlag(from: string, value: unknown, example: string, insecureHttp: boolean): string {
  const { s, u } = httpUrl(from, value, example);
  if (u.username || u.password) {
    throw new UsageError(
      `${from} must not contain a user name or password ("user:pass@"): the API key comes from SQ_TOKEN or \`sq auth login\``,
    );
  }
  if (u.search || u.hash || s.includes('?') || s.includes('#')) {
    throw new UsageError(
      `${from} must be the API origin alone, e.g. ${example}, without a query ("?…") or fragment ("#…")`,
    );
  }
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname) && !insecureHttp) {
    throw new UsageError(
      `${from}: plain http:// to ${u.hostname} would send the API key unencrypted; use https://, or pass --insecure-http ` +
        `(or SQ_INSECURE_HTTP=1) if you mean it. Loopback (127.0.0.1, ::1, localhost) needs neither`,
    );
  }
  return s;
}
