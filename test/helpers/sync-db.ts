// Real databases for the tests of `sq results sync`: a PGlite (the Postgres engine in WebAssembly) behind its socket
// server on loopback, reached by sq through pg as a real server is; and SQLite files read back with the same engine
// sq writes them with on this Node.
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Database } from 'node-sqlite3-wasm';
import { afterAll, beforeAll } from 'vitest';

export interface TestPostgres {
  /** postgres://… for --to (any password is accepted: PGlite checks none). */
  url(password?: string): string;
  port: number;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** A PGlite server for the test file: started before its tests, closed after them; its methods reach the live one. */
export function usePglite(): TestPostgres {
  let pg: TestPostgres | undefined;
  beforeAll(async () => {
    pg = await startPglite();
  }, 120_000);
  afterAll(async () => {
    await pg?.close();
  });
  const live = () => {
    if (!pg) throw new Error('PGlite is not started yet (usePglite starts it before the tests)');
    return pg;
  };
  return {
    url: (password) => live().url(password),
    get port() {
      return live().port;
    },
    query: (sql, params) => live().query(sql, params),
    close: async () => undefined,
  };
}

export async function startPglite(): Promise<TestPostgres> {
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  return {
    port,
    url: (password) => `postgres://postgres${password ? `:${encodeURIComponent(password)}` : ''}@127.0.0.1:${port}/postgres`,
    query: async (sql, params) => (await db.query(sql, params)).rows as never,
    close: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/** The rows of a query on a SQLite file (opened and closed for each call, as another reader would). */
export function sqliteQuery<T = Record<string, unknown>>(path: string, sql: string, params: unknown[] = []): T[] {
  const db = new Database(path);
  try {
    // sq writes these files in WAL mode on this package (src/sync/sqlite.ts), which reads them only with exclusive
    // locking (it has no shared memory for the log's index).
    db.all('PRAGMA locking_mode = EXCLUSIVE');
    return db.all(sql, params as never) as T[];
  } finally {
    db.close();
  }
}
