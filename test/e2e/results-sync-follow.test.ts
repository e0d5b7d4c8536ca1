// sq results sync --follow as a user runs it: a run that finishes after it started is synced at the next poll, and a
// stop signal while it waits is exit 0. Its --from-webhook (a run.done event syncs at once, the Postgres password of
// --to in none of its output nor in its process title) syncs into Postgres: test/commands/results-sync.test.ts, the
// one file of npm test that starts a PGlite.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';
import { sqliteQuery } from '../helpers/sync-db.js';
import { startSync } from '../helpers/sync-kill.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });

const start = (args: string[]) => startSync(emu, args);

const runPolls = async () => (await emu.requests('GET')).filter((r) => r.path === '/v1/runs').length;

describe('--follow', () => {
  it('syncs a run that finishes after it began, at the next poll; SIGINT while waiting exits 0', async () => {
    const path = join(tempDir('sq-follow-'), 'r.db');
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const s = start([
      '--squid',
      DEMO_SQUIDS.paris,
      '--to',
      `sqlite:${path}`,
      '--table',
      'places',
      '--follow',
      '--interval',
      '5s',
    ]);
    await waitFor(
      s.err,
      (e) => e.includes("Waiting for the squid's next done run (2 synced so far"),
      'the first pass',
      60_000,
    );
    const polls = await runPolls();
    const run = (await emu.control('POST', '/_emulator/generate', { squid, results: 9 })) as { id: string };
    await waitFor(s.err, (e) => e.includes(`run ${run.id}: 9 rows (9 inserted`), 'the new run synced', 60_000);
    // Picked up by the first poll after it was made: one more listing of the squid's runs, not several.
    expect((await runPolls()) - polls).toBe(1);
    await waitFor(s.err, (e) => e.includes('(3 synced so far'), 'waiting again', 30_000);
    s.child.kill('SIGINT');
    const r = await s.child;
    expect(r.exitCode).toBe(0);
    expect(s.err()).toMatch(/✓ 3 runs synced into places \(sqlite:.*\): 41 inserted, 0 updated, 0 unchanged/);
    expect(sqliteQuery(path, `SELECT count(*) AS n FROM places WHERE sq_run_id = '${run.id}'`)[0].n).toBe(9);
  }, 120_000);
});
