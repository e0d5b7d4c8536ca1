// Real databases for the tests of `sq results sync`: a PGlite (the Postgres engine in WebAssembly) behind its socket
// server on loopback, reached by sq through pg as a real server is; and SQLite files read back with the same engine
// sq writes them with on this Node.
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Database } from 'node-sqlite3-wasm';
import { afterAll, beforeAll } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGLITE_DATADIR_NAME } from '../setup/temp-dirs.js';
import { waitFor } from './wait.js';
import { SLOW } from './timeouts.js';

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
  // initdb is ~8 s of CPU: with other files' processes on two loaded cores (load 20) 120 s was not always enough.
  beforeAll(async () => {
    pg = await startPglite();
  }, SLOW.timeout + 60_000);
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

/**
 * A new PGlite, from the data directory of a new one kept for the run in its directory (PGLITE_DATADIR_NAME):
 * PGlite.create() runs initdb, ~8 s of CPU, and a database loaded from that copy starts in ~2 s. One file makes it
 * (its marker file is created with O_EXCL); a file starting meanwhile waits for it rather than run initdb beside it:
 * three at once on two loaded cores outlasted the hook's timeout.
 */
async function newPglite(): Promise<PGlite> {
  const run = process.env.SQ_TEST_RUN_DIR;
  if (!run) return PGlite.create();
  const file = join(run, PGLITE_DATADIR_NAME);
  const marker = `${file}.making`;
  const load = async () => {
    const saved = await readFile(file).catch(() => null);
    return saved ? PGlite.create({ loadDataDir: new Blob([saved]) }) : null;
  };
  const made = await load();
  if (made) return made;
  const mine = await writeFile(marker, '', { flag: 'wx' }).then(
    () => true,
    () => false,
  );
  if (!mine) {
    // Until the maker has renamed the copy into place and removed its marker (or failed): then from the copy, if any.
    await waitFor(
      () => existsSync(marker),
      (making) => !making,
      'the PGlite data directory another test file makes',
      SLOW.timeout,
    ).catch(() => undefined);
    return (await load()) ?? PGlite.create();
  }
  try {
    const db = await PGlite.create();
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
    await rename(temp, file);
    return db;
  } finally {
    await unlink(marker).catch(() => undefined);
  }
}

export async function startPglite(): Promise<TestPostgres> {
  const db = await newPglite();
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  return {
    port,
    url: (password) =>
      `postgres://postgres${password ? `:${encodeURIComponent(password)}` : ''}@127.0.0.1:${port}/postgres`,
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
