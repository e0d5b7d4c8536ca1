// kill -9 at random points of a 1,000-row `sq results sync`, then the same sync again: the table equals the one an
// uninterrupted sync made (same rows, no duplicate, no gap), into a SQLite file; into Postgres (PGlite's engine behind
// its socket server) in test/commands/results-sync.test.ts, the one file of npm test that starts a PGlite. Each page is
// written in one transaction with the run's cursor; a killed transaction is rolled back (SQLite's hot journal on the
// next open, the server for a dropped connection). Ten pages are as many kill points as a try can pick from; the full
// sweep, ten kills of a 5,000-row sync into SQLite and into the distribution's PostgreSQL server, runs in CI
// (test/system/sync-kill-sqlite.test.ts, test/system/sync-postgres.test.ts).
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/fs.js';
import { sqliteQuery } from '../helpers/sync-db.js';
import { killAndRerun } from '../helpers/sync-kill.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { execa } from 'execa';
import { BIN, binCacheDir, sq } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

// Rate limits on, 50 times the documented ones: sq paces by the emulator's X-RateLimit headers, as against the service.
const emu = useEmulator({ rateLimits: 50 });
const ROWS = 1000;
beforeAll(async () => {
  await emu.control('POST', '/_emulator/generate', { squid: emu.squidId(DEMO_SQUIDS.lyon), results: ROWS });
}, 180_000);

const SELECT =
  'SELECT sq_result_id, sq_run_id, sq_squid_id, scraping_time, name, address, ratings, score FROM $T ORDER BY sq_result_id';
/**
 * A SQLite file read by another process, as a user's tool would: after a kill -9 of sq on Node 20, node-sqlite3-wasm's
 * lock directory is left beside it (its holder is dead), and is removed first, as sq itself does.
 */
const readDb = <T>(file: string, sql: string) => {
  rmSync(`${file}.lock`, { recursive: true, force: true });
  return sqliteQuery<T>(file, sql);
};
const stamp = (r: Record<string, unknown>) => ({
  ...r,
  scraping_time: r.scraping_time instanceof Date ? r.scraping_time.toISOString() : r.scraping_time,
});

describe('kill -9 at random points of a 1,000-row sync, then a rerun: the table equals an uninterrupted one', () => {
  // Five kills: each picks its page and moment at random, and what each proves is the same; the ten of a 5,000-row sync
  // run in CI (test/system/sync-kill-sqlite.test.ts).
  it('SQLite, 5 tries', async () => {
    const dir = tempDir('sq-kill-');
    const { killed } = await killAndRerun({
      emu,
      squidName: DEMO_SQUIDS.lyon,
      rows: ROWS,
      tries: 5,
      where: (name) => ({ to: `sqlite:${join(dir, `${name}.db`)}`, table: 'r' }),
      read: async (t) =>
        readDb<Record<string, unknown>>(t.to.slice('sqlite:'.length), SELECT.replace('$T', t.table)).map(stamp),
      cursorRows: async (t) =>
        Number(
          readDb<{ n: number }>(t.to.slice('sqlite:'.length), 'SELECT coalesce(sum(rows), 0) AS n FROM sq_sync_runs')[0]
            .n,
        ),
    });
    expect(killed).toBeGreaterThanOrEqual(4);
  }, 900_000);
});

describe('a stop signal mid-sync', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    '%s: the page being written commits, exit %i, and the next sync continues after it',
    async (signal, code) => {
      const path = join(tempDir('sq-stop-'), 'r.db');
      const args = [BIN, 'results', 'sync', '--squid', DEMO_SQUIDS.lyon, '--to', `sqlite:${path}`, '--table', 'r'];
      const env = { ...emu.env(), SQ_CACHE_DIR: binCacheDir(), SQ_CONFIG_DIR: tempDir('sq-cfg-'), NO_COLOR: '1' };
      // The emulator's own log, in this process (over HTTP, the whole log every 25 ms cost more than the sync).
      const reads = () => emu.log.list().filter((r) => r.method === 'GET' && r.path === '/v1/results').length;
      const before = reads();
      // No SIGKILL 5 s after the signal (execa's default): on a loaded machine the page and the exit took longer, and
      // a kill then is no answer of sq's. One that never ends fails on the test's timeout.
      const child = execa(process.execPath, args, { env, extendEnv: false, reject: false, forceKillAfterDelay: false });
      await waitFor(
        () => reads() - before,
        (n) => n >= 3,
        'three pages read',
        120_000,
      );
      child.kill(signal);
      const r = await child;
      expect(r.exitCode, String(r.stderr)).toBe(code);
      expect(String(r.stderr)).toMatch(/stopped after its last whole page: the next sync continues it/);
      const [{ n }] = sqliteQuery<{ n: number }>(path, 'SELECT count(*) AS n FROM r');
      const [cursor] = sqliteQuery<{ pages: number; rows: number; done: number }>(
        path,
        'SELECT pages, rows, done FROM sq_sync_runs',
      );
      // Whole pages only, and the cursor says exactly them.
      expect(n % 100).toBe(0);
      expect(n).toBeLessThan(ROWS);
      expect(cursor).toEqual({ pages: n / 100, rows: n, done: 0 });
      // The next sync is not about the process: in-process, paced on the real clock as the binary is.
      const again = await sq([...args.slice(1), '--json'], { env, clock: 'real' });
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(String(again.stdout))).toMatchObject({ runs_synced: 1, inserted: ROWS - n });
      expect(sqliteQuery<{ n: number }>(path, 'SELECT count(*) AS n FROM r')[0].n).toBe(ROWS);
    },
    300_000,
  );
});
