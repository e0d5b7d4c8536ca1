// kill -9 at random points of a 5,000-row `sq results sync`, then the same sync again: the table equals the one an
// uninterrupted sync made (same rows, no duplicate, no gap), into a SQLite file and into Postgres (PGlite's engine
// behind its socket server; test/system/ does the same against the distribution's PostgreSQL server). Each page is
// written in one transaction with the run's cursor; a killed transaction is rolled back (SQLite's hot journal on the
// next open, the server for a dropped connection).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/fs.js';
import { sqliteQuery, startPglite, type TestPostgres } from '../helpers/sync-db.js';
import { killAndRerun } from '../helpers/sync-kill.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

// Rate limits on, 50 times the documented ones: sq paces by the emulator's X-RateLimit headers, as against the service.
const emu = useEmulator({ rateLimits: 50 });
const ROWS = 5000;
let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPglite();
  await emu.control('POST', '/_emulator/generate', { squid: emu.squidId(DEMO_SQUIDS.lyon), results: ROWS });
}, 180_000);
afterAll(async () => {
  await pg?.close();
});

const SELECT = 'SELECT sq_result_id, sq_run_id, sq_squid_id, scraping_time, name, address, ratings, score FROM $T ORDER BY sq_result_id';
const stamp = (r: Record<string, unknown>) => ({ ...r, scraping_time: r.scraping_time instanceof Date ? r.scraping_time.toISOString() : r.scraping_time });

describe('kill -9 at random points of a 5,000-row sync, then a rerun: the table equals an uninterrupted one', () => {
  it('SQLite, 10 tries', async () => {
    const dir = tempDir('sq-kill-');
    const { killed } = await killAndRerun({
      emu,
      squidName: DEMO_SQUIDS.lyon,
      rows: ROWS,
      tries: 10,
      where: (name) => ({ to: `sqlite:${join(dir, `${name}.db`)}`, table: 'r' }),
      read: async (t) => sqliteQuery(t.to.slice('sqlite:'.length), SELECT.replace('$T', t.table)).map(stamp),
    });
    expect(killed).toBeGreaterThanOrEqual(8);
  }, 900_000);

  // PGlite serves one connection at a time and runs in this process: fewer tries here; test/system/ runs ten against
  // a PostgreSQL server.
  it('Postgres (PGlite), 3 tries', async () => {
    const { killed } = await killAndRerun({
      emu,
      squidName: DEMO_SQUIDS.lyon,
      rows: ROWS,
      tries: 3,
      where: (name) => ({ to: pg.url(), table: `kill_${name}` }),
      read: async (t) => (await pg.query(SELECT.replace('$T', `"${t.table}"`))).map(stamp),
    });
    expect(killed).toBeGreaterThanOrEqual(2);
  }, 900_000);
});
