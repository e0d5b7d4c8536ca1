// Real databases for the tests of `sq results sync`: a PGlite (the Postgres engine in WebAssembly) behind its socket
// server on loopback, reached by sq through pg as a real server is; and SQLite files read back with the same engine
// sq writes them with on this Node.
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Database } from 'node-sqlite3-wasm';
import { afterAll, beforeAll } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { brotliDecompressSync } from 'node:zlib';
import { runtimeV8Flags } from '../../src/startup/v8-flags.js';
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
  // ~2 CPU-s from the kept data directory (initdb, which took over 120 s of wall on two loaded cores, is not run).
  beforeAll(async () => {
    // Postgres in WebAssembly under V8's baseline compiler only, as sq runs jq (bin/sq.js): V8 re-compiles the hot
    // parts of the 9 MB engine with TurboFan on background threads, which a test's few thousand rows never pay back
    // (4,000 rows in 40 upserts: 1.57-1.63 CPU-s with it, 0.27-0.28 without; the start 2.2 against 1.8). For this
    // file only: the worker runs other files after it (vitest.config.ts, isolate: false).
    setFlagsFromString('--liftoff-only');
    pg = await startPglite();
  }, SLOW.timeout);
  afterAll(async () => {
    await pg?.close();
    if (!runtimeV8Flags().includes('--liftoff-only')) setFlagsFromString('--no-liftoff-only');
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

/** The installed PGlite's version: the data directory it starts from was made by the same (scripts/pglite-datadir.mjs). */
function pgliteVersion(): string {
  const main = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return (JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * A new PGlite, started from the data directory PGlite's initdb made, kept in test/fixtures by
 * scripts/pglite-datadir.mjs for the installed version of PGlite: initdb is ~9 CPU-s in the wasm engine (10.6 with
 * the copy the run used to keep for other files), a start from the copy ~2 (decoding it 0.3 of them).
 */
async function newPglite(): Promise<PGlite> {
  const version = pgliteVersion();
  const name = `pglite-${version}-datadir.tar.br`;
  const file = fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
  if (!existsSync(file))
    throw new Error(
      `test/fixtures/${name} is missing: PGlite ${version} is installed, and the data directory npm test starts its ` +
        `Postgres from is made by the same version. Make it with \`node scripts/pglite-datadir.mjs\` (~40 s).`,
    );
  const tar = brotliDecompressSync(readFileSync(file));
  // PGlite reads loadDataDir with arrayBuffer() alone (and its type, for a gzipped one): the decoded tar as it is,
  // where a Blob of it is copied in and read back out in chunks (0.35-0.45 CPU-s more, measured twice).
  const bytes = tar.buffer.slice(tar.byteOffset, tar.byteOffset + tar.byteLength);
  const loadDataDir = { type: '', size: bytes.byteLength, arrayBuffer: async () => bytes } as unknown as Blob;
  // shared_buffers 16 MB instead of initdb's 128: the wasm engine zero-fills its shared memory at each start (~0.5
  // CPU-s of the start at 128 MB), and these tests write a few thousand rows.
  return PGlite.create({ loadDataDir, startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] });
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
