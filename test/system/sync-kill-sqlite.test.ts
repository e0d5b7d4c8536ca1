// The full sweep of test/e2e/results-sync-kill.test.ts for SQLite (npm run test:system): kill -9 at 10 random points of
// a 5,000-row `sq results sync` into a SQLite file, then a rerun: the table equals an uninterrupted sync. npm test kills
// a 1,000-row sync five times; test/system/sync-postgres.test.ts does the same sweep into PostgreSQL.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/fs.js';
import { sqliteQuery } from '../helpers/sync-db.js';
import { killAndRerun } from '../helpers/sync-kill.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ rateLimits: 50 });
const ROWS = 5000;
beforeAll(async () => {
  await emu.control('POST', '/_emulator/generate', { squid: emu.squidId(DEMO_SQUIDS.lyon), results: ROWS });
}, 180_000);

/** As another process reads it after a kill -9 of sq: the dead holder's lock directory is removed first, as sq does. */
const readDb = <T>(file: string, sql: string) => {
  rmSync(`${file}.lock`, { recursive: true, force: true });
  return sqliteQuery<T>(file, sql);
};

it('kill -9 at 10 random points of a 5,000-row sync into SQLite, then a rerun: the table equals an uninterrupted sync', async () => {
  const dir = tempDir('sq-kill-');
  const { killed } = await killAndRerun({
    emu,
    squidName: DEMO_SQUIDS.lyon,
    rows: ROWS,
    tries: 10,
    where: (name) => ({ to: `sqlite:${join(dir, `${name}.db`)}`, table: 'r' }),
    read: async (t) =>
      readDb<Record<string, unknown>>(
        t.to.slice('sqlite:'.length),
        'SELECT sq_result_id, sq_run_id, sq_squid_id, scraping_time, name, address, ratings, score FROM r ORDER BY sq_result_id',
      ),
    cursorRows: async (t) =>
      Number(
        readDb<{ n: number }>(t.to.slice('sqlite:'.length), 'SELECT coalesce(sum(rows), 0) AS n FROM sq_sync_runs')[0]
          .n,
      ),
  });
  expect(killed).toBeGreaterThanOrEqual(8);
}, 900_000);
