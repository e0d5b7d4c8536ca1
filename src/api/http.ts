// The thin HTTP module: every request of sq goes through here. It owns auth, pacing, retries, timeouts, error
// mapping and the redacted --verbose trace (reliability.md).
import type { Dispatcher } from 'undici';
import { AuthError, DryRunStop, InterruptedError } from '../errors.js';
import { NOTICE_AFTER_MS, Pacer, serverNow, serverSaidOf, type Bucket } from './pacing.js';
import type { HttpOptions, HttpResponse, Prepared, RequestOptions, StreamResponse } from './http-options.js';
import { SharedStore } from './pacing-state.js';
import { loadTransport, type RequestFn } from './transport.js';
import {
  AmbiguousWriteError,
  InterruptedWriteError,
  NOT_SENT_CODES,
  answerProblem,
  errCode,
  networkError,
  httpError,
  notTheDocument,
  parseJson,
  redirectError,
} from './http-errors.js';
import { redactBody, redactUrl } from './redact.js';
import { maskAuthorization } from '../lib/secrets.js';
import { RetryBudget, RetryPolicy, SAFE_METHODS } from './retry.js';
import { sleep } from '../lib/sleep.js';
import { USER_AGENT } from '../version.js';
import { fnv1a64 } from '../lib/cache-file.js';
import { mark } from '../startup/trace.js';

import { encodeBody, formSummary } from './body.js';
export { AmbiguousWriteError, InterruptedWriteError };

/** What a dry run still sends (DELETE is retry-safe, but it is a write). */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export { MAX_RETRIES, RetryBudget, secondsInMessage } from './retry.js';
export type { HttpResponse, RequestOptions, StreamResponse } from './http-options.js';

export class HttpClient {
  readonly baseUrl: string;
  private readonly pacer: Pacer;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly retryBudget: RetryBudget;
  private agent: Dispatcher | undefined;
  private writesSent = 0;
  /** How far the API's clock is ahead of ours (its Date header), from its latest answer; 0 within Date's resolution. */
  private skewMs = 0;

  /** Requests to this origin carry the key; computed once, not per request. */
  private readonly apiOrigin: string;

  constructor(private readonly opts: HttpOptions) {
    this.baseUrl = opts.baseUrl;
    this.apiOrigin = new URL(opts.baseUrl).origin;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => sleep(ms, opts.signal));
    this.random = opts.random ?? Math.random;
    this.retryBudget = opts.retryBudget ?? new RetryBudget();
    const shared = opts.pacingDir
      ? new SharedStore({
          dir: opts.pacingDir,
          token: opts.token,
          origin: this.apiOrigin,
          now: this.now,
          trace: opts.trace,
          warn: opts.warn,
          signal: opts.signal,
        })
      : undefined;
    this.pacer = new Pacer(this.now, this.sleep, shared, opts.notice);
  }

  /** False in a dry run: verbs whose plan is more than the requests (delivery apply) ask here, not the flag. */
  get sendsWrites(): boolean {
    return !this.opts.dryRun;
  }

  /** True once a request other than a read went out: the command may have acted, whatever happens next. */
  get sentWrite(): boolean {
    return this.writesSent > 0;
  }

  get hasToken(): boolean {
    return !!this.opts.token;
  }

  /** The API's clock minus ours, from its latest Date header: relative times ("3 min ago") count from our clock plus
   * this, so a server clock ahead of ours never shows a past event as "in 6 min". */
  get clockSkewMs(): number {
    return this.skewMs;
  }

  /** The API's time now, as far as its latest Date header tells it: our clock plus the skew. */
  serverNow(): number {
    return this.now() + this.skewMs;
  }

  /** Names local state kept per key and API (remembered uploads) without holding the key: a hash of both. */
  get keyId(): string {
    return fnv1a64(`${this.opts.token ?? ''}\n${this.apiOrigin}`);
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
    const u =
      path.startsWith('http://') || path.startsWith('https://')
        ? new URL(path)
        : new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
    }
    return u;
  }

  async request<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<HttpResponse<T>> {
    method = method.toUpperCase();
    if (this.opts.dryRun && !READS.has(method) && !o.readOnly)
      return {
        status: 200,
        headers: {},
        data: this.plan(method, path, o) as T,
        url: this.url(path, o.query).toString(),
      };
    const res = await this.send(method, path, o, false);
    const text = res.text ?? '';
    const safe = SAFE_METHODS.has(method) || o.readOnly === true;
    const data = parseJson(text, res.statusCode, method, path, safe);
    if (o.expect !== 'any' && res.statusCode < 300) {
      const problem = await answerProblem(data, method, res.statusCode, o);
      if (problem) throw notTheDocument(method, new URL(res.url).pathname, res.statusCode, problem, safe);
    }
    return { status: res.statusCode, headers: res.headers, data: data as T, url: res.url };
  }

  /** For downloads: the body is handed over as a stream once the status is known good. */
  async stream(method: string, path: string, o: RequestOptions = {}): Promise<StreamResponse> {
    if (this.opts.dryRun && !READS.has(method.toUpperCase()))
      this.plan(method.toUpperCase(), path, { ...o, dryRunAnswer: undefined });
    const res = await this.send(method, path, o, true);
    return { status: res.statusCode, headers: res.headers, body: res.body as unknown as StreamResponse['body'] };
  }

  /** Writes planned by a dry run, in order; main.ts prints them (masked) when the verb stops at its last one. */
  private readonly planned: { method: string; path: string; body?: unknown }[] = [];

  private plan(method: string, path: string, o: RequestOptions): unknown {
    const u = this.url(path, o.query);
    this.planned.push({
      method,
      path: u.pathname + u.search,
      body: o.body instanceof FormData ? formSummary(o.body) : o.body,
    });
    if (o.dryRunAnswer === undefined) throw new DryRunStop(this.planned);
    return o.dryRunAnswer;
  }

  async close(): Promise<void> {
    // What this process learnt (a 429 pause, an exhausted window) is for the processes that run after it too.
    await this.pacer.idle();
    const a = this.agent;
    this.agent = undefined;
    if (a && !this.opts.leaveConnections) await a.close().catch(() => undefined);
  }

  private async dispatcher(): Promise<{ agent: Dispatcher; request: RequestFn }> {
    const { Agent, request } = await loadTransport();
    mark('transport loaded');
    this.agent ??= new Agent({
      connect: { timeout: this.opts.connectTimeoutMs ?? 10_000 },
      headersTimeout: this.opts.headersTimeoutMs ?? 30_000,
      bodyTimeout: this.opts.bodyTimeoutMs ?? 60_000,
      keepAliveTimeout: 10_000,
      // Node's own default (--max-http-header-size).
      maxHeaderSize: 16 * 1024,
    });
    return { agent: this.agent, request };
  }

  /** Sends with pacing and the retry/429 policy; each pass of the loop is one attempt. */
  private async send(method: string, path: string, o: RequestOptions, streaming: boolean): Promise<Answer> {
    const req = await this.prepare(method.toUpperCase(), path, o);
    const bucket = this.pacer.bucket(req.url.pathname);
    const policy = new RetryPolicy(
      o.readOnly ? 'GET' : req.method,
      o.retryBudget ?? this.retryBudget,
      this.now,
      this.random,
    );
    const { agent, request } = await this.dispatcher();
    const x: Exchange = {
      req,
      o,
      streaming,
      policy,
      bucket,
      // Only an error or a notice quotes it: most requests never do (masking the URL is not free).
      get describe() {
        return `${req.method} ${redactUrl(req.url)}`;
      },
      reached: false,
      // Stopped between attempts: nothing of the next one went out, but an earlier one may have reached the server.
      between: (err: unknown): never => {
        throw x.reached ? this.stopped(err, req) : err;
      },
    };
    for (;;) {
      const res = await this.paced(x, agent, request);
      const answer = res && (await this.answerOf(x, res));
      if (answer) return answer;
    }
  }

  /** One attempt, through the pacer: its response, or null when a network error has it retried (after the wait). */
  private async paced(x: Exchange, agent: Dispatcher, request: RequestFn): Promise<Dispatcher.ResponseData | null> {
    const { req, bucket, policy } = x;
    const ticket = await bucket.acquire().catch(x.between);
    if (this.opts.signal?.aborted) {
      bucket.answered(ticket, null);
      x.between(this.opts.signal.reason);
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await this.attempt(req, agent, request);
    } catch (err) {
      bucket.answered(ticket, null);
      if (this.opts.signal?.aborted) throw this.stopped(err, req);
      const wait = policy.afterNetworkError(errCode(err));
      if (wait === null)
        throw networkError(
          err,
          req.method,
          req.url,
          policy.safe,
          false,
          req.url.origin === this.apiOrigin ? this.opts.baseUrlFrom : undefined,
        );
      x.reached ||= !NOT_SENT_CODES.has(errCode(err) ?? '');
      this.longWait(wait, x.describe, errCode(err) ?? 'a network error');
      await this.sleep(wait).catch(x.between);
      return null;
    }
    bucket.answered(ticket, serverSaidOf(res.headers, this.now()));
    return res;
  }

  /** The answer a response gives: the document, an error thrown, or null when its status has it retried. */
  private async answerOf(x: Exchange, res: Dispatcher.ResponseData): Promise<Answer | null> {
    const { req, o, policy } = x;
    const status = res.statusCode;
    if (status === 429) {
      const text = await res.body.text().catch(() => '');
      x.bucket.pause(policy.afterRateLimit(res.headers, text, req.url.pathname));
      return null;
    }
    const wait = policy.afterStatus(status);
    if (wait !== null) {
      await res.body.text().catch(() => '');
      x.reached = true;
      this.longWait(wait, x.describe, `HTTP ${status}`);
      await this.sleep(wait).catch(x.between);
      return null;
    }
    if (status === 404 && x.reached && req.method === 'DELETE' && !x.streaming) {
      await res.body.text().catch(() => '');
      this.trace(`* ${x.describe}: 404 on a retry: an earlier attempt deleted it`);
      policy.succeeded();
      return Object.assign(res, { url: req.url.toString(), text: '' });
    }
    if (status >= 300 && status < 400 && !(o.okStatuses ?? []).includes(status)) {
      // Never followed, and its body never read as the answer: a redirect is no document of the endpoint.
      await res.body.dump().catch(() => undefined);
      throw redirectError(status, req.method, req.url, res.headers, policy.safe);
    }
    if (status >= 400 && !(o.okStatuses ?? []).includes(status)) {
      const text = await res.body.text().catch(() => '');
      throw httpError(status, text, req.method, req.url, res.headers, policy.safe);
    }
    if (x.streaming) {
      policy.succeeded();
      return Object.assign(res, { url: req.url.toString() });
    }
    const text = await this.bodyOf(x, res);
    if (text === null) return null;
    mark('response body');
    policy.succeeded();
    return Object.assign(res, { url: req.url.toString(), text });
  }

  /** The whole body, or null to retry. A body cut short fails the whole exchange: retried for safe methods; for a
   * POST the server may have acted. */
  private async bodyOf(x: Exchange, res: Dispatcher.ResponseData): Promise<string | null> {
    const { req, policy } = x;
    try {
      return await res.body.text();
    } catch (err) {
      if (this.opts.signal?.aborted) throw this.stopped(err, req);
      const code = errCode(err) ?? 'UND_ERR_SOCKET';
      this.trace(`* ${x.describe} body failed: ${code}`);
      const wait = policy.afterNetworkError(code, true);
      if (wait === null) throw networkError(err, req.method, req.url, policy.safe, true);
      x.reached = true;
      this.longWait(wait, x.describe, `${code} in the body`);
      await this.sleep(wait).catch(x.between);
      return null;
    }
  }

  /** What to throw when a stop signal cut an attempt short: a write may have reached the server, and sq says so. */
  private stopped(err: unknown, req: Prepared): unknown {
    const stop = this.opts.signal?.reason;
    return READS.has(req.method) || !(stop instanceof InterruptedError)
      ? err
      : new InterruptedWriteError(req.method, req.url, stop, err);
  }

  /** The same settings, but every request and wait also ends when `deadline` aborts. The caller closes it. */
  withDeadline(deadline: AbortSignal): HttpClient {
    const signal = this.opts.signal ? AbortSignal.any([this.opts.signal, deadline]) : deadline;
    return new HttpClient({ ...this.opts, signal, sleep: (t) => sleep(t, signal) });
  }

  /** A client for the reads that report what a stop signal cut short: the same settings, not stopped by that signal
   * but after `ms`. The caller closes it. */
  afterStop(ms = 5000): HttpClient {
    const signal = AbortSignal.timeout(ms);
    return new HttpClient({ ...this.opts, signal, sleep: (t) => sleep(t, signal), retryBudget: new RetryBudget(0) });
  }

  /** The URL, headers (the key only to the API's own origin) and encoded body of a request. */
  private async prepare(method: string, path: string, o: RequestOptions): Promise<Prepared> {
    const url = this.url(path, o.query);
    const withKey = !o.noAuth && url.origin === this.apiOrigin;
    if (withKey && !this.opts.token) throw new AuthError('no API key: run `sq auth login`, or set SQ_TOKEN');
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? USER_AGENT,
      ...o.headers,
    };
    if (withKey) headers.authorization = `Token ${this.opts.token}`;
    const { payload, traced } = await encodeBody(o.body, headers);
    return { method, url, headers, payload, traced, readOnly: o.readOnly === true };
  }

  /** One exchange up to the response headers, traced. */
  private async attempt(req: Prepared, agent: Dispatcher, request: RequestFn): Promise<Dispatcher.ResponseData> {
    const started = this.now();
    this.traceRequest(req);
    try {
      if (!READS.has(req.method) && !req.readOnly) this.writesSent++;
      const res = await request.call(agent, {
        origin: req.url.origin,
        path: req.url.pathname + req.url.search,
        // The URL these come from, so that the transport does not parse it again.
        url: req.url,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.payload,
        signal: this.opts.signal,
      } as Dispatcher.RequestOptions);
      mark('request (to the headers)');
      this.traceResponse(res, started);
      // Only the API's own answers: a presigned download link's host keeps its own clock.
      if (req.url.origin === this.apiOrigin && typeof res.headers.date === 'string') {
        const local = this.now();
        this.skewMs = serverNow(res.headers.date, local) - local;
      }
      return res;
    } catch (err) {
      if (!this.opts.signal?.aborted) {
        this.trace(
          `* ${req.method} ${redactUrl(req.url)} failed: ${errCode(err) ?? (err as Error).message} (${this.now() - started} ms)`,
        );
      }
      throw err;
    }
  }

  /** A long back-off before a retry is told on stderr with its reason: no silent wait. */
  private longWait(ms: number, what: string, why: string): void {
    if (ms > NOTICE_AFTER_MS) this.opts.notice?.(`retrying ${what} in ${Math.ceil(ms / 1000)} s, after ${why}`);
  }

  private trace(line: string) {
    this.opts.trace?.(line);
  }

  private traceRequest({ method, url, headers, traced }: Prepared) {
    if (!this.opts.trace) return;
    this.trace(`> ${method} ${redactUrl(url)}`);
    for (const [k, v] of Object.entries(headers)) {
      this.trace(`> ${k}: ${k === 'authorization' ? maskAuthorization(v) : v}`);
    }
    if (traced !== undefined) this.trace(`> ${redactBody(traced, this.opts.token ? [this.opts.token] : [])}`);
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
}

/** What send answers: the response, with its URL and (unless streamed) its whole body. */
type Answer = Dispatcher.ResponseData & { url: string; text?: string };

/** One request through its attempts: what every attempt shares. */
interface Exchange {
  req: Prepared;
  o: RequestOptions;
  streaming: boolean;
  policy: RetryPolicy;
  bucket: Bucket;
  /** The method and redacted URL, for trace and wait notices. */
  describe: string;
  /** An earlier attempt may have reached the server: a DELETE it did is then answered 404 by the retry. */
  reached: boolean;
  /** Throws what a stop between attempts means (see `reached`). */
  between: (err: unknown) => never;
}
