// `sq mcp --http`: Streamable HTTP behind a Bearer token and an Origin check.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { UsageError } from '../errors.js';
import { importPackage } from '../import-package.js';
import { VERSION } from '../version.js';
import { DEFAULT_MAX_MESSAGE_BYTES, drain, type Shared } from './calls.js';
import { buildServer } from './register.js';
import { isLoopbackHost } from '../lib/loopback.js';

type SdkHttp = typeof import('./sdk-http.js');

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
  const host = opts.http!.host;
  // The HTTP transport is a module of its own (sdk-http.ts): a stdio server never loads it.
  const { StreamableHTTPServerTransport } = await importPackage<SdkHttp>('#mcp-sdk-http');
  const sessions = new Map<string, InstanceType<SdkHttp['StreamableHTTPServerTransport']>>();
  const servers = new Set<{ close(): Promise<void> }>();
  let origins: string[] = [];
  const fail = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const auth = Buffer.from(String(req.headers.authorization ?? ''));
    if (auth.length !== want.length || !timingSafeEqual(auth, want)) return fail(res, 401, 'Unauthorized: send Authorization: Bearer <the token sq mcp --http printed>', { 'www-authenticate': 'Bearer' });
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.includes(origin)) return fail(res, 403, `Forbidden: Origin ${origin} is not this server's`);
    // The SDK reads a body whole: its size is known first (a POST without Content-Length, chunked, is 411).
    if (req.method === 'POST' && req.headers['content-length'] === undefined) return fail(res, 411, 'Length Required: send the message with a Content-Length');
    if (Number(req.headers['content-length'] ?? 0) > max) return fail(res, 413, `the message is over ${max} bytes (sq mcp --max-message-bytes)`);
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (!transport) {
      if (sid !== undefined) return fail(res, 404, 'Session not found: initialize a new one');
      if (req.method !== 'POST') return fail(res, 400, 'Bad Request: no session; POST an initialize request first');
      const t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id: string) => void sessions.set(id, t) });
      t.onclose = () => {
        if (t.sessionId) sessions.delete(t.sessionId);
      };
      const server = buildServer(s);
      servers.add(server);
      await server.connect(t);
      transport = t;
    }
    await transport.handleRequest(req, res);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      ctx.io.stderr.write(`sq mcp: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
      if (!res.headersSent) fail(res, 500, 'Internal error');
      else res.end();
    });
  });
  await new Promise<void>((done, reject) => {
    http.once('error', (e: NodeJS.ErrnoException) => reject(new UsageError(`--http: cannot listen on ${host}:${opts.http!.port} (${e.code ?? e.message})`)));
    http.listen(opts.http!.port, host, () => done());
  });
  const port = (http.address() as { port: number }).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  origins = [`http://${shown}:${port}`, ...(isLoopbackHost(host) ? [`http://localhost:${port}`, `http://127.0.0.1:${port}`] : [])];
  const url = `http://${shown}:${port}/mcp`;
  // A token sq made is printed for the client; one the caller gave (--token-env) is theirs already, and this line goes
  // to CI and agent logs: it is not repeated.
  out.write(`${JSON.stringify({ url, token: opts.token === undefined ? token : null })}\n`);
  if (!isLoopbackHost(host)) ctx.io.stderr.write(`warning: sq mcp listens on ${host}, not loopback: anyone who reaches it with the token acts on the account${s.opts.allow && 'level' in s.opts.allow && s.opts.allow.level === 'read' ? '' : ' and may spend its credits'}\n`);
  if (!ctx.globals.quiet) ctx.io.stderr.write(`sq mcp ${VERSION}: serving ${served} on ${url}\n`);
  await new Promise<void>((done) => ctx.signal.addEventListener('abort', () => done(), { once: true }));
  s.stopCalls.abort();
  await drain(s);
  await Promise.allSettled([...servers].map((x) => x.close()));
  http.closeAllConnections();
  await new Promise((done) => http.close(() => done(null)));
  throw ctx.signal.reason;
}
