// sq results sync into the distribution's PostgreSQL server (npm run test:system; .ci/run installs postgresql): two
// done runs, a second sync that inserts nothing, a new run that syncs only its rows; kill -9 at 10 random points of a
// 5,000-row sync then a rerun equals an uninterrupted sync; the password from the URL, PGPASSWORD or ~/.pgpass, a
// refused login is exit 1 naming the host, and the password is in no output.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sqBin } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { startPostgresServer, type PostgresServer } from '../helpers/pg-server.js';
import { killAndRerun } from '../helpers/sync-kill.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ rateLimits: 50 });
let pg: PostgresServer;
beforeAll(async () => {
  pg = await startPostgresServer();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});

const sync = (args: string[], env: Record<string, string> = {}) =>
  sqBin(['results', 'sync', '--squid', DEMO_SQUIDS.paris, ...args], { env: emu.env(env) });
const count = async (table: string, where = '') =>
  Number((await pg.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}" ${where}`))[0].n);

describe('sq results sync into PostgreSQL', () => {
  it('two done runs, then nothing new, then a new run: only its rows', async () => {
    const runs = (await emu.api(`/v1/runs?squid=${emu.squidId(DEMO_SQUIDS.paris)}`)).data.filter(
      (r: { status: string }) => r.status === 'done',
    );
    const total = runs.reduce((n: number, r: { total_unique_results: number }) => n + r.total_unique_results, 0);
    const first = await sync(['--to', pg.url(), '--table', 'places', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ runs_synced: 2, inserted: total });
    expect(await count('places')).toBe(total);
    const again = await sync(['--to', pg.url(), '--table', 'places', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ runs_synced: 0, inserted: 0 });
    const run = (await emu.control('POST', '/_emulator/generate', {
      squid: emu.squidId(DEMO_SQUIDS.paris),
      results: 11,
    })) as { id: string };
    const third = await sync(['--to', pg.url(), '--table', 'places', '--json']);
    expect(JSON.parse(third.stdout)).toMatchObject({ runs_synced: 1, inserted: 11, runs: [{ run: run.id }] });
    expect(await count('places')).toBe(total + 11);
  }, 120_000);

  it('the password from PGPASSWORD or ~/.pgpass; a wrong one is exit 1 naming the host, never printed', async () => {
    const noPw = pg.url({ password: null });
    const viaEnv = await sync(['--to', noPw, '--table', 'via_env', '--json'], { PGPASSWORD: pg.password });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    const home = tempDir('sq-home-');
    writeFileSync(join(home, '.pgpass'), `127.0.0.1:${pg.port}:*:postgres:${pg.password}\n`, { mode: 0o600 });
    const viaFile = await sync(['--to', noPw, '--table', 'via_pgpass', '--json'], { HOME: home });
    expect(viaFile.code, viaFile.stderr).toBe(0);
    expect(await count('via_pgpass')).toBe(await count('via_env'));
    const wrong = 'Wr0ng-Secret-Value';
    const refused = await sync(['--to', pg.url({ password: wrong }), '--table', 'refused', '-v']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`cannot connect to postgres at 127.0.0.1:${pg.port}/postgres: login refused`);
    expect(refused.stdout + refused.stderr).not.toContain(wrong);
    expect(refused.stdout + refused.stderr).not.toContain(pg.password);
    expect(await pg.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'refused'`)).toEqual([]);
  }, 120_000);

  it('kill -9 at 10 random points of a 5,000-row sync, then a rerun: the table equals an uninterrupted sync', async () => {
    await emu.control('POST', '/_emulator/generate', { squid: emu.squidId(DEMO_SQUIDS.lyon), results: 5000 });
    const { killed } = await killAndRerun({
      emu,
      squidName: DEMO_SQUIDS.lyon,
      rows: 5000,
      tries: 10,
      where: (name) => ({ to: pg.url(), table: `kill_${name}` }),
      read: async (t) =>
        await pg.query(
          `SELECT sq_result_id, sq_run_id, sq_squid_id, scraping_time::text, name, address, ratings, score FROM "${t.table}" ORDER BY sq_result_id`,
        ),
      cursorRows: async (t) =>
        Number(
          (
            await pg.query<{ n: string }>(
              `SELECT coalesce(sum(rows), 0) AS n FROM sq_sync_runs WHERE table_name = '${t.table}'`,
            )
          )[0].n,
        ),
    });
    expect(killed).toBeGreaterThanOrEqual(8);
  }, 900_000);
});
