// The HTTP/1.1 transport under src/api/http.ts: Node's own node:http (node:https for an https:// origin), with its
// native parser; loading undici cost a call more than the request itself (docs/startup.md).
//
// The shape is the part of undici's Agent and request() that http.ts uses, and its errors carry the codes the retry
// policy reads: a network error keeps Node's code (ECONNREFUSED, ECONNRESET…); the timeouts and a body cut short are
// named as undici named them (UND_ERR_CONNECT_TIMEOUT, UND_ERR_HEADERS_TIMEOUT, UND_ERR_BODY_TIMEOUT, UND_ERR_SOCKET).
import * as http from 'node:http';
import type { Agent as HttpAgent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Dispatcher } from 'undici';

export type RequestFn = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
interface Transport {
  Agent: new (o: object) => Dispatcher;
  request: RequestFn;
}

interface AgentOptions {
  connect?: { timeout?: number };
  headersTimeout?: number;
  bodyTimeout?: number;
  keepAliveTimeout?: number;
  maxHeaderSize?: number;
}

type Http = typeof import('node:http');

/** An error with a code, as Node's network errors are. */
function coded(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** Keep-alive connections per origin, with undici's three timeouts: connecting (TLS included), the response's
 * headers once the request is sent, and any pause in the body. */
class NodeAgent {
  private readonly agents = new Map<string, HttpAgent>();

  constructor(
    private readonly mods: { http: Http; https?: Http },
    readonly opts: AgentOptions,
  ) {}

  agentFor(protocol: string): { mod: Http; agent: HttpAgent } {
    // node:https (and TLS with it) only for an https:// origin. Not import(): in the bundle, an import() would start
    // Node's ES module loader for it.
    if (protocol === 'https:') this.mods.https ??= process.getBuiltinModule('node:https') as unknown as Http;
    const mod = protocol === 'https:' ? this.mods.https! : this.mods.http;
    let agent = this.agents.get(protocol);
    if (!agent) {
      agent = new mod.Agent({ keepAlive: true, keepAliveMsecs: this.opts.keepAliveTimeout ?? 10_000 });
      this.agents.set(protocol, agent);
    }
    return { mod, agent };
  }

  /** Ends every connection: the command is done with the API. */
  async close(): Promise<void> {
    for (const a of this.agents.values()) a.destroy();
    this.agents.clear();
  }
}

/** The response body as undici gives it: a stream that is also read whole with text(), or thrown away with dump(). */
type Body = IncomingMessage & { text(): Promise<string>; dump(): Promise<void> };

function request(this: NodeAgent, o: Dispatcher.RequestOptions & { url?: URL }): Promise<Dispatcher.ResponseData> {
  // src/api/http.ts hands over the URL it built (origin and path are read off it); undici's callers give those alone.
  const url = o.url ?? new URL(o.path, o.origin as string);
  const opts = this.opts;
  return new Promise<Dispatcher.ResponseData>((resolve, reject) => {
    const { mod, agent } = this.agentFor(url.protocol);
    const body = o.body as string | Buffer | undefined;
    let req: ClientRequest;
    try {
      req = mod.request(nodeOptions(url, o, body, agent, opts));
    } catch (err) {
      reject(err);
      return;
    }
    const timers = armTimeouts(req, url, opts);
    req.on('error', (err) => {
      timers.disarm();
      reject(err);
    });
    req.on('response', (res: IncomingMessage) => {
      timers.disarm();
      resolve({
        statusCode: res.statusCode ?? 0,
        headers: res.headers,
        body: bodyOf(res, opts),
      } as unknown as Dispatcher.ResponseData);
    });
    req.end(body ?? undefined);
  });
}

/** node:http's options for undici's: the same request, with its content-length. */
function nodeOptions(
  url: URL,
  o: Dispatcher.RequestOptions,
  body: string | Buffer | undefined,
  agent: HttpAgent,
  opts: AgentOptions,
): RequestOptions {
  const headers: Record<string, string> = { ...(o.headers as Record<string, string>) };
  if (body !== undefined && body !== null) headers['content-length'] = String(Buffer.byteLength(body));
  return {
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port || undefined,
    path: o.path,
    method: o.method,
    headers,
    agent,
    maxHeaderSize: opts.maxHeaderSize,
    signal: o.signal as AbortSignal | undefined,
  };
}

/**
 * Connecting (TLS included), then waiting for the headers once the request is sent: one timer each, as a
 * request may be sent (written into a socket still connecting) before the connection is up. disarm() stops both.
 */
function armTimeouts(req: ClientRequest, url: URL, opts: AgentOptions): { disarm(): void } {
  const timers: { connect?: NodeJS.Timeout; headers?: NodeJS.Timeout } = {};
  const arm = (which: 'connect' | 'headers', ms: number, code: string, message: string) => {
    clearTimeout(timers[which]);
    timers[which] = setTimeout(() => req.destroy(coded(code, message)), ms);
    timers[which].unref();
  };
  const disarm = (which: 'connect' | 'headers') => {
    clearTimeout(timers[which]);
    timers[which] = undefined;
  };
  req.on('socket', (socket) => {
    // A reused keep-alive connection is already up.
    if (!socket.connecting) return;
    arm('connect', opts.connect?.timeout ?? 10_000, 'UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error');
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => disarm('connect'));
  });
  req.on('finish', () =>
    arm('headers', opts.headersTimeout ?? 30_000, 'UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error'),
  );
  return {
    disarm() {
      disarm('connect');
      disarm('headers');
    },
  };
}

/** The response as undici's body: read whole with text(), or thrown away with dump(); idle at most bodyTimeout. */
function bodyOf(res: IncomingMessage, opts: AgentOptions): Body {
  // Between two reads of the body, at most bodyTimeout (the socket's idle timeout, given back with the socket).
  const socket = res.socket;
  const onIdle = () => res.destroy(coded('UND_ERR_BODY_TIMEOUT', 'Body Timeout Error'));
  socket?.setTimeout(opts.bodyTimeout ?? 60_000, onIdle);
  res.once('close', () => {
    socket?.setTimeout(0);
    socket?.off('timeout', onIdle);
  });
  const out = res as Body;
  out.text = () =>
    new Promise<string>((done, fail) => {
      if (res.errored) return fail(lostBody(res.errored));
      // Closed before the text was asked for, without an end or an error: the body was cut short, and an 'end'
      // that cannot come would hang the call.
      if (res.destroyed && !res.complete) return fail(coded('UND_ERR_SOCKET', 'other side closed'));
      // The bytes, decoded once at the end: the same text a StringDecoder gives chunk by chunk, at less cost.
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () =>
        done(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')),
      );
      res.once('error', (err) => fail(lostBody(err)));
      res.once('close', () => {
        if (!res.complete) fail(res.errored ? lostBody(res.errored) : coded('UND_ERR_SOCKET', 'other side closed'));
      });
    });
  // Read to its end and thrown away (a redirect's body, never the answer): the socket goes back to the pool.
  out.dump = () =>
    new Promise<void>((done) => {
      if (res.complete || res.destroyed) return done();
      res.resume();
      res.once('end', () => done());
      res.once('close', () => done());
      res.once('error', () => done());
    });
  return out;
}

/** Node's "aborted" (the server closed in the middle of the body) as undici named it. */
function lostBody(err: Error & { code?: string }): Error {
  return err.code === 'ECONNRESET' && err.message === 'aborted' ? coded('UND_ERR_SOCKET', 'other side closed') : err;
}

let loaded: Promise<Transport> | undefined;

export function loadTransport(): Promise<Transport> {
  loaded ??= Promise.resolve({
    Agent: class extends NodeAgent {
      constructor(o: AgentOptions) {
        super({ http }, o);
      }
    } as unknown as Transport['Agent'],
    request: request as unknown as RequestFn,
  });
  return loaded;
}
