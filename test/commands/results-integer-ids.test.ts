// Results whose `id` is an integer, as three crawlers' own get-results examples show (Bien'ici, Facebook page
// details, Leboncoin listings; the reference page's ids are 32-hex strings): the emulator serves them so, and sq's
// handling of results takes them as they come: the table, --json, a CSV file, an export stopped by a failing page
// and resumed (its checkpoint counts pages, not ids), and a sync whose default key is the result id.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { crawlerId } from '../../src/emulator/crawlers.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { type J, ndjson } from '../helpers/json.js';
import { sqliteQuery } from '../helpers/sync-db.js';

const emu = useEmulator({ each: 'clear' });
const COUNT = 250; // 3 pages of 100
const NAME = 'Listings with integer ids';
let runId: string;
let expected: J[];

beforeAll(async () => {
  const squid = (
    await emu.api('/v1/squids', { method: 'POST', body: { crawler: crawlerId('leboncoin-iter-listings'), name: NAME } })
  ).id;
  runId = ((await emu.control('POST', '/_emulator/generate', { squid, results: COUNT })) as J).id;
  expected = [];
  for (let page = 1; expected.length < COUNT; page++)
    expected.push(...(await emu.api(`/v1/results?run=${runId}&page=${page}&limit=100`)).data);
});

describe('results of a crawler whose examples give integer ids', () => {
  it("the emulator gives them integer ids, each its own; the demo squids' rows keep the 32-hex hash", async () => {
    expect(expected).toHaveLength(COUNT);
    expect(expected.every((r) => Number.isInteger(r.id))).toBe(true);
    expect(new Set(expected.map((r) => r.id)).size).toBe(COUNT);
    const demo = (await emu.api(`/v1/results?squid=${emu.squidId(DEMO_SQUIDS.paris)}&limit=5`)).data as J[];
    expect(demo.length).toBeGreaterThan(0);
    for (const r of demo) expect(r.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('--json keeps them numbers; the table and a CSV file show them as digits, one line per record', async () => {
    const all = await sq(['results', 'list', '--run', runId, '--all', '--json'], { env: emu.env() });
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual(expected);
    const table = await sq(['results', 'list', '--run', runId, '--limit', '3'], { env: emu.env() });
    expect(table.code, table.stderr).toBe(0);
    expect(
      table.stdout
        .split('\n')
        .slice(1, 4)
        .map((l) => l.split('\t')[0]),
    ).toEqual(expected.slice(0, 3).map((r) => String(r.id)));
    const file = join(tempDir('sq-intid-'), 'all.csv');
    const csv = await sq(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() });
    expect(csv.code, csv.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(expected.map((r) => String(r.id)));
  });

  it('an export stopped by a failing page resumes to the whole file', async () => {
    const file = join(tempDir('sq-intid-'), 'out.ndjson');
    await emu.faults([
      { path: '/v1/results', action: 'delay', ms: 0, count: 1 },
      { path: '/v1/results', action: 'status', status: 400, count: 1 },
    ]);
    const stopped = await sq(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() });
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('Kept 1 whole page (100 of 250 records)');
    await emu.clearFaults();
    const resumed = await sq(['results', 'list', '--run', runId, '--all', '-o', file, '--resume'], { env: emu.env() });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(ndjson(readFileSync(file, 'utf8'))).toEqual(expected);
  });

  it('a sync keys the rows by their id: every row once, and a second sync inserts nothing', async () => {
    const db = join(tempDir('sq-intid-'), 'r.db');
    const sync = () =>
      sq(['results', 'sync', '--squid', NAME, '--to', `sqlite:${db}`, '--table', 'listings', '--json'], {
        env: emu.env(),
      });
    const first = await sync();
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ runs_synced: 1, inserted: COUNT, updated: 0 });
    const ids = sqliteQuery<{ sq_result_id: string }>(
      db,
      'SELECT sq_result_id FROM listings ORDER BY sq_result_id',
    ).map((r) => r.sq_result_id);
    expect(ids).toEqual(expected.map((r) => String(r.id)).sort());
    const again = await sync();
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ runs_synced: 0, inserted: 0 });
  });
});
