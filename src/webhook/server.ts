// The local webhook receiver behind `sq webhook listen`: validates each POST, hands valid events to the caller,
// optionally forwards the original body, and always answers quickly (the service gives a receiver 30 s).
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { validatePayload, type WebhookEvent, type WebhookPayload } from './payload.js';

const MAX_BODY_BYTES = 1024 * 1024;
const FORWARD_TIMEOUT_MS = 30_000;

interface ListenerOptions {
  host: string;
  port: number;
  /** Only POSTs to this path are accepted (default "/"). */
  path: string;
  /** Events to report and forward; the others are acknowledged and dropped. */
  events: ReadonlySet<WebhookEvent>;
  forwardTo?: URL;
  onEvent(payload: WebhookPayload): void;
  /** A refused request: why, who sent it, and the status it was answered (400, or 413 for a body over 1 MiB). */
  onInvalid(reason: string, from: string, status: number): void;
  onForwardError(message: string, payload: WebhookPayload): void;
  forwardTimeoutMs?: number;
}

interface Listener {
  url: string;
  port: number;
  close(): Promise<void>;
}

function answer(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A plain relay to the user's own endpoint, not the API client: no auth, no pacing, no retries (a retry would deliver
 * an event twice). The failure it resolves to does not quote the URL. */
function forward(target: URL, body: Buffer, contentType: string, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const lib = target.protocol === 'https:' ? https : http;
    const req = lib.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': contentType, 'content-length': body.length, 'user-agent': 'sq-webhook-listen' },
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        const s = res.statusCode ?? 0;
        res.on('end', () => resolve(s >= 200 && s < 300 ? null : `answered HTTP ${s}`));
        res.on('error', (e) => resolve(e.message));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)));
    req.on('error', (e: NodeJS.ErrnoException) =>
      resolve(e.code === 'ECONNREFUSED' ? 'connection refused' : e.message),
    );
    req.end(body);
  });
}

export async function startListener(o: ListenerOptions): Promise<Listener> {
  const pending = new Set<Promise<unknown>>();
  const server = http.createServer((req, res) => {
    const from = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`;
    const path = (req.url ?? '/').split('?')[0];
    if (path !== o.path) {
      req.resume();
      return answer(res, 404, { error: `not found: events are received on ${o.path}` });
    }
    if (req.method !== 'POST') {
      req.resume();
      return answer(res, 405, { error: 'only POST is accepted' }, { allow: 'POST' });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () => {
      if (tooBig) {
        o.onInvalid(`body larger than ${MAX_BODY_BYTES} bytes`, from, 413);
        return answer(res, 413, { error: `body larger than ${MAX_BODY_BYTES} bytes` });
      }
      const raw = Buffer.concat(chunks);
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        o.onInvalid('the body is not valid JSON', from, 400);
        return answer(res, 400, { error: 'the body is not valid JSON' });
      }
      const v = validatePayload(parsed);
      if (!v.ok) {
        o.onInvalid(v.reason, from, 400);
        return answer(res, 400, { error: v.reason });
      }
      // Unsubscribed events are still acknowledged: a non-2xx answer would make the service retry them.
      if (!o.events.has(v.payload.event)) return answer(res, 200, { ok: true, ignored: true });
      o.onEvent(v.payload);
      answer(res, 200, { ok: true });
      if (o.forwardTo) {
        const p = forward(
          o.forwardTo,
          raw,
          String(req.headers['content-type'] ?? 'application/json'),
          o.forwardTimeoutMs ?? FORWARD_TIMEOUT_MS,
        ).then((err) => {
          if (err) o.onForwardError(err, v.payload);
        });
        pending.add(p);
        void p.finally(() => pending.delete(p));
      }
    });
    req.on('error', () => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${port}${o.path === '/' ? '' : o.path}`,
    port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Let forwards already under way finish, so an event printed as received also reached --forward-to.
      await Promise.allSettled([...pending]);
      server.closeAllConnections();
      await closed;
    },
  };
}
