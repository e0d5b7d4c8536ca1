// The HTTP front: fault injection, rate limits, auth, routing, request log, and the odd ways a
// response can be broken on purpose. No framework: node:http and our tiny router.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmuCore } from './emu.js';
import {
  defaultErrorBody,
  type Faults,
  type FaultRule,
  htmlPage,
  omitFields,
  shortPage,
  withEnvelope,
} from './faults.js';
import { boundaryOf, parseMultipart } from './multipart.js';
import { type RateLimiter, rateLimitBody } from './ratelimit.js';
import { maskHeaders, maskQuery, type RequestLog } from './requestlog.js';
import { maskDeep } from '../lib/secrets.js';
import type { EmuRequest, EmuResponse } from './types.js';
import { sleep } from '../lib/sleep.js';
import * as store from './model/store.js';

interface ServerDeps {
  emu: EmuCore;
  limiter: RateLimiter;
  faults: Faults;
  log: RequestLog;
}

/** The API's paths (behind the key and the rate limit, logged): /v1, and the v2 add-task form of the examples/ pages. */
const isApiPath = (path: string): boolean => path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v2/');
/** Routes that need no key (the docs name only this one). */
const PUBLIC_PATTERNS = new Set(['/v1/crawlers/:hash/attributes']);

type BrokenMode = 'reset_mid_body' | 'truncate' | 'malformed' | 'short_page' | 'envelope' | 'omit_fields';

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function presentedKey(req: IncomingMessage): string | undefined {
  const h = req.headers['authorization'];
  const m = typeof h === 'string' ? /^Token\s+(\S+)\s*$/i.exec(h) : null;
  return m ? m[1] : undefined;
}

function serialise(r: EmuResponse): { payload: Buffer; type: string | undefined } {
  if (r.raw !== undefined) return { payload: Buffer.isBuffer(r.raw) ? r.raw : Buffer.from(r.raw), type: undefined };
  if (r.body === undefined) return { payload: Buffer.alloc(0), type: undefined };
  return { payload: Buffer.from(JSON.stringify(r.body)), type: 'application/json' };
}

function write(res: ServerResponse, r: EmuResponse, extra: Record<string, string>, mode?: BrokenMode): void {
  let { payload, type } = serialise(r);
  let status = r.status;
  const headers: Record<string, string> = { ...extra, ...(r.headers ?? {}) };
  if (type && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['Content-Type'] = type;
  if (mode === 'malformed') {
    status = 200;
    // Cut the JSON and add junk so no parser accepts it, whatever the original body was.
    payload = Buffer.concat([payload.subarray(0, Math.floor(payload.length / 2)), Buffer.from('\u0000}{"')]);
    headers['Content-Type'] = 'application/json';
  }
  headers['Content-Length'] = String(payload.length);
  res.writeHead(status, headers);
  if (mode === 'reset_mid_body' || mode === 'truncate') {
    const half = payload.subarray(0, Math.max(1, Math.floor(payload.length / 2)));
    res.write(half, () => {
      const sock = res.socket;
      if (!sock) return;
      if (mode === 'truncate') sock.end();
      else if (typeof sock.resetAndDestroy === 'function') sock.resetAndDestroy();
      else sock.destroy();
    });
    return;
  }
  res.end(payload);
}

function parseRequest(req: IncomingMessage, url: URL, raw: Buffer): EmuRequest | EmuResponse {
  const headers = req.headers as Record<string, string | string[] | undefined>;
  const out: EmuRequest = {
    method: (req.method ?? 'GET').toUpperCase(),
    path: url.pathname,
    params: {},
    query: url.searchParams,
    headers,
    body: undefined,
    files: {},
    rawBody: raw,
  };
  const ctype = String(headers['content-type'] ?? '');
  const boundary = boundaryOf(ctype);
  if (boundary) {
    const mp = parseMultipart(raw, boundary);
    out.body = mp.fields;
    out.files = mp.files;
  } else if (raw.length > 0 && /json/i.test(ctype)) {
    // Strict like the live API: only a body sent as application/json is read as JSON; any other body reaches the
    // handler as no body at all, so its required fields are missing.
    try {
      out.body = JSON.parse(raw.toString('utf8'));
    } catch {
      // Not V8's message: it quotes the body around the error, which may hold a secret.
      return { status: 400, body: { detail: 'JSON parse error - the body is not valid JSON' } };
    }
  }
  return out;
}

export function createRequestHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void answer(deps, req, res).catch(() => {
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ detail: 'A server error occurred.' }));
      } else res.destroy();
    });
  };
}

/** One request: its fault rule (if any) applied, then dispatched to its route, logged and answered. */
async function answer(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator.local');
  const path = url.pathname;
  const method = (req.method ?? 'GET').toUpperCase();
  const isV1 = isApiPath(path);
  const logged = isV1 || path.startsWith('/_emulator/files/');
  let body: unknown;
  const record = (status: number): void => {
    if (!logged) return;
    deps.log.add({
      at: new Date().toISOString(),
      method,
      path,
      query: maskQuery(url.searchParams),
      status,
      headers: maskHeaders(req.headers as Record<string, string | string[] | undefined>),
      body: maskDeep(body, '****'),
    });
  };

  const fault: FaultRule | undefined = isV1 ? deps.faults.pick(method, path) : undefined;
  const before = fault ? await faultBefore(fault, req, res, record) : {};
  if (before === 'answered') return;
  const { mode } = before;

  const raw = await readBody(req);
  const parsed = parseRequest(req, url, raw);
  let response: EmuResponse;
  let extra: Record<string, string> = {};
  if ('status' in parsed) {
    response = parsed;
  } else {
    body = parsed.body;
    ({ response, extra } = await dispatch(deps, req, parsed, method, path));
  }
  if (fault?.action === 'status' && fault.after) {
    const status = fault.status ?? 500;
    response = {
      status,
      body: fault.body !== undefined ? fault.body : defaultErrorBody(status),
      headers: fault.headers ?? {},
    };
  }
  if (mode === 'short_page') response = shortPage(response);
  if (mode === 'envelope') response = withEnvelope(response, fault?.body);
  if (mode === 'omit_fields') response = omitFields(response, fault?.fields ?? []);
  if (mode === 'omit_fields') response = omitFields(response, fault?.fields ?? []);
  record(response.status);
  if (res.destroyed) return;
  write(res, response, extra, mode);
}

/**
 * What a fault rule does before the request is read: 'answered' when the rule answers it (a reset, a hang, an error
 * status or an HTML page); otherwise the broken mode the answer is given, if any (after a delay, if the rule says so).
 */
async function faultBefore(
  fault: FaultRule,
  req: IncomingMessage,
  res: ServerResponse,
  record: (status: number) => void,
): Promise<'answered' | { mode?: BrokenMode }> {
  switch (fault.action) {
    case 'reset':
      record(0);
      if (typeof req.socket.resetAndDestroy === 'function') req.socket.resetAndDestroy();
      else req.socket.destroy();
      return 'answered';
    case 'hang':
      // Never answer: the socket stays open until the client gives up (or the emulator closes).
      record(0);
      return 'answered';
    case 'status': {
      if (fault.after) return {};
      const status = fault.status ?? 500;
      // The documented 429 (default body) comes with Retry-After; a rule with its own body, such as the DRF
      // throttle shape that states the wait only in its text, sends exactly the headers it lists.
      const defaults: Record<string, string> = status === 429 && fault.body === undefined ? { 'Retry-After': '1' } : {};
      const headers = { ...defaults, ...(fault.headers ?? {}) };
      record(status);
      write(res, { status, body: fault.body !== undefined ? fault.body : defaultErrorBody(status), headers }, {});
      return 'answered';
    }
    case 'html': {
      const status = fault.status ?? 502;
      record(status);
      write(
        res,
        { status, raw: htmlPage(status), headers: { 'Content-Type': 'text/html', ...(fault.headers ?? {}) } },
        {},
      );
      return 'answered';
    }
    case 'delay':
      await sleep(fault.ms ?? 1000);
      return {};
    default:
      return { mode: fault.action };
  }
}

/** The route's answer, behind the rate limit (its headers in `extra`) and the API key, as on the live service. */
async function dispatch(
  deps: ServerDeps,
  req: IncomingMessage,
  er: EmuRequest,
  method: string,
  path: string,
): Promise<{ response: EmuResponse; extra: Record<string, string> }> {
  const { limiter } = deps;
  const isV1 = isApiPath(path);
  const key = presentedKey(req);
  let extra: Record<string, string> = {};
  if (isV1) {
    const decision = limiter.check(key ?? `anon:${req.socket.remoteAddress ?? ''}`, path);
    extra = decision.headers;
    if (!decision.allowed) {
      const response = {
        status: 429,
        body: rateLimitBody(decision.retryAfterS, decision.documented),
        headers: { 'Retry-After': String(decision.retryAfterS) },
      };
      return { response, extra };
    }
  }
  return { response: await routed(deps, req, er, method, path, key), extra };
}

/** The route's handler, once the route and (for the API) the key are found. */
async function routed(
  deps: ServerDeps,
  req: IncomingMessage,
  er: EmuRequest,
  method: string,
  path: string,
  key: string | undefined,
): Promise<EmuResponse> {
  const { emu } = deps;
  const isV1 = isApiPath(path);
  // HEAD is GET without the body, as on the live (Django) service; Node drops the body of a HEAD answer.
  const match = emu.router.match(method === 'HEAD' ? 'GET' : method, path);
  if (!match) {
    const allow = emu.router.allowed(path);
    if (allow.length)
      return { status: 405, headers: { Allow: allow.join(', ') }, body: { detail: `Method "${method}" not allowed.` } };
    return { status: 404, body: { detail: 'Not found.' } };
  }
  if (isV1 && !PUBLIC_PATTERNS.has(match.pattern)) {
    if (!req.headers['authorization'] || key === undefined)
      return { status: 401, body: { detail: 'Authentication credentials were not provided.' } };
    if (key !== store.token(emu)) return { status: 401, body: { detail: 'Invalid token.' } };
  }
  er.params = match.params;
  try {
    return await match.handler(er);
  } catch (e) {
    return { status: 500, body: { detail: 'A server error occurred.', error: (e as Error).message } };
  }
}
