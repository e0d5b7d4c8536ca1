// sq go --to URL: the run it waited for is synced into the database (as sq results sync --run), instead of an export
// to stdout; with -o FILE as well, both. Bad --to values are exit 2 before any request.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { gatedSqClock } from '../helpers/clock.js';
import { waitFor } from '../helpers/wait.js';
import { sqliteQuery } from '../helpers/sync-db.js';

const emu = useEmulator({ each: 'reset' });
const A = 'https://www.amazon.com/s?k=go+sync+a';

/** sq go with the emulator's clock moved at each of its waits (as test/commands/go.test.ts does). */
async function goAdvancing(args: string[]) {
  let finished = false;
  const clock = gatedSqClock(new AbortController().signal);
  const p = sq(['go', ...args], { env: emu.env(), clock }).finally(() => (finished = true));
  for (let i = 0; !finished && i < 400; i++) {
    await waitFor(() => clock.sleeping || finished, Boolean, 'a wait of sq go', 40_000);
    if (finished) break;
    await emu.advance(500);
    clock.step();
  }
  return p;
}

describe('sq go --to', () => {
  it('syncs the run into SQLite and prints the summary with --json (no -o needed)', async () => {
    emu.expectWrites('POST /v1/squids', /^POST \/v1\/squids\/\w+$/, 'POST /v1/tasks', 'POST /v1/runs');
    const db = join(tempDir('sq-go-sync-'), 'r.db');
    const r = await goAdvancing([
      'amazon-products',
      A,
      '-p',
      'max_results=5',
      '--to',
      `sqlite:${db}`,
      '--table',
      'phones',
      '--interval',
      '20ms',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const run = out.run.id as string;
    expect(out.exported).toBeNull();
    expect(out.synced).toMatchObject({ table: 'phones', runs_synced: 1, runs: [{ run }] });
    const n = (await emu.api(`/v1/runs/${run}`)).total_unique_results;
    expect(n).toBeGreaterThan(0);
    expect(out.synced.inserted).toBe(n);
    expect(sqliteQuery(db, `SELECT count(*) AS n FROM phones WHERE sq_run_id = '${run}'`)[0].n).toBe(n);
    expect(r.stderr).toContain(`1 run synced into phones (sqlite:${db}): ${n} inserted`);
  }, 90_000);

  it.each([
    [['--to', 'ftp://x'], /--to: unknown scheme "ftp:"/],
    [['--table', 'x'], /--table goes with --to/],
    [['--to', 'sqlite:x.db', '--table', 'no-dash'], /--table "no-dash" is not an identifier/],
  ])('%j: exit 2 before any request', async (args, message) => {
    await emu.clearRequests();
    const r = await sq(['go', 'amazon-products', A, ...args], { env: emu.env() });
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(await emu.requests()).toEqual([]);
  });
});
