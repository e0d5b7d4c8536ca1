// Loading undici, but only the parts sq uses: its Agent and request(). Its index costs ~200 ms on these machines.
// Every sq command that talks to the API pays this once, so the files are named here, where esbuild (see
// esbuild.config.mjs) can follow them into the bundle that bin/sq.js runs; the bundle also leaves out undici's
// HTTP/2 half and its other start-up costs until they are used.
import type { Dispatcher } from 'undici';

export type RequestFn = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
interface Transport {
  Agent: new (o: object) => Dispatcher;
  request: RequestFn;
}

let loaded: Promise<Transport> | undefined;

export function loadTransport(): Promise<Transport> {
  loaded ??= Promise.all([import('undici/lib/dispatcher/agent.js'), import('undici/lib/api/api-request.js')]).then(
    ([agent, request]) => ({ Agent: agent.default as unknown as Transport['Agent'], request: request.default as RequestFn }),
  );
  return loaded;
}
