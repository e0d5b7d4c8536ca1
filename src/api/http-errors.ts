// How failures of an exchange become sq's typed errors: HTTP statuses, error bodies, and network failures (a write
// which may have reached the server is reported as ambiguous, never retried).
import { ApiError, AuthError, NotFoundError, RateLimitError, type SqError, type InterruptedError } from '../errors.js';
import { errorMessage } from './messages.js';

/** A write whose outcome is unknown: it may have reached the server. Never retried. */
export class AmbiguousWriteError extends ApiError {}

/** A write in flight when a stop signal came: as unknown an outcome as any ambiguous write, but sq exits as
 * interrupted (130 for Ctrl-C). */
export class InterruptedWriteError extends AmbiguousWriteError {
  override readonly exitCode: number;
  constructor(method: string, url: URL, stop: InterruptedError, cause: unknown) {
    super(`${stop.message} while ${method} ${url.pathname} was in flight. ${MAY_HAVE_REACHED}`, { cause });
    this.exitCode = stop.exitCode;
  }
}

/** A 2xx answer to a page request that is not a page, or a page that ends a listing its own counters say goes on. */
export class BadPageError extends ApiError {}

// Errors where the request certainly never reached the server: safe to retry even a POST.
export const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

// A refused connection is answered at once, and waiting seconds rarely mends it (nothing listens there): one quick
// retry covers a server that is restarting, then the user hears why, well within a second.
export const REFUSED_RETRIES = 1;
export const REFUSED_RETRY_MS = 150;

export function retryAfterSeconds(h: Record<string, string | string[] | undefined>): number | null {
  const v = h['retry-after'];
  if (typeof v !== 'string') return null;
  const n = Number(v);
  if (Number.isFinite(n)) return Math.max(0, Math.ceil(n));
  const d = Date.parse(v);
  return Number.isFinite(d) ? Math.max(0, Math.ceil((d - Date.now()) / 1000)) : null;
}

export function errCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
}

export function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describeNonJson(text: string): string {
  if (/^\s*</.test(text)) return 'an HTML page';
  if (text.trim() === '') return 'an empty body';
  return 'a body that is not valid JSON (truncated or malformed)';
}

export function parseJson(text: string, status: number, method: string, url: string, safe = true): unknown {
  if (text === '' && (status === 204 || method === 'DELETE' || method === 'HEAD')) return null;
  try {
    return JSON.parse(text);
  } catch {
    const what = `the API answered ${method} ${pathOf(url)} with HTTP ${status} and ${describeNonJson(text)} instead of JSON`;
    // A write answered 2xx did reach the server; an unreadable answer leaves its outcome as unknown as a 5xx does.
    if (!safe && status >= 200 && status < 300)
      throw new AmbiguousWriteError(`${what}. ${MAY_HAVE_REACHED}`, { status });
    throw new ApiError(what, { status });
  }
}

function pathOf(url: string | URL): string {
  try {
    return new URL(String(url)).pathname;
  } catch {
    return String(url);
  }
}

const MAY_HAVE_REACHED =
  'The request may have reached the server: it was not retried, so check its effect before trying again';

/** A write answered 2xx with a body that lacks what the endpoint promises: as unknown an outcome as a 5xx. */
export function unexpectedWriteAnswer(method: string, path: string, lacking: string): AmbiguousWriteError {
  return new AmbiguousWriteError(`the API answered ${method} ${path} without ${lacking}. ${MAY_HAVE_REACHED}`);
}

export function httpError(
  status: number,
  text: string,
  method: string,
  url: URL,
  headers: Record<string, string | string[] | undefined>,
  safe: boolean,
): SqError {
  const body = safeParse(text);
  const fromBody = typeof body === 'string' ? null : errorMessage(body);
  const where = `${method} ${url.pathname}`;
  const msg =
    fromBody ??
    (typeof body === 'string' && body.trim() ? `HTTP ${status} with ${describeNonJson(body)}` : `HTTP ${status}`);
  if (status === 401 || status === 403) {
    return new AuthError(`${msg} (HTTP ${status}): the API key was rejected; run \`sq auth login\` or check SQ_TOKEN`, {
      status,
    });
  }
  if (status === 404) return new NotFoundError(`${msg} (${where}, HTTP 404)`, { status });
  if (status === 429) return new RateLimitError(msg, { status, retryAfter: retryAfterSeconds(headers) });
  // A server error on a write says nothing of whether the write happened (a run may have started, a card been
  // charged): the same ambiguity as a connection lost after sending.
  if (!safe && status >= 500)
    return new AmbiguousWriteError(`${msg} (${where}, HTTP ${status}). ${MAY_HAVE_REACHED}`, { status });
  return new ApiError(`${msg} (${where}, HTTP ${status})`, { status });
}

/** `baseUrlFrom`: where the API's base URL came from, named when a connection to it is refused (a wrong base URL). */
export function networkError(
  err: unknown,
  method: string,
  url: URL,
  safe: boolean,
  afterHeaders = false,
  baseUrlFrom?: string,
): SqError {
  const code = errCode(err) ?? (afterHeaders ? 'UND_ERR_SOCKET' : 'network error');
  if (code === 'ECONNREFUSED' && !afterHeaders) {
    return new ApiError(
      `cannot connect to ${url.origin} (connection refused; ${method} ${url.pathname} was not sent): is the service running? ` +
        `For the emulator: \`sq emulator start\`.${baseUrlFrom ? ` The base URL comes from ${baseUrlFrom}.` : ''}`,
      { cause: err },
    );
  }
  const base = `${method} ${url.origin}${url.pathname} failed${afterHeaders ? ' while reading the response' : ''}: ${describeCode(code, err)}`;
  if (!safe && (afterHeaders || !NOT_SENT_CODES.has(code))) {
    return new AmbiguousWriteError(`${base}. ${MAY_HAVE_REACHED}`, { cause: err });
  }
  return new ApiError(base, { cause: err });
}

function describeCode(code: string, err: unknown): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the server running? check --base-url / SQ_BASE_URL)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found (check --base-url / SQ_BASE_URL)';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'timed out connecting';
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'timed out waiting for the response';
    case 'UND_ERR_BODY_TIMEOUT':
      return 'timed out reading the response body';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was reset';
    default:
      return `${code}${err instanceof Error && err.message && !err.message.includes(code) ? ` (${err.message})` : ''}`;
  }
}

/** Keys of the API's four error bodies (api-reference §4): an answer made of these only is an error, not a document. */
const ERROR_KEYS = new Set(['detail', 'error', 'errors', 'message', 'type', 'code', 'param']);

/**
 * Whether a 2xx answer is a document at all, then (o.expect) the one the endpoint promises; null when it is, else
 * what it is instead ("null", "an error message: maintenance", `not a run: "id" is missing`).
 */
export function answerProblem(
  data: unknown,
  method: string,
  status: number,
  o: { expect?: 'any' | ((data: unknown) => string | null | Promise<string | null>); nullable?: boolean },
): string | null | Promise<string | null> {
  if (data === null) return o.nullable || status === 204 || method === 'DELETE' || method === 'HEAD' ? null : 'null';
  if (typeof data !== 'object') return `a ${typeof data}, not a document`;
  if (!Array.isArray(data)) {
    const keys = Object.keys(data);
    if (keys.length > 0 && keys.every((k) => ERROR_KEYS.has(k)))
      return `an error message, not a document: ${JSON.stringify(errorMessage(data) ?? keys.join(', '))}`;
  }
  return typeof o.expect === 'function' ? o.expect(data) : null;
}

/** A 2xx answer that is not the document the endpoint promises: exit 1 naming it (a write's outcome is unknown). */
export function notTheDocument(method: string, path: string, status: number, problem: string, safe: boolean): ApiError {
  const what = `the API answered ${method} ${path} with HTTP ${status}, but the answer is ${problem}`;
  return safe ? new ApiError(what, { status }) : new AmbiguousWriteError(`${what}. ${MAY_HAVE_REACHED}`, { status });
}

/** A 3xx: not followed (the key would go along to wherever it points), its body not read. Names the host only. */
export function redirectError(
  status: number,
  method: string,
  url: URL,
  headers: Record<string, string | string[] | undefined>,
  safe: boolean,
): ApiError {
  let where = '';
  try {
    const loc = headers.location;
    if (typeof loc === 'string' && loc) where = ` to ${new URL(loc, url).host}`;
  } catch {
    // a Location that is no URL: named by nothing
  }
  const what =
    `the API answered ${method} ${url.pathname} with HTTP ${status}, a redirect${where}, which ` +
    `sq does not follow: check the base URL (an http:// URL for an https:// service, a proxy in ` +
    `front of it)`;
  return safe ? new ApiError(what, { status }) : new AmbiguousWriteError(`${what}. ${MAY_HAVE_REACHED}`, { status });
}
