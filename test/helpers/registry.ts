// A fake npm registry on loopback for the update check (SQ_UPDATE_URL): it answers GET /lobstr-sq/latest with the
// version the test sets, or never answers (hang), and counts the requests it got.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { listenLocal } from './net.js';

export interface FakeRegistry {
  url: string;
  /** The version `latest` says; 'hang' leaves every request unanswered until close(). */
  latest: string | 'hang';
  requests: number;
  close(): Promise<void>;
}

export async function fakeRegistry(latest: string | 'hang'): Promise<FakeRegistry> {
  const hanging: ServerResponse[] = [];
  const reg: FakeRegistry = { url: '', latest, requests: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    reg.requests++;
    if (reg.latest === 'hang') {
      hanging.push(res);
      return;
    }
    if (req.url !== '/lobstr-sq/latest') {
      res.writeHead(404).end('{}');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ name: 'lobstr-sq', version: reg.latest }));
  });
  reg.url = await listenLocal(server as unknown as import('node:net').Server);
  reg.close = async () => {
    for (const r of hanging) r.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return reg;
}
