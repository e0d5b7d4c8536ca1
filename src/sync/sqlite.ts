// SQLite for `sq results sync --to sqlite:PATH`: Node's built-in node:sqlite where this Node has it (22.13+, 24),
// else node-sqlite3-wasm (SQLite compiled to WebAssembly, writing the real file through Node's fs: no compiler,
// no native build, so it installs on any Node sq supports). Both are synchronous; the interface is not.
import { importPackage, hasPackage } from '../import-package.js';
import { rmSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { lockExport } from '../lib/lock.js';
import type { Rec } from '../lib/guards.js';
import { inTransaction, type SyncDb } from './db.js';
import { setV8Flag } from '../startup/v8-flags.js';

export const SQLITE_PACKAGE = 'node-sqlite3-wasm';

interface Engine {
  name: string;
  all(sql: string, params: unknown[]): Rec[];
  run(sql: string, params: unknown[]): number;
  close(): void;
}

interface NodeSqlite {
  DatabaseSync: new (
    path: string,
  ) => {
    prepare(sql: string): { all(...p: unknown[]): Rec[]; run(...p: unknown[]): { changes: number | bigint } };
    exec(sql: string): void;
    close(): void;
  };
}

/** node:sqlite when this Node has it without a flag; its one-time ExperimentalWarning is not shown. */
function builtinSqlite(): NodeSqlite | undefined {
  const emit = process.emitWarning;
  process.emitWarning = ((w: string | Error, ...rest: unknown[]) => {
    if (!/SQLite/i.test(String(typeof w === 'string' ? w : w.message)))
      (emit as (...a: unknown[]) => void).call(process, w, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emit;
  }
}

/** Which SQLite engine this Node would use, without loading the package (sq doctor, --dry-run). */
export function sqliteEngine(): string | null {
  if (!process.env.SQ_SQLITE_NO_BUILTIN && builtinSqlite()) return 'node:sqlite';
  return hasPackage(SQLITE_PACKAGE) ? SQLITE_PACKAGE : null;
}

/** A Node without node:sqlite, and an sq installed without its node-sqlite3-wasm: exit 2, naming what is needed. */
export function noSqlite(): UsageError {
  return new UsageError(
    `--to sqlite:…: this Node (${process.version}) has no built-in node:sqlite (Node 22.13 or later has) and the ${SQLITE_PACKAGE} package ` +
      `is not installed beside sq: upgrade Node, or npm install --global ${SQLITE_PACKAGE} (as sq was installed)`,
  );
}

async function engineFor(path: string): Promise<Engine> {
  const builtin = process.env.SQ_SQLITE_NO_BUILTIN ? undefined : builtinSqlite();
  return builtin ? builtinEngine(builtin, path) : wasmEngine(path);
}

function builtinEngine(builtin: NodeSqlite, path: string): Engine {
  const db = new builtin.DatabaseSync(path);
  const stmt = cached((sql) => db.prepare(sql));
  return {
    name: 'node:sqlite',
    all: (sql, p) => stmt(sql).all(...p),
    run: (sql, p) => (p.length ? Number(stmt(sql).run(...p).changes) : (db.exec(sql), 0)),
    close: () => db.close(),
  };
}

async function wasmEngine(path: string): Promise<Engine> {
  if (!hasPackage(SQLITE_PACKAGE)) throw noSqlite();
  // SQLite is WebAssembly here: V8 re-compiles its hot functions with TurboFan on background threads, as it does jq's
  // (bin/sq.js), and a sync rarely runs long enough to pay that back (docs/performance.md: a 1,000-row sync 1.2-1.3
  // CPU-s with it, 0.7 without; even near 120,000 rows in one process). Set before the module compiles.
  setV8Flag('--liftoff-only');
  type Mod = { Database?: new (p: string) => WasmDb; default?: { Database: new (p: string) => WasmDb } };
  const mod = await importPackage<Mod>(SQLITE_PACKAGE);
  // A CommonJS package: its exports come as the default export (and, where Node finds them, as names).
  const Database = mod.Database ?? mod.default!.Database;
  const db = new Database(path);
  const stmts = new Map<string, WasmStatement>();
  const stmt = cached((sql) => {
    const s = db.prepare(sql);
    stmts.set(sql, s);
    return s;
  });
  return {
    name: SQLITE_PACKAGE,
    all: (sql, p) => stmt(sql).all(p) as Rec[],
    run: (sql, p) => (p.length ? stmt(sql).run(p).changes : (db.exec(sql), 0)),
    close: () => {
      // Its statements live in WebAssembly memory: finalized by hand before the database closes.
      for (const s of stmts.values()) s.finalize();
      db.close();
    },
  };
}

interface WasmStatement {
  all(values?: unknown[]): unknown[];
  run(values?: unknown[]): { changes: number };
  finalize(): void;
}

interface WasmDb {
  prepare(sql: string): WasmStatement;
  exec(sql: string): void;
  close(): void;
}

/** Each statement prepared once (a page runs the same INSERT a hundred times). */
function cached<S>(prepare: (sql: string) => S): (sql: string) => S {
  const map = new Map<string, S>();
  return (sql) => {
    let s = map.get(sql);
    if (s === undefined) {
      s = prepare(sql);
      map.set(sql, s);
    }
    return s;
  };
}

/** A value as SQLite binds it: booleans as 0/1, undefined as NULL. */
function bindable(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

/**
 * One sync per file at a time (a lock beside it, taken over from a process that is gone). node-sqlite3-wasm locks a
 * file with a directory PATH.lock, which a process killed with -9 leaves behind (every later open would wait on it for
 * ever); holding sq's own lock, no other sq is writing, so such a directory is a dead one's and is removed, and SQLite
 * then rolls back the hot journal of the killed transaction as it opens the file.
 */
export async function openSqlite(
  path: string,
  shown: string,
  onCleanup: (fn: () => Promise<void>) => void,
): Promise<SyncDb> {
  await lockExport(`${path}.sq-sync`, '--to', onCleanup);
  const e = await engineFor(path);
  if (e.name === SQLITE_PACKAGE) {
    rmSync(`${path}.lock`, { recursive: true, force: true });
    // That package's file lock (one directory for every level) answers "is the file reserved?" with the lock its
    // own connection holds, so SQLite never takes a killed sync's rollback journal for hot: it was never rolled back,
    // and a kill -9 while a commit wrote its pages left a malformed file. A write-ahead log needs no such question:
    // opening replays only the transactions whose commit frame is whole. Exclusive locking keeps the log's index in
    // memory (the package has no shared memory); the file stays a WAL file, which any SQLite opens.
    e.run('PRAGMA locking_mode = EXCLUSIVE', []);
    e.all('PRAGMA journal_mode = WAL', []);
  }
  e.run('PRAGMA busy_timeout = 10000', []);
  const db: SyncDb = {
    dialect: 'sqlite',
    shown,
    engine: e.name,
    query: async (sql, params = []) => e.all(sql, params.map(bindable)),
    run: async (sql, params = []) => e.run(sql, params.map(bindable)),
    // IMMEDIATE: the write lock is taken at BEGIN, so two syncs of one file wait for each other instead of failing at COMMIT.
    transaction: (fn) => inTransaction(db, fn, 'BEGIN IMMEDIATE'),
    tableColumns: async (table) => {
      const rows = e.all(`SELECT name, type FROM pragma_table_info(?)`, [table]);
      return rows.length ? new Map(rows.map((r) => [String(r.name), String(r.type ?? '')])) : null;
    },
    close: async () => e.close(),
  };
  return db;
}
