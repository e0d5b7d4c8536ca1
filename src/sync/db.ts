// The two databases behind one small interface. SQL is written with `?` placeholders; the Postgres side numbers
// them. Each engine's package is loaded only when a sync opens it (importPackage), never at start-up.
import type { Rec } from '../lib/guards.js';
import type { Dialect } from './schema.js';

export interface SyncDb {
  readonly dialect: Dialect;
  /** Which database, for messages: the path, or postgres://user:********@host:port/db. */
  readonly shown: string;
  /** Which engine serves it ("node:sqlite", "node-sqlite3-wasm", "pg"). */
  readonly engine: string;
  query(sql: string, params?: readonly unknown[]): Promise<Rec[]>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** `fn` inside BEGIN … COMMIT, rolled back if it throws. */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** The table's columns and their declared types; null when there is no such table. */
  tableColumns(table: string): Promise<Map<string, string> | null>;
  close(): Promise<void>;
}

/** A database that takes its statements one at a time (both engines here): BEGIN/COMMIT around `fn`. */
export async function inTransaction<T>(db: Pick<SyncDb, 'run'>, fn: () => Promise<T>, begin = 'BEGIN'): Promise<T> {
  await db.run(begin);
  let result: T;
  try {
    result = await fn();
  } catch (err) {
    try {
      await db.run('ROLLBACK');
    } catch {
      // the connection may be gone; the server rolls back an open transaction of a closed connection itself
    }
    throw err;
  }
  await db.run('COMMIT');
  return result;
}
