// `sq mcp --http`: Streamable HTTP behind a Bearer token and an Origin check.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { UsageError } from '../errors.js';
import { importPackage } from '../import-package.js';
import { VERSION } from '../version.js';
import { DEFAULT_MAX_MESSAGE_BYTES, drain, type Shared } from './calls.js';
import { buildServer } from './register.js';
import { isLoopbackHost } from '../lib/loopback.js';

type SdkHttp = typeof import('./sdk-http.js');

/** Sessions kept at once: past it, the one used longest ago is closed (sessions never freed grew the server without bound). */
export const MAX_SESSIONS = 64;
/** A session unused this long is closed. */
const SESSION_IDLE_MS = 30 * 60_000;

/** Why a request is refused before any session sees it (token, Origin, size), as fail()'s arguments; null if it may pass. */
function gate(
  req: IncomingMessage,
  want: Buffer,
  origins: string[],
  max: number,
): [number, string, Record<string, string>?] | null {
  const auth = Buffer.from(String(req.headers.authorization ?? ''));
  if (auth.length !== want.length || !timingSafeEqual(auth, want)) {
    return [
      401,
      'Unauthorized: send Authorization: Bearer <the token sq mcp --http printed>',
      { 'www-authenticate': 'Bearer' },
    ];
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.includes(origin))
    return [403, `Forbidden: Origin ${origin} is not this server's`];
  // The SDK reads a body whole: its size is known first (a POST without Content-Length, chunked, is 411).
  if (req.method === 'POST' && req.headers['content-length'] === undefined) {
    return [411, 'Length Required: send the message with a Content-Length'];
  }
  if (Number(req.headers['content-length'] ?? 0) > max)
    return [413, `the message is over ${max} bytes (sq mcp --max-message-bytes)`];
  return null;
}

/**
 * --http HOST:PORT: MCP's Streamable HTTP transport (the SDK's), one session per client. Every request needs the
 * Bearer token (401 without it); a browser page of another origin is refused (403: DNS rebinding); a body over
 * --max-message-bytes is 413. The first line on stdout is {"url", "token"} (token null when --token-env gave it).
 */
export async function serveHttp(s: Shared, out: Writable, served: string): Promise<void> {
  const { ctx, opts } = s;
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const want = Buffer.from(`Bearer ${token}`);
  const max = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  // The HTTP transport is a module of its own (sdk-http.ts): a stdio server never loads it.
  const { StreamableHTTPServerTransport } = await importPackage<SdkHttp>('#mcp-sdk-http');
  type Session = {
    transport: InstanceType<SdkHttp['StreamableHTTPServerTransport']>;
    server: ReturnType<typeof buildServer>;
    seen: number;
  };
  const sessions = new Map<string, Session>();
  const servers = new Set<ReturnType<typeof buildServer>>();
  let origins: string[] = [];
  const fail = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = gate(req, want, origins, max);
    if (refused) return fail(res, ...refused);
    const sid = req.headers['mcp-session-id'];
    const known = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (known) {
      // Most recently used last: the cap evicts from the front.
      sessions.delete(sid as string);
      sessions.set(sid as string, { ...known, seen: Date.now() });
      return known.transport.handleRequest(req, res);
    }
    if (sid !== undefined) return fail(res, 404, 'Session not found: initialize a new one');
    if (req.method !== 'POST') return fail(res, 400, 'Bad Request: no session; POST an initialize request first');
    const server = buildServer(s);
    const t = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id: string) => {
        sessions.set(id, { transport: t, server, seen: Date.now() });
        // Past the cap, the session used longest ago goes (its client's next request is 404: it initializes again).
        if (sessions.size > MAX_SESSIONS) void end(sessions.keys().next().value as string);
      },
    });
    servers.add(server);
    server.server.onclose = () => {
      servers.delete(server);
      if (t.sessionId) sessions.delete(t.sessionId);
    };
    await server.connect(t);
    await t.handleRequest(req, res);
    // A request that opened no session (not an initialize, or a bad one) leaves nothing behind.
    if (t.sessionId === undefined || !sessions.has(t.sessionId)) await server.close();
  };
  // A session's transport and server, closed and dropped (on DELETE the SDK closes them itself).
  const end = async (id: string) => {
    const x = sessions.get(id);
    sessions.delete(id);
    await x?.server.close().catch(() => undefined);
  };
  const sweep = sweepIdle(sessions, end);
  const http = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      ctx.io.stderr.write(`sq mcp: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
      if (!res.headersSent) fail(res, 500, 'Internal error');
      else res.end();
    });
  });
  origins = await listen(http, s, out, token, served);
  await new Promise<void>((done) => ctx.signal.addEventListener('abort', () => done(), { once: true }));
  clearInterval(sweep);
  s.stopCalls.abort();
  await drain(s);
  await Promise.allSettled([...servers].map((x) => x.close()));
  http.closeAllConnections();
  await new Promise((done) => http.close(() => done(null)));
  throw ctx.signal.reason;
}

/** Listens on --http, prints the URL (and a token sq made) on `out`, and gives the origins a browser may send. */
async function listen(http: Server, s: Shared, out: Writable, token: string, served: string): Promise<string[]> {
  const { ctx, opts } = s;
  const host = opts.http!.host;
  await new Promise<void>((done, reject) => {
    http.once('error', (e: NodeJS.ErrnoException) =>
      reject(new UsageError(`--http: cannot listen on ${host}:${opts.http!.port} (${e.code ?? e.message})`)),
    );
    http.listen(opts.http!.port, host, () => done());
  });
  const port = (http.address() as { port: number }).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  const origins = [
    `http://${shown}:${port}`,
    ...(isLoopbackHost(host) ? [`http://localhost:${port}`, `http://127.0.0.1:${port}`] : []),
  ];
  const url = `http://${shown}:${port}/mcp`;
  // A token sq made is printed for the client; one the caller gave (--token-env) is theirs already, and this line goes
  // to CI and agent logs: it is not repeated.
  out.write(`${JSON.stringify({ url, token: opts.token === undefined ? token : null })}\n`);
  if (!isLoopbackHost(host))
    ctx.io.stderr.write(
      `warning: sq mcp listens on ${host}, not loopback: anyone who reaches it with the token acts ` +
        `on the account${s.opts.allow && 'level' in s.opts.allow && s.opts.allow.level === 'read' ? '' : ' and may spend its credits'}\n`,
    );
  if (!ctx.globals.quiet) ctx.io.stderr.write(`sq mcp ${VERSION}: serving ${served} on ${url}\n`);
  return origins;
}

/** Sessions nobody used for SESSION_IDLE_MS go: a client that vanished without a DELETE holds nothing for long. */
function sweepIdle(sessions: Map<string, { seen: number }>, end: (id: string) => Promise<void>): NodeJS.Timeout {
  const sweep = setInterval(
    () => {
      const before = Date.now() - SESSION_IDLE_MS;
      for (const [id, x] of sessions) if (x.seen < before) void end(id);
    },
    Math.min(SESSION_IDLE_MS, 60_000),
  );
  sweep.unref();
  return sweep;
}
