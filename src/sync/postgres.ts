// Postgres for `sq results sync --to postgres://…`, through pg (loaded only here). The password comes from the URL,
// else PGPASSWORD, else ~/.pgpass (pg reads it); it is never part of a message: errors name the host and port.
import { importPackage } from '../import-package.js';
import { SqError } from '../errors.js';
import type { Rec } from '../lib/guards.js';
import { inTransaction, type SyncDb } from './db.js';
import type { Target } from './target.js';

type PgTarget = Extract<Target, { kind: 'postgres' }>;

/** An unreachable database or a refused login: exit 1, naming the host (never the password). */
export class DatabaseError extends SqError {}

/** `?` placeholders as $1, $2, … (sq's statements hold no ? of their own). */
function numbered(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e.code === 'ECONNREFUSED') return 'connection refused';
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return 'host not found';
  if (e.code === 'ETIMEDOUT' || /timeout/i.test(e.message ?? '')) return 'connection timed out';
  if (e.code === '28P01' || e.code === '28000') return `login refused (${e.message ?? 'authentication failed'})`;
  if (e.code === '3D000') return `no such database (${e.message})`;
  return e.message ?? String(err);
}

export async function openPostgres(t: PgTarget, env: Record<string, string | undefined>): Promise<SyncDb> {
  const { default: pg } = await importPackage<{ default: typeof import('pg') }>('pg');
  const where = `postgres at ${t.host}:${t.port}${t.database ? `/${t.database}` : ''}`;
  const client = new pg.Client({
    connectionString: t.url,
    // pg reads PGPASSWORD from process.env; the command's own env is passed, as for every other setting of sq.
    ...(t.password === null && env.PGPASSWORD !== undefined ? { password: env.PGPASSWORD } : {}),
    ...(t.user === null && env.PGUSER !== undefined ? { user: env.PGUSER } : {}),
    connectionTimeoutMillis: 10_000,
    application_name: 'sq results sync',
  });
  // A connection that drops later is reported by the query that fails; without a listener it would crash the process.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw new DatabaseError(`cannot connect to ${where}: ${reason(err)}`);
  }
  const fail = (err: unknown): never => {
    const e = err as { code?: string; message?: string };
    if (e.code && /^(08|57P)/.test(e.code)) throw new DatabaseError(`${where}: the connection broke (${e.message})`);
    throw new DatabaseError(`${where}: ${e.message ?? String(err)}`);
  };
  const db: SyncDb = {
    dialect: 'postgres',
    shown: t.shown,
    engine: 'pg',
    query: async (sql, params = []) =>
      (await client.query(numbered(sql), params as unknown[]).catch(fail)).rows as Rec[],
    run: async (sql, params = []) => (await client.query(numbered(sql), params as unknown[]).catch(fail)).rowCount ?? 0,
    transaction: (fn) => inTransaction(db, fn),
    tableColumns: async (table) => {
      const rows = (
        await client
          .query(
            `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
            [table],
          )
          .catch(fail)
      ).rows as Rec[];
      return rows.length ? new Map(rows.map((r) => [String(r.column_name), String(r.data_type)])) : null;
    },
    close: async () => {
      await client.end().catch(() => {});
    },
  };
  return db;
}
