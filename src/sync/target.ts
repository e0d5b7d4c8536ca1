// Where `sq results sync --to URL` writes: a SQLite file or a Postgres database, read from the URL alone (no
// connection yet), so that a bad URL is exit 2 before any request. The password is never part of what is shown.
import { UsageError } from '../errors.js';

export type Target =
  | { kind: 'sqlite'; path: string; shown: string }
  | {
      kind: 'postgres';
      url: string;
      host: string;
      port: number;
      database: string;
      user: string | null;
      password: string | null;
      shown: string;
    };

const SCHEMES = 'sqlite:PATH, postgres://… or postgresql://…';

/** The --to URL as a target; a UsageError naming --to for anything else. */
export function parseTarget(to: string | undefined, flag = '--to'): Target {
  if (to === undefined || to.trim() === '') throw new UsageError(`${flag} is required: ${SCHEMES}`);
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(to);
  const scheme = m?.[1]?.toLowerCase();
  if (scheme === 'sqlite' || scheme === 'sqlite3') return sqliteTarget(to.slice(m![0].length), flag);
  if (scheme === 'postgres' || scheme === 'postgresql') return postgresTarget(to, flag);
  throw new UsageError(`${flag}: unknown scheme${scheme ? ` "${scheme}:"` : ''}; use ${SCHEMES}`);
}

function sqliteTarget(rest: string, flag: string): Target {
  // sqlite:data.db, sqlite:/abs/data.db, sqlite:///abs/data.db, sqlite://./rel.db
  let path = rest.startsWith('//') ? rest.slice(2) : rest;
  if (path.startsWith('/') && rest.startsWith('///')) path = rest.slice(2);
  path = decodeURIComponent(path);
  if (path === '' || path === ':memory:')
    throw new UsageError(`${flag}: sqlite needs a file path, e.g. sqlite:results.db`);
  if (path.includes('\0')) throw new UsageError(`${flag}: the sqlite path holds a NUL byte`);
  return { kind: 'sqlite', path, shown: `sqlite:${path}` };
}

function postgresTarget(to: string, flag: string): Target {
  let u: URL;
  try {
    u = new URL(to);
  } catch {
    // The URL may hold a password: it is not quoted back.
    throw new UsageError(`${flag}: not a valid postgres:// URL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)`);
  }
  const host = decodeURIComponent(u.hostname.replace(/^\[|\]$/g, '')) || 'localhost';
  const port = u.port === '' ? 5432 : Number(u.port);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (database.includes('/')) throw new UsageError(`${flag}: the database name cannot contain "/"`);
  const user = u.username ? decodeURIComponent(u.username) : null;
  // libpq also takes ?password=…: a secret like the one in the userinfo.
  const password = u.password ? decodeURIComponent(u.password) : u.searchParams.get('password');
  const shownUrl = new URL(to);
  if (shownUrl.password) shownUrl.password = '********';
  if (shownUrl.searchParams.has('password')) shownUrl.searchParams.set('password', '********');
  return {
    kind: 'postgres',
    url: to,
    host,
    port,
    database: database || (user ?? 'postgres'),
    user,
    password,
    shown: shownUrl.href,
  };
}

/** A table or column name sq writes unquoted-safe: letters, digits and _, not starting with a digit, at most 63. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function checkTableName(name: string, flag = '--table'): string {
  if (!IDENTIFIER.test(name))
    throw new UsageError(
      `${flag} "${name}" is not an identifier: letters, digits and _, not starting with a digit, at most 63 characters`,
    );
  if (/^sq_sync_/i.test(name))
    throw new UsageError(`${flag} "${name}": names starting sq_sync_ are sq's own bookkeeping tables`);
  return name;
}

/** The default table of a squid: its name in lower case, every run of other characters an _. */
export function defaultTableName(squidName: string, squidId: string): string {
  const base = squidName
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const name = /^[a-z_]/.test(base) ? base : `squid_${base || squidId.slice(0, 8)}`;
  return name.slice(0, 63).replace(/_+$/, '');
}
