// sq results sync into real databases: SQLite files (the engine sq uses on this Node) and Postgres (PGlite's engine
// behind its socket server, through pg as a real server is reached), against the emulator on loopback. In-process,
// but for the last block: the built binary into the same PGlite (kill -9 mid-sync, --follow --from-webhook), here
// because this is the one file of npm test that starts a PGlite: ~2 CPU-s to start one from the data directory kept
// in test/fixtures (test/helpers/sync-db.ts). Their SQLite counterparts: test/e2e/results-sync-kill.test.ts,
// results-sync-follow.test.ts.
import { join } from 'node:path';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { killAndRerun, startSync } from '../helpers/sync-kill.js';
import { waitFor } from '../helpers/wait.js';
import { tempDir } from '../helpers/fs.js';
import { sqliteQuery, usePglite } from '../helpers/sync-db.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const pg = usePglite();

let tables = 0;
/** One database per test: a new SQLite file, or a new table name in the one PGlite. */
function target(kind: 'sqlite' | 'postgres'): {
  to: string;
  table: string;
  rows(sql: string): Promise<Record<string, unknown>[]>;
} {
  const table = `t${++tables}_${kind}`;
  if (kind === 'sqlite') {
    const path = join(tempDir('sq-sync-'), 'r.db');
    return { to: `sqlite:${path}`, table, rows: async (sql) => sqliteQuery(path, sql.replaceAll('$T', `"${table}"`)) };
  }
  return { to: pg.url(), table, rows: (sql) => pg.query(sql.replaceAll('$T', `"${table}"`)) };
}

const sync = (...args: string[]) => sq(['results', 'sync', ...args], { env: emu.env() });
const json = async (...args: string[]) => {
  const r = await sync(...args, '--json');
  // stderr: one line per run synced, nothing else.
  for (const line of r.stderr.split('\n').filter(Boolean))
    expect(line).toMatch(/^run [0-9a-f]+: [\d,]+ rows \([\d,]+ inserted, [\d,]+ updated, [\d,]+ unchanged\)$/);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};
const doneRuns = async (squid: string) =>
  (await emu.api(`/v1/runs?squid=${squid}&limit=100`)).data.filter((r: { status: string }) => r.status === 'done') as {
    id: string;
    total_unique_results: number;
  }[];
const generate = async (squid: string, results: number) =>
  (await emu.control('POST', '/_emulator/generate', { squid, results })) as { id: string };

describe.each(['sqlite', 'postgres'] as const)('into %s', (kind) => {
  it('syncs every done run once: the second sync inserts nothing, a new run syncs only its rows', async () => {
    const t = target(kind);
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const runs = await doneRuns(squid);
    expect(runs).toHaveLength(2);
    const total = runs.reduce((n, r) => n + r.total_unique_results, 0);
    expect(total).toBeGreaterThan(0);

    const first = await json('--squid', DEMO_SQUIDS.paris, '--to', t.to, '--table', t.table);
    expect(first).toMatchObject({ table: t.table, squid, runs_synced: 2, inserted: total, updated: 0, unchanged: 0 });
    expect((await t.rows('SELECT count(*) AS n FROM $T'))[0].n).toBe(total);
    for (const r of runs)
      expect((await t.rows(`SELECT count(*) AS n FROM $T WHERE sq_run_id = '${r.id}'`))[0].n).toBe(
        r.total_unique_results,
      );

    const again = await json('--squid', DEMO_SQUIDS.paris, '--to', t.to, '--table', t.table);
    expect(again).toMatchObject({ runs_synced: 0, inserted: 0, updated: 0, unchanged: 0 });

    const fresh = await generate(squid, 7);
    const third = await json('--squid', DEMO_SQUIDS.paris, '--to', t.to, '--table', t.table);
    expect(third).toMatchObject({ runs_synced: 1, inserted: 7, runs: [{ run: fresh.id, rows: 7, inserted: 7 }] });
    expect((await t.rows('SELECT count(*) AS n FROM $T'))[0].n).toBe(total + 7);
  });

  it('types the columns from the crawler attributes and keeps the values', async () => {
    const t = target(kind);
    await json('--squid', DEMO_SQUIDS.paris, '--to', t.to, '--table', t.table);
    const page = (await emu.api(`/v1/results?squid=${emu.squidId(DEMO_SQUIDS.paris)}&limit=1`)).data[0];
    const [row] = await t.rows(`SELECT * FROM $T WHERE sq_result_id = '${page.id}'`);
    expect(row).toMatchObject({
      sq_result_id: page.id,
      sq_run_id: page.run,
      sq_squid_id: page.squid,
      name: page.name,
      ratings: page.ratings,
      score: page.score,
    });
    expect(typeof row.ratings).toBe('number');
  });

  it('--key upserts across runs: a row scraped again updates, an equal one stays', async () => {
    const t = target(kind);
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const first = await json(
      '--squid',
      DEMO_SQUIDS.paris,
      '--to',
      t.to,
      '--table',
      t.table,
      '--key',
      'name',
      '--run',
      (await doneRuns(squid))[0].id,
    );
    const keys = Number((await t.rows('SELECT count(*) AS n FROM $T'))[0].n);
    expect(first.inserted).toBe(keys);
    const second = await json('--squid', DEMO_SQUIDS.paris, '--to', t.to, '--table', t.table, '--key', 'name');
    // The other seeded run scraped the same places: each is the same row (updated or unchanged), never a new one.
    expect(second.runs_synced).toBe(1);
    const names = Number((await t.rows('SELECT count(DISTINCT name) AS n FROM $T'))[0].n);
    expect(Number((await t.rows('SELECT count(*) AS n FROM $T'))[0].n)).toBe(names);
    expect(second.updated + second.unchanged).toBeGreaterThan(0);
    expect(names).toBe(keys + second.inserted);
    // The table keeps the key it was made with.
    const other = await sync('--squid', DEMO_SQUIDS.paris, '--to', t.to, '--table', t.table);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(
      `--key: table ${t.table} was made with --key name; sync with the same key, or into another --table`,
    );
  });

  it('--dry-run prints the DDL and the counts and writes nothing', async () => {
    const t = target(kind);
    const r = await sync('--squid', DEMO_SQUIDS.paris, '--to', t.to, '--table', t.table, '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`CREATE TABLE "${t.table}"`);
    expect(r.stdout).toMatch(/-- 2 run\(s\) to sync, 32 rows/);
    if (kind === 'sqlite') expect(existsSync(t.to.slice('sqlite:'.length))).toBe(false);
    else expect(await pg.query(`SELECT 1 FROM information_schema.tables WHERE table_name = '${t.table}'`)).toEqual([]);
  });

  it('adds a column the table lacks, and refuses one of another type (exit 2 naming it) before any write', async () => {
    const t = target(kind);
    await json(
      '--squid',
      DEMO_SQUIDS.paris,
      '--to',
      t.to,
      '--table',
      t.table,
      '--run',
      (await doneRuns(emu.squidId(DEMO_SQUIDS.paris)))[0].id,
    );
    const exec = async (sql: string) => (kind === 'sqlite' ? sqliteQuery(t.to.slice(7), sql) : pg.query(sql));
    await exec(`ALTER TABLE "${t.table}" DROP COLUMN email`);
    const added = await json('--squid', DEMO_SQUIDS.paris, '--to', t.to, '--table', t.table);
    expect(added.runs_synced).toBe(1);
    expect((await t.rows('SELECT count(email) AS n FROM $T'))[0].n).toBeGreaterThanOrEqual(0);
    await exec(`ALTER TABLE "${t.table}" DROP COLUMN ratings`);
    await exec(`ALTER TABLE "${t.table}" ADD COLUMN ratings ${kind === 'sqlite' ? 'BOOLEAN' : 'boolean'}`);
    const before = (await t.rows('SELECT count(*) AS n FROM $T'))[0].n;
    await generate(emu.squidId(DEMO_SQUIDS.paris), 3);
    const r = await sync('--squid', DEMO_SQUIDS.paris, '--to', t.to, '--table', t.table);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /column "ratings" of table t\d+_\w+ is (BOOLEAN|boolean), but the crawler's attribute is integer/,
    );
    expect((await t.rows('SELECT count(*) AS n FROM $T'))[0].n).toBe(before);
  });
});

describe('bad input: exit 2 naming the flag, before any request', () => {
  it.each([
    [['--to', 'mysql://h/db'], /--to: unknown scheme "mysql:"/],
    [['--to', 'results.db'], /--to: unknown scheme/],
    [['--to', 'sqlite:'], /--to: sqlite needs a file path/],
    [['--to', 'sqlite:x.db', '--table', '1bad'], /--table "1bad" is not an identifier/],
    [['--to', 'sqlite:x.db', '--table', 'a-b'], /--table "a-b" is not an identifier/],
    [['--to', 'sqlite:x.db', '--interval', '10s'], /--interval goes with --follow/],
    [['--to', 'sqlite:x.db', '--follow', '--interval', '1s'], /--interval must be a duration/],
    [['--to', 'sqlite:x.db', '--from-webhook', '70000'], /--from-webhook must be an integer from 0 to 65535/],
    [[], /--to is required/],
  ])('%j', async (args, message) => {
    await emu.clearRequests();
    const r = await sync('--squid', DEMO_SQUIDS.paris, ...args);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(await emu.requests()).toEqual([]);
  });

  it('a --key that is not an attribute: exit 2 naming it, nothing written', async () => {
    const dir = tempDir('sq-sync-');
    const r = await sync('--squid', DEMO_SQUIDS.paris, '--to', `sqlite:${join(dir, 'r.db')}`, '--key', 'nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--key nope is not a result attribute of this squid's crawler; one of: sq_result_id, .*name/,
    );
    expect(existsSync(join(dir, 'r.db'))).toBe(false);
  });

  it('an unreachable Postgres: exit 1 naming the host, never the password', async () => {
    const r = await sync('--squid', DEMO_SQUIDS.paris, '--to', 'postgres://me:Hunter2Secret@127.0.0.1:1/db', '-v');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot connect to postgres at 127\.0\.0\.1:1\/db: connection refused/);
    expect(r.stderr + r.stdout).not.toContain('Hunter2Secret');
  });

  it('the password never appears, with -v, --json, --dry-run or in an error', async () => {
    const secret = 'S3cr3t-Pa55';
    for (const extra of [['-v'], ['--json'], ['--dry-run'], ['--key', 'nope']]) {
      const r = await sync('--squid', DEMO_SQUIDS.paris, '--to', pg.url(secret), '--table', 'pw_check', ...extra);
      expect(r.stdout + r.stderr).not.toContain(secret);
      expect([0, 2]).toContain(r.code);
    }
  });
});

describe('--file: the sync: blocks of an account file', () => {
  it('syncs each squid that has one; a password in the URL is refused naming the path', async () => {
    const dir = tempDir('sq-sync-file-');
    const db = join(dir, 'r.db');
    const file = join(dir, 'sq.yaml');
    writeFileSync(
      file,
      `squids:\n  "${DEMO_SQUIDS.paris}":\n    sync: { to: "\${SYNC_DB}", table: paris }\n  "${DEMO_SQUIDS.influencers}":\n    active: true\n`,
    );
    const r = await sq(['results', 'sync', '-f', file, '--json'], { env: emu.env({ SYNC_DB: `sqlite:${db}` }) });
    expect(r.code, r.stderr).toBe(0);
    const [s] = JSON.parse(r.stdout);
    expect(s).toMatchObject({ table: 'paris', runs_synced: 2, inserted: 32 });
    expect(sqliteQuery(db, 'SELECT count(*) AS n FROM paris')[0].n).toBe(32);

    writeFileSync(file, `squids:\n  "${DEMO_SQUIDS.paris}":\n    sync: { to: "postgres://me:hunter2@db/x" }\n`);
    const bad = await sq(['results', 'sync', '-f', file], { env: emu.env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('squids."Paris restaurants".sync.to: ');
    expect(bad.stderr).not.toContain('hunter2');
  });
});

describe('the built binary into Postgres', () => {
  // Rate limits on, 50 times the documented ones: sq paces by the emulator's X-RateLimit headers, as against the
  // service, which spreads a sync over time for the kills.
  const paced = useEmulator({ rateLimits: 50 });
  const ROWS = 1000;

  // PGlite serves one connection at a time and runs in this process: 3 kills of a 1,000-row sync (10 pages) here;
  // test/system/sync-postgres.test.ts kills a 5,000-row one 10 times in the distribution's PostgreSQL server.
  it('kill -9 at random points of a 1,000-row sync, 3 tries, then a rerun: the table equals an uninterrupted one', async () => {
    await paced.control('POST', '/_emulator/generate', { squid: paced.squidId(DEMO_SQUIDS.lyon), results: ROWS });
    const select = (table: string) =>
      `SELECT sq_result_id, sq_run_id, sq_squid_id, scraping_time, name, address, ratings, score FROM "${table}" ORDER BY sq_result_id`;
    const stamp = (r: Record<string, unknown>) => ({
      ...r,
      scraping_time: r.scraping_time instanceof Date ? r.scraping_time.toISOString() : r.scraping_time,
    });
    const { killed } = await killAndRerun({
      emu: paced,
      squidName: DEMO_SQUIDS.lyon,
      rows: ROWS,
      tries: 3,
      where: (name) => ({ to: pg.url(), table: `kill_${name}` }),
      read: async (t) => (await pg.query(select(t.table))).map(stamp),
      cursorRows: async (t) =>
        Number(
          (
            await pg.query<{ n: string }>(
              `SELECT coalesce(sum(rows), 0) AS n FROM sq_sync_runs WHERE table_name = '${t.table}'`,
            )
          )[0].n,
        ),
    });
    expect(killed).toBeGreaterThanOrEqual(2);
  }, 900_000);

  const start = (args: string[]) => startSync(emu, args);

  it('--from-webhook: a run.done event for the squid syncs at once; the password is in no output nor in ps', async () => {
    const secret = 'Pa55-w0rd-in-url';
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const s = start([
      '--squid',
      DEMO_SQUIDS.paris,
      '--to',
      pg.url(secret),
      '--table',
      'hooked',
      '--follow',
      '--interval',
      '1h',
      '--from-webhook',
      '0',
      '-v',
    ]);
    const url = (
      await waitFor(s.err, (e) => /Waiting for run\.done events on (http:\S+)/.test(e), 'the receiver', 60_000)
    ).match(/events on (http:\S+)/)![1];
    await waitFor(s.err, (e) => e.includes('(2 synced so far'), 'the first pass', 60_000);
    const cmdline = readFileSync(`/proc/${s.child.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain(secret);
    expect(cmdline).toContain('--from-webhook');
    const run = (await emu.control('POST', '/_emulator/generate', { squid, results: 4 })) as { id: string };
    const now = new Date().toISOString().replace(/-/g, '/').replace('T', ' ').slice(0, 19);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: run.id,
        object: 'run',
        event: 'run.done',
        squid: { id: squid, name: DEMO_SQUIDS.paris },
        timestamp: now,
      }),
    });
    expect(res.status).toBe(200);
    await waitFor(s.err, (e) => e.includes(`run ${run.id}: 4 rows (4 inserted`), 'the run synced on the event', 60_000);
    s.child.kill('SIGTERM');
    const r = await s.child;
    expect(r.exitCode).toBe(0);
    expect(s.err() + s.out()).not.toContain(secret);
    expect(s.err()).toContain('postgres://postgres:********@127.0.0.1');
    expect(
      (await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM hooked WHERE sq_run_id = '${run.id}'`))[0].n,
    ).toBe(4);
  }, 120_000);
});
