// The thin HTTP module: every request of sq goes through here. It owns auth, pacing, retries, timeouts, error
// mapping and the redacted --verbose trace (reliability.md).
import type { Dispatcher } from 'undici';
import { AuthError, RateLimitError } from '../errors.js';
import { Pacer, resetWaitMs } from './pacing.js';
import { SharedStore } from './pacing-state.js';
import { errorMessage } from './messages.js';
import { loadTransport, type RequestFn } from './transport.js';
import { AmbiguousWriteError, NOT_SENT_CODES, REFUSED_RETRIES, REFUSED_RETRY_MS, errCode, networkError, httpError, parseJson, retryAfterSeconds, safeParse } from './http-errors.js';
import { redactBody, redactUrl } from './redact.js';
import { maskKey } from '../output/secrets.js';

export { AmbiguousWriteError };

export interface HttpOptions {
  baseUrl: string;
  token: string | null;
  /** Write a trace line (already redacted) when --verbose; undefined when not tracing. */
  trace?: (line: string) => void;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  signal?: AbortSignal;
  userAgent?: string;
  /** Retries this client's requests may spend (default: the process-wide budget). */
  retryBudget?: RetryBudget;
  /** The cache directory where every sq process of the machine shares its pacing state; undefined: this process alone. */
  pacingDir?: string;
  /** Where baseUrl came from ('SQ_BASE_URL', '--base-url', …), named when it cannot be reached. */
  baseUrlFrom?: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send without the Authorization header (signed download URLs, public endpoints). */
  noAuth?: boolean;
  /** Statuses that are returned instead of thrown (e.g. 202 is always fine; 404 for existence checks). */
  okStatuses?: number[];
  /** Retries this request may spend, instead of the client's budget (a page of an export has its own). */
  retryBudget?: RetryBudget;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  url: string;
}

export interface StreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: NodeJS.ReadableStream & AsyncIterable<Buffer>;
}


const SAFE_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);
const RETRY_STATUSES = new Set([500, 502, 503, 504]);
const TRANSIENT_CODES = new Set([
  ...NOT_SENT_CODES,
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

export const MAX_RETRIES = 4;
export const MAX_CONSECUTIVE_429 = 5;
export const MAX_429_WAIT_MS = 5 * 60_000;

/**
 * Retries a group of requests may spend between them, on top of each request's own MAX_RETRIES. A success earns
 * back a tenth of a retry, so a server that recovers slowly earns the budget back.
 */
export class RetryBudget {
  private tokens: number;
  constructor(readonly max = 10) {
    this.tokens = max;
  }
  take(): boolean {
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
  giveBack(): void {
    this.tokens = Math.min(this.max, this.tokens + 0.1);
  }
  reset(): void {
    this.tokens = this.max;
  }
}

/** Shared by every client of the process, so a batch of many calls cannot storm a failing server. */
export const processRetryBudget = new RetryBudget(10);

export class HttpClient {
  readonly baseUrl: string;
  private readonly pacer: Pacer;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private agent: Dispatcher | undefined;
  /** Counts requests actually sent (for tests and benchmarks). */
  sent = 0;

  /** Requests to this origin carry the key; computed once, not per request. */
  private readonly apiOrigin: string;

  constructor(private readonly opts: HttpOptions) {
    this.baseUrl = opts.baseUrl;
    this.apiOrigin = new URL(opts.baseUrl).origin;
    this.now = opts.now ?? Date.now;
    this.sleep =
      opts.sleep ??
      ((ms) =>
        new Promise((resolve, reject) => {
          const onAbort = () => {
            clearTimeout(t);
            reject(opts.signal?.reason);
          };
          const t = setTimeout(() => {
            opts.signal?.removeEventListener('abort', onAbort);
            resolve();
          }, ms);
          opts.signal?.addEventListener('abort', onAbort, { once: true });
        }));
    this.random = opts.random ?? Math.random;
    const shared = opts.pacingDir
      ? new SharedStore({ dir: opts.pacingDir, token: opts.token, origin: this.apiOrigin, now: this.now, trace: opts.trace })
      : undefined;
    this.pacer = new Pacer(this.now, this.sleep, shared);
  }

  get hasToken(): boolean {
    return !!this.opts.token;
  }

  async get<T = unknown>(path: string, o: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('GET', path, o)).data;
  }

  async post<T = unknown>(path: string, body?: unknown, o: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('POST', path, { ...o, body })).data;
  }

  async delete<T = unknown>(path: string, o: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('DELETE', path, o)).data;
  }

  /** Build the absolute URL for a path (`/v1/...`) or pass an absolute URL through. */
  url(path: string, query?: RequestOptions['query']): URL {
    const u = /^https?:\/\//.test(path) ? new URL(path) : new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
    }
    return u;
  }

  async request<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<HttpResponse<T>> {
    method = method.toUpperCase();
    const res = await this.send(method, path, o, false);
    const text = res.text ?? '';
    const safe = SAFE_METHODS.has(method);
    return { status: res.statusCode, headers: res.headers, data: parseJson(text, res.statusCode, method, path, safe) as T, url: res.url };
  }

  /** For downloads: the body is handed over as a stream once the status is known good. */
  async stream(method: string, path: string, o: RequestOptions = {}): Promise<StreamResponse> {
    const res = await this.send(method, path, o, true);
    return { status: res.statusCode, headers: res.headers, body: res.body as unknown as StreamResponse['body'] };
  }

  async close(): Promise<void> {
    // What this process learnt (a 429 pause, an exhausted window) is for the processes that run after it too.
    await this.pacer.idle();
    const a = this.agent;
    this.agent = undefined;
    if (a) await a.close().catch(() => undefined);
  }

  private async dispatcher(): Promise<{ agent: Dispatcher; request: RequestFn }> {
    const { Agent, request } = await loadTransport();
    this.agent ??= new Agent({
      connect: { timeout: this.opts.connectTimeoutMs ?? 10_000 },
      headersTimeout: this.opts.headersTimeoutMs ?? 30_000,
      bodyTimeout: this.opts.bodyTimeoutMs ?? 60_000,
      keepAliveTimeout: 10_000,
      // Node's own default (--max-http-header-size). Given here so undici need not load node:http to read it.
      maxHeaderSize: 16 * 1024,
    });
    return { agent: this.agent, request };
  }

  private async send(
    method: string,
    path: string,
    o: RequestOptions,
    streaming: boolean,
  ): Promise<Dispatcher.ResponseData & { url: string; text?: string }> {
    method = method.toUpperCase();
    const url = this.url(path, o.query);
    const isApi = url.origin === this.apiOrigin;
    if (!o.noAuth && isApi && !this.opts.token) {
      throw new AuthError('no API key: run `sq auth login`, or set SQ_TOKEN');
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'sq',
      ...o.headers,
    };
    if (!o.noAuth && isApi && this.opts.token) headers.authorization = `Token ${this.opts.token}`;
    let payload: string | Buffer | undefined;
    let traced: unknown = o.body;
    // Tag check, not instanceof: touching the global FormData loads Node's bundled undici (~10 ms on every call).
    const tag = o.body !== null && typeof o.body === 'object' ? Object.prototype.toString.call(o.body) : '';
    if (tag === '[object FormData]' || tag === '[object Blob]') {
      const form = o.body as FormData | Blob;
      // Multipart uploads. The global FormData belongs to Node's bundled undici, which the undici package does not
      // recognise, so the platform's Response serialises it (boundary and content-type included) into bytes that
      // can also be re-sent on a retry.
      const r = new Response(form);
      payload = Buffer.from(await r.arrayBuffer());
      const type = r.headers.get('content-type');
      if (type) headers['content-type'] ??= type;
      traced = tag === '[object FormData]' ? `<multipart/form-data: ${[...(form as FormData).keys()].join(', ')}; ${payload.length} bytes>` : `<${payload.length} bytes>`;
    } else if (o.body !== undefined) {
      payload = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const bucket = this.pacer.bucket(url.pathname);
    const safe = SAFE_METHODS.has(method);
    const budget = o.retryBudget ?? this.opts.retryBudget ?? processRetryBudget;
    let attempt = 0;
    let consecutive429 = 0;
    let first429At: number | null = null;
    const { agent, request } = await this.dispatcher();

    for (;;) {
      await bucket.acquire();
      const started = this.now();
      this.traceRequest(method, url, headers, traced);
      let res: Dispatcher.ResponseData;
      try {
        this.sent++;
        res = await request.call(agent, {
          origin: url.origin,
          path: url.pathname + url.search,
          method: method as Dispatcher.HttpMethod,
          headers,
          body: payload,
          signal: this.opts.signal,
        });
      } catch (err) {
        if (this.opts.signal?.aborted) throw err;
        const code = errCode(err);
        this.trace(`* ${method} ${redactUrl(url)} failed: ${code ?? (err as Error).message} (${this.now() - started} ms)`);
        const retriable = safe ? TRANSIENT_CODES.has(code ?? '') : NOT_SENT_CODES.has(code ?? '');
        const refused = code === 'ECONNREFUSED';
        if (retriable && attempt < (refused ? REFUSED_RETRIES : MAX_RETRIES) && budget.take()) {
          await this.sleep(refused ? REFUSED_RETRY_MS : this.backoff(attempt));
          attempt++;
          continue;
        }
        throw networkError(err, method, url, safe, false, isApi ? this.opts.baseUrlFrom : undefined);
      }
      const status = res.statusCode;
      this.traceResponse(res, started);
      this.observeRateHeaders(bucket, res.headers);

      if (status === 429) {
        const text = await readText(res.body).catch(() => '');
        consecutive429++;
        // Retry-After when sent; else the seconds the DRF-style body states ("Expected available in 2 seconds");
        // else back off exponentially (1, 2, 4, 8 s), since repeated refusals can get the caller's IP blocked.
        const retryAfter = retryAfterSeconds(res.headers) ?? secondsInMessage(text) ?? Math.min(30, 2 ** (consecutive429 - 1));
        first429At ??= this.now();
        const waited = this.now() - first429At;
        if (consecutive429 >= MAX_CONSECUTIVE_429 || waited + retryAfter * 1000 > MAX_429_WAIT_MS) {
          throw new RateLimitError(
            `rate limited on ${url.pathname} after ${consecutive429} attempts; retry after ${retryAfter} s` +
              (text ? ` (${errorMessage(safeParse(text)) ?? 'Rate limit exceeded'})` : ''),
            { status: 429, retryAfter },
          );
        }
        bucket.pause(retryAfter * 1000 + Math.floor(this.random() * 1000));
        continue;
      }
      consecutive429 = 0;

      if (safe && RETRY_STATUSES.has(status) && attempt < MAX_RETRIES && budget.take()) {
        await readText(res.body).catch(() => '');
        await this.sleep(this.backoff(attempt++));
        continue;
      }
      if (status >= 400 && !(o.okStatuses ?? []).includes(status)) {
        const text = await readText(res.body).catch(() => '');
        throw httpError(status, text, method, url, res.headers, safe);
      }
      if (streaming) {
        budget.giveBack();
        return Object.assign(res, { url: url.toString() });
      }
      // A reset or timeout in the middle of the body is a failure of the whole exchange: retried like any
      // transient failure for safe methods; for a POST it means the server may have acted.
      let text: string;
      try {
        text = await readText(res.body);
      } catch (err) {
        if (this.opts.signal?.aborted) throw err;
        const code = errCode(err) ?? 'UND_ERR_SOCKET';
        this.trace(`* ${method} ${redactUrl(url)} body failed: ${code}`);
        if (safe && TRANSIENT_CODES.has(code) && attempt < MAX_RETRIES && budget.take()) {
          await this.sleep(this.backoff(attempt++));
          continue;
        }
        throw networkError(err, method, url, safe, true);
      }
      budget.giveBack();
      return Object.assign(res, { url: url.toString(), text });
    }
  }

  /** Full-jitter backoff: random(0, min(20 s, 0.5 s × 2^attempt)). */
  private backoff(attempt: number): number {
    return Math.floor(this.random() * Math.min(20_000, 500 * 2 ** attempt));
  }

  private observeRateHeaders(bucket: ReturnType<Pacer['bucket']>, h: Record<string, string | string[] | undefined>) {
    const remaining = num(h['x-ratelimit-remaining']);
    // A 429's Retry-After is the server's instruction for when to come back (the 429 handling pauses for it); the
    // window's Reset, which some services send as garbage, only decides the wait when there is no such instruction.
    const reset = h['retry-after'] === undefined ? resetWaitMs(num(h['x-ratelimit-reset']), serverNow(h.date, this.now())) : null;
    bucket.observe(remaining, reset);
  }

  private trace(line: string) {
    this.opts.trace?.(line);
  }

  private traceRequest(method: string, url: URL, headers: Record<string, string>, body: unknown) {
    if (!this.opts.trace) return;
    this.trace(`> ${method} ${redactUrl(url)}`);
    for (const [k, v] of Object.entries(headers)) {
      this.trace(`> ${k}: ${k === 'authorization' ? maskAuth(v) : v}`);
    }
    if (body !== undefined) this.trace(`> ${redactBody(body, this.secrets())}`);
  }

  private traceResponse(res: Dispatcher.ResponseData, started: number) {
    if (!this.opts.trace) return;
    const h = res.headers;
    const rl =
      h['x-ratelimit-limit'] !== undefined
        ? ` rate-limit ${h['x-ratelimit-remaining']}/${h['x-ratelimit-limit']} reset ${h['x-ratelimit-reset']}`
        : '';
    const ra = h['retry-after'] !== undefined ? ` retry-after ${h['retry-after']}` : '';
    this.trace(`< ${res.statusCode} (${this.now() - started} ms)${rl}${ra}`);
  }

  private secrets(): string[] {
    return this.opts.token ? [this.opts.token] : [];
  }
}

/**
 * The server's "now", for measuring X-RateLimit-Reset (a UNIX time on the server's clock). The Date header only has
 * whole seconds, so when it agrees with our clock to within that resolution, our clock gives the sub-second part;
 * otherwise (skewed clocks) the Date header wins.
 */
export function serverNow(date: string | string[] | undefined, local = Date.now()): number {
  const d = typeof date === 'string' ? Date.parse(date) : NaN;
  if (!Number.isFinite(d)) return local;
  const skew = d - local;
  return skew > -1500 && skew < 500 ? local : d;
}

/** For tests: give the process-wide retry budget back. */
export function resetRetryBudget(): void {
  processRetryBudget.reset();
}

/** "Request was throttled. Expected available in 2 seconds." (the documented DRF 429 body) → 2. */
export function secondsInMessage(text: string): number | null {
  const m = /available in (\d+(?:\.\d+)?) seconds?/i.exec(text);
  return m ? Math.ceil(Number(m[1])) : null;
}

function maskAuth(v: string): string {
  const m = /^(\S+)\s+(\S+)$/.exec(v);
  return m ? `${m[1]} ${maskKey(m[2])}` : '****';
}

function num(v: string | string[] | undefined): number | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

async function readText(body: Dispatcher.ResponseData['body']): Promise<string> {
  return body.text();
}
