// Loading undici, but only the parts sq uses. Its index costs ~200 ms on these machines; the Agent and request()
// cost ~20 ms, and less still without the HTTP/2 half (see deferHttp2). Every sq command pays this once.
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';

export type RequestFn = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
export interface Transport {
  Agent: new (o: object) => Dispatcher;
  request: RequestFn;
}

const require = createRequire(import.meta.url);
let loaded: Transport | undefined;

export async function loadTransport(): Promise<Transport> {
  if (loaded) return loaded;
  // undici parses HTTP with llhttp compiled to WebAssembly. V8 re-compiles it with TurboFan on background threads
  // and a short-lived process waits for them at exit (~50 ms on every sq call). The baseline compiler's code is
  // plenty for parsing response headers, so stay on it; set before undici compiles the module.
  (await import('node:v8')).setFlagsFromString('--liftoff-only');
  try {
    deferHttp2();
    loaded = {
      Agent: require('undici/lib/dispatcher/agent.js') as Transport['Agent'],
      request: require('undici/lib/api/api-request.js') as RequestFn,
    };
  } catch {
    // A future undici may move its files: fall back to the public entry point.
    const u = await import('undici');
    loaded = {
      Agent: u.Agent as unknown as Transport['Agent'],
      request: function (this: Dispatcher, o: Dispatcher.RequestOptions) {
        return this.request(o);
      } as RequestFn,
    };
  }
  return loaded;
}

/**
 * undici's client loads its HTTP/2 half at start-up, and with it node:http2, tls and crypto (~10 ms), though it
 * only runs when a server negotiates h2 over TLS, which an Agent without `allowH2` never offers. A stand-in in the
 * CommonJS cache loads the real module on first use instead.
 */
function deferHttp2(): void {
  let path: string;
  try {
    path = require.resolve('undici/lib/dispatcher/client-h2.js');
  } catch {
    return;
  }
  if (require.cache[path]) return;
  const Module = require('node:module') as new (id: string) => NodeJS.Module;
  const stub = new Module(path);
  stub.filename = path;
  stub.loaded = true;
  stub.exports = function connectH2(...args: unknown[]) {
    delete require.cache[path];
    return (require(path) as (...a: unknown[]) => unknown)(...args);
  };
  require.cache[path] = stub;
}
