// Loopback servers and ports for tests that stand in for a remote end (webhook receivers, S3, a dead service).
import { createServer, type AddressInfo, type Server } from 'node:net';

/** Starts `server` on a free loopback port and gives its base URL, http://127.0.0.1:<port>. */
export async function listenLocal(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback port nothing listens on (bound, then closed): for a refused connection, or a port to hand out. */
export async function unusedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}
