// One page of results into the table, inside the caller's transaction: values converted to the columns' types,
// inserted, updated when their data changed, or left as they are; with the run's cursor beside them.
import { SqError } from '../errors.js';
import type { Rec } from '../lib/guards.js';
import type { SyncDb } from './db.js';
import { dataColumns, quoteIdent, sqlType, type Column } from './schema.js';

/** A value the crawler sent that its column cannot hold (a word in an integer column): exit 1, the page rolled back. */
export class SyncDataError extends SqError {}

export interface Counts {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows without a value for --key: not written. */
  skipped: number;
}

export const zeroCounts = (): Counts => ({ inserted: 0, updated: 0, unchanged: 0, skipped: 0 });

export function addCounts(a: Counts, b: Counts): void {
  a.inserted += b.inserted;
  a.updated += b.updated;
  a.unchanged += b.unchanged;
  a.skipped += b.skipped;
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The value of `v` for column `c`, as the database binds it (JSON as text); a SyncDataError when it cannot be. */
export function convert(c: Column, v: unknown, resultId: string): unknown {
  if (v === undefined || v === null) return null;
  const bad = (): never => {
    const shown =
      typeof v === 'string'
        ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)
        : typeof v === 'object'
          ? Array.isArray(v)
            ? 'a list'
            : 'an object'
          : String(v);
    throw new SyncDataError(
      `result ${resultId}: column "${c.name}" is ${c.type}, but the value is ${shown}; nothing of this page was written`,
    );
  };
  switch (c.type) {
    case 'text':
      return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
    case 'json':
      return JSON.stringify(v);
    case 'integer':
      if (typeof v === 'number') return Number.isSafeInteger(v) ? v : bad();
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (typeof v === 'string' && INTEGER.test(v.trim()) && Number.isSafeInteger(Number(v))) return Number(v);
      if (typeof v === 'string' && v.trim() === '') return null;
      return bad();
    case 'real':
      if (typeof v === 'number') return Number.isFinite(v) ? v : bad();
      if (typeof v === 'string' && NUMBER.test(v.trim())) return Number(v);
      if (typeof v === 'string' && v.trim() === '') return null;
      return bad();
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (v === 1 || v === 0) return v === 1;
      if (typeof v === 'string' && /^(true|false|1|0|yes|no)$/i.test(v.trim())) return /^(true|1|yes)$/i.test(v.trim());
      return bad();
    case 'timestamp':
      if (typeof v === 'string' && !Number.isNaN(Date.parse(v.trim()))) return v.trim();
      if (typeof v === 'string' && v.trim() === '') return null;
      return bad();
  }
}

/** What a stored value and a bound one have in common, to tell an unchanged row (SQLite gives back 0/1, JSON as text). */
function same(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined) return b === null || b === undefined;
  if (b === null || b === undefined) return false;
  if (typeof b === 'boolean') return Number(a) === (b ? 1 : 0);
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return String(a) === String(b);
}

export interface PageWrite {
  db: SyncDb;
  table: string;
  cols: readonly Column[];
  /** The primary key: sq_result_id, or the --key columns. */
  key: readonly string[];
  syncedAt: string;
}

/** The page's records as rows (one per key: a later record of the same key wins), and those that had no key. */
function rowsOf(w: PageWrite, records: readonly Rec[]): { rows: unknown[][]; skipped: number } {
  const byKey = new Map<string, unknown[]>();
  const keyIdx = w.key.map((k) => w.cols.findIndex((c) => c.name === k));
  let skipped = 0;
  for (const r of records) {
    const id = String(r.id ?? '');
    const row = w.cols.map((c) => (c.name === 'sq_synced_at' ? w.syncedAt : convert(c, r[c.field], id)));
    const k = keyIdx.map((i) => row[i]);
    if (k.some((v) => v === null || v === '')) {
      skipped++;
      continue;
    }
    const ks = JSON.stringify(k);
    byKey.delete(ks);
    byKey.set(ks, row);
  }
  return { rows: [...byKey.values()], skipped };
}

export async function writePage(w: PageWrite, records: readonly Rec[]): Promise<Counts> {
  const { rows, skipped } = rowsOf(w, records);
  const counts = w.db.dialect === 'postgres' ? await writePostgres(w, rows) : await writeSqlite(w, rows);
  counts.skipped += skipped;
  counts.unchanged += records.length - rows.length - skipped;
  return counts;
}

async function writeSqlite(w: PageWrite, rows: unknown[][]): Promise<Counts> {
  const c = zeroCounts();
  const t = quoteIdent(w.table);
  const data = dataColumns(w.cols);
  const dataIdx = data.map((d) => w.cols.indexOf(d));
  const keyIdx = w.key.map((k) => w.cols.findIndex((col) => col.name === k));
  const where = w.key.map((k) => `${quoteIdent(k)} = ?`).join(' AND ');
  const select = `SELECT ${data.map((d) => quoteIdent(d.name)).join(', ')} FROM ${t} WHERE ${where}`;
  const insert = `INSERT INTO ${t} (${w.cols.map((col) => quoteIdent(col.name)).join(', ')}) VALUES (${w.cols.map(() => '?').join(', ')})`;
  const update = `UPDATE ${t} SET ${w.cols.map((col) => `${quoteIdent(col.name)} = ?`).join(', ')} WHERE ${where}`;
  const insertNew = `${insert} ON CONFLICT (${w.key.map(quoteIdent).join(', ')}) DO NOTHING`;
  for (const row of rows) {
    // Most rows are new: one statement for them; a row already there is read back and compared.
    if ((await w.db.run(insertNew, row)) === 1) {
      c.inserted++;
      continue;
    }
    const k = keyIdx.map((i) => row[i]);
    const [have] = await w.db.query(select, k);
    if (have && data.every((d, i) => same(have[d.name], row[dataIdx[i]]))) {
      c.unchanged++;
    } else {
      await w.db.run(update, [...row, ...k]);
      c.updated++;
    }
  }
  return c;
}

async function writePostgres(w: PageWrite, rows: unknown[][]): Promise<Counts> {
  const c = zeroCounts();
  if (rows.length === 0) return c;
  const t = quoteIdent(w.table);
  const names = w.cols.map((col) => quoteIdent(col.name));
  const tuple = `(${w.cols.map((col) => `?::${sqlType('postgres', col)}`).join(', ')})`;
  const data = dataColumns(w.cols).map((d) => quoteIdent(d.name));
  const sql =
    `INSERT INTO ${t} AS t (${names.join(', ')}) VALUES ${rows.map(() => tuple).join(', ')} ` +
    `ON CONFLICT (${w.key.map(quoteIdent).join(', ')}) DO UPDATE SET ${names.map((n) => `${n} = EXCLUDED.${n}`).join(', ')} ` +
    `WHERE (${data.map((n) => `t.${n}`).join(', ')}) IS DISTINCT FROM (${data.map((n) => `EXCLUDED.${n}`).join(', ')}) ` +
    'RETURNING (xmax = 0) AS inserted';
  const out = await w.db.query(sql, rows.flat());
  for (const r of out) r.inserted ? c.inserted++ : c.updated++;
  c.unchanged = rows.length - out.length;
  return c;
}
