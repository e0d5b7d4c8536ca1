// A throwaway PostgreSQL cluster of the distribution's server (Debian's postgresql package) for npm run test:system:
// initdb in a temp dir, the server on a free loopback port with password (SCRAM) logins, stopped and removed after.
// As root (CI), initdb and the server run as the package's postgres user: PostgreSQL refuses to run as root.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { unusedPort } from './net.js';
import { waitFor } from './wait.js';

export interface PostgresServer {
  port: number;
  password: string;
  url(opts?: { password?: string | null; user?: string }): string;
  query<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  stop(): Promise<void>;
}

function binDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin/initdb'))) : [];
  if (!versions.length)
    throw new Error(
      'test:system: missing postgresql (the sync tests need its server): apt-get install -y --no-install-recommends postgresql',
    );
  return join(base, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  // Not under the run's temp dir: its parents are root's, 0700, and the server runs as postgres. Removed by stop().
  const dir = mkdtempSync(join(process.env.SQ_TEST_SYSTEM_TMP ?? tmpdir(), 'sq-pg-'));
  const data = join(dir, 'data');
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  writeFileSync(join(dir, 'pw'), `${password}\n`);
  const as = (cmd: string, args: string[]) =>
    (root ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]) as [string, string[]];
  if (root) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
    chownSync(join(dir, 'pw'), uid, gid);
  }
  const init = spawnSync(
    ...as(join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      `--pwfile=${join(dir, 'pw')}`,
    ]),
    { encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await unusedPort();
  const server: ChildProcess = spawn(
    ...as(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1']),
    { stdio: 'ignore' },
  );
  const connect = async () => {
    const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
    c.on('error', () => {});
    await c.connect();
    return c;
  };
  await waitFor(
    async () =>
      connect().then(
        (c) => (c.end(), true),
        () => false,
      ),
    Boolean,
    'the PostgreSQL server to accept logins',
    60_000,
  );
  return {
    port,
    password,
    url: (o = {}) => {
      const pw = o.password === undefined ? password : o.password;
      return `postgres://${o.user ?? 'postgres'}${pw === null ? '' : `:${encodeURIComponent(pw)}`}@127.0.0.1:${port}/postgres`;
    },
    query: async (sql) => {
      const c = await connect();
      try {
        return (await c.query(sql)).rows;
      } finally {
        await c.end();
      }
    },
    stop: async () => {
      // The postmaster's own pid (runuser stands between it and us): SIGINT is its fast shutdown.
      const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const exited = new Promise((r) => server.once('exit', r));
      process.kill(pid, 'SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
