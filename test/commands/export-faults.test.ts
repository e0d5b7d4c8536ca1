// Nothing lost, nothing clobbered: an `--all` export either equals the fault-free export record for record, or exits
// non-zero (with -o, leaving no file at the target; whole pages may be kept aside, and then --resume completes the
// export exactly) — never exit 0 with less. Answers that are not pages, and pages cut short while their envelope says
// more follow, are injected by the emulator like any fault. sq runs in-process on the fake clock (retry and 429
// waits pass at once): this is the export's logic; the built binary's exports, stops and --resume are in
// test/e2e/results-resume.test.ts and test/e2e/results-export.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { type J, ndjson } from '../helpers/json.js';

// One and a half pages of 100: the last page is short, as most are.
const COUNT = 150;
const LANES = 5;
const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

interface Lane {
  emu: TestEmulator;
  runId: string;
  expected: J[];
}
const lanes: Lane[] = [];

beforeAll(async () => {
  // One emulator per lane, so seeds run side by side without sharing fault rules or their random draws.
  for (let i = 0; i < LANES; i++) {
    const emu = await startTestEmulator();
    const run = (await emu.control('POST', '/_emulator/generate', {
      squid: emu.squidId(DEMO_SQUIDS.headphones),
      results: COUNT,
    })) as J;
    const expected: J[] = [];
    for (let page = 1; expected.length < COUNT; page++)
      expected.push(...(await emu.api(`/v1/results?run=${String(run.id)}&page=${page}&limit=100`)).data);
    lanes.push({ emu, runId: String(run.id), expected });
  }
});
afterAll(async () => {
  await Promise.all(lanes.map((l) => l.emu.close()));
});

const exportTo = (lane: Lane, file: string, ...more: string[]) =>
  sq(['results', 'list', '--run', lane.runId, '--all', '-o', file, ...more], { env: lane.emu.env() });
/** What a failed `-o out.x` export may leave: nothing, or its whole pages aside for --resume; never the target. */
const keptAside = (name: string) => [`.${name}.sq-checkpoint`, `.${name}.sq-partial`];
const exportOut = (lane: Lane) =>
  sq(['results', 'list', '--run', lane.runId, '--all', '--format', 'ndjson'], { env: lane.emu.env() });

const RULES = [
  { action: 'status', status: 429, headers: { 'Retry-After': '0' }, probability: 0.12, count: 2 },
  { action: 'status', status: 503, probability: 0.12, count: 2 },
  { action: 'html', status: 502, probability: 0.08, count: 1 },
  { action: 'reset_mid_body', probability: 0.1, count: 2 },
  { action: 'truncate', probability: 0.08, count: 1 },
  { action: 'malformed', probability: 0.04, count: 1 },
  { action: 'status', status: 200, body: {}, probability: 0.04, count: 1 },
  { action: 'status', status: 200, body: { data: null }, probability: 0.04, count: 1 },
  { action: 'status', status: 200, body: null, probability: 0.03, count: 1 },
  { action: 'status', status: 200, body: { detail: 'Request was throttled.' }, probability: 0.03, count: 1 },
  { action: 'short_page', probability: 0.08, count: 1 },
].map((r) => ({ path: '/v1/results', ...r }));

describe('results list --all under faults', () => {
  it('for 20 seeds of mixed faults, every export equals the fault-free one or exits non-zero with no output file', async () => {
    const lane0 = lanes[0];
    const clean = await exportOut(lane0);
    expect(clean.code).toBe(0);
    expect(ndjson(clean.stdout)).toEqual(lane0.expected);

    const violations: string[] = [];
    const outcomes = { complete: 0, failed: 0, resumed: 0 };
    const check = (seed: number, how: string, ok: boolean, code: number, why: string) => {
      if (!ok) violations.push(`seed ${seed} ${how}: exit ${code}, ${why}`);
      else if (code === 0) outcomes.complete++;
      else outcomes.failed++;
    };
    await Promise.all(
      lanes.map(async (lane, i) => {
        for (const seed of SEEDS.filter((s) => s % LANES === i)) {
          const dir = tempDir('sq-faults-');
          const file = join(dir, 'out.ndjson');
          await lane.emu.faults(RULES, seed);
          const f = await exportTo(lane, file);
          const left = readdirSync(dir);
          if (f.code === 0)
            check(
              seed,
              '-o',
              left.length === 1 && JSON.stringify(ndjson(readFileSync(file, 'utf8'))) === JSON.stringify(lane.expected),
              0,
              'file differs',
            );
          else {
            const kept = left.length > 0;
            const okLeft = !kept || JSON.stringify([...left].sort()) === JSON.stringify(keptAside('out.ndjson'));
            check(
              seed,
              '-o',
              okLeft && /^error: /m.test(f.stderr) && (!kept || f.stderr.includes('--resume')),
              f.code,
              `left ${JSON.stringify(left)}; ${f.stderr}`,
            );
            if (kept && okLeft) {
              // Whole pages were kept: with the faults gone, --resume must complete the export record for record.
              await lane.emu.clearFaults();
              const r = await exportTo(lane, file, '--resume');
              const same =
                r.code === 0 &&
                JSON.stringify(readdirSync(dir)) === '["out.ndjson"]' &&
                JSON.stringify(ndjson(readFileSync(file, 'utf8'))) === JSON.stringify(lane.expected);
              if (!same)
                violations.push(
                  `seed ${seed} resume: exit ${r.code}, left ${JSON.stringify(readdirSync(dir))}; ${r.stderr}`,
                );
              else outcomes.resumed++;
            }
          }

          // The same seed again: the same faults, records to stdout as they arrive.
          await lane.emu.faults(RULES, seed);
          const o = await exportOut(lane);
          const got = ndjson(o.stdout);
          if (o.code === 0)
            check(seed, 'stdout', JSON.stringify(got) === JSON.stringify(lane.expected), 0, `${got.length} records`);
          // With --format ndjson the error itself is one JSON line on stderr.
          else
            check(
              seed,
              'stdout',
              JSON.stringify(got) === JSON.stringify(lane.expected.slice(0, got.length)) &&
                /^\{"error":/m.test(o.stderr),
              o.code,
              o.stderr,
            );
        }
        await lane.emu.clearFaults();
      }),
    );
    expect(violations).toEqual([]);
    // The seeds exercise both outcomes: exports that recover, and exports that must stop.
    expect(outcomes.complete).toBeGreaterThan(0);
    expect(outcomes.failed).toBeGreaterThan(0);
    expect(outcomes.resumed).toBeGreaterThan(0);
  }, 120_000);

  it.each([
    [{}, 'expected a page of records, got an object without data'],
    [{ data: null }, 'expected a page of records, got data that is null, not a list'],
    [
      { detail: 'Request was throttled.' },
      'expected a page of records, got an object without data ("Request was throttled.")',
    ],
  ])(
    'a 200 answer %j on page 2 exits 1 naming the page; -o leaves no file, only page 1 aside for --resume',
    async (body, what) => {
      const lane = lanes[0];
      const rules = [
        { path: '/v1/results', action: 'delay', ms: 0, count: 1 },
        { path: '/v1/results', action: 'status', status: 200, body, count: 1 },
      ];
      await lane.emu.faults(rules);
      const dir = tempDir('sq-faults-');
      const r = await exportTo(lane, join(dir, 'out.csv'));
      expect(r.code).toBe(1);
      expect(r.stderr.split('\n').slice(-2)).toEqual([
        `error: GET /v1/results page 2 (HTTP 200): ${what} — stopping after 100 of 150 records`,
        '',
      ]);
      expect(r.stderr).toContain('To continue from page 2, run:');
      expect(readdirSync(dir).sort()).toEqual(keptAside('out.csv'));

      await lane.emu.faults(rules);
      const o = await exportOut(lane);
      expect(o.code).toBe(1);
      expect(ndjson(o.stdout)).toEqual(lane.expected.slice(0, 100));
      await lane.emu.clearFaults();
    },
  );

  it('a page cut short in the middle exits 1 and -o leaves no file', async () => {
    const lane = lanes[0];
    await lane.emu.faults([{ path: '/v1/results', action: 'short_page', count: 1 }]);
    const dir = tempDir('sq-faults-');
    const r = await exportTo(lane, join(dir, 'out.ndjson'));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: GET /v1/results page 1 (HTTP 200): 50 records on a page of 100, but its next link points to another page — stopping after 0 of 150 records\n',
    );
    expect(readdirSync(dir)).toEqual([]);
    await lane.emu.clearFaults();
  });
});

describe('results list --all -o, 1,000 records under 429 bursts (Retry-After 1), 503s and a reset mid-body', () => {
  it('gives the same records, and every fault fired', async () => {
    const lane = lanes[0];
    const run = (await lane.emu.control('POST', '/_emulator/generate', {
      squid: lane.emu.squidId(DEMO_SQUIDS.headphones),
      results: 1000,
    })) as J;
    const expected: J[] = [];
    for (let page = 1; expected.length < 1000; page++)
      expected.push(...(await lane.emu.api(`/v1/results?run=${String(run.id)}&page=${page}&limit=100`)).data);
    await lane.emu.faults(
      [
        {
          path: '/v1/results',
          action: 'status',
          status: 429,
          headers: { 'Retry-After': '1' },
          count: 3,
          probability: 0.3,
        },
        { path: '/v1/results', action: 'status', status: 503, count: 3, probability: 0.3 },
        { path: '/v1/results', action: 'reset_mid_body', count: 2, probability: 0.3 },
      ],
      7,
    );
    await lane.emu.clearRequests();
    const dir = tempDir('sq-faults-');
    const file = join(dir, 'faulty.ndjson');
    const r = await sq(['results', 'list', '--run', String(run.id), '--all', '--format', 'ndjson', '-o', file], {
      env: lane.emu.env(),
    });
    expect(r.stderr).toBe(`Wrote 1,000 records to ${file} (ndjson)\n`);
    expect(r.code).toBe(0);
    expect(ndjson(readFileSync(file, 'utf8'))).toEqual(expected);
    const statuses = (await lane.emu.requests()).map((x) => x.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    expect(statuses.filter((s) => s === 503)).toHaveLength(3);
    const faults = (await lane.emu.control('GET', '/_emulator/faults')) as J;
    const rules = (Array.isArray(faults) ? faults : faults.rules) as J[];
    expect(rules.map((x) => x.remaining ?? x.count)).toEqual([0, 0, 0]);
    await lane.emu.clearFaults();
  });
});

// Issue 25 item 2: a full page is never the end while any of next, total_pages or total_results says more; where the
// signals disagree and reading stops, the export exits 1 with its pages kept for --resume, and a listing exits 1 too.
describe('results list --all when the counters lie about whole pages', () => {
  const MANY = 500;
  let lane: Lane;
  let runId: string;
  let expected: J[];
  beforeAll(async () => {
    lane = lanes[0];
    const run = (await lane.emu.control('POST', '/_emulator/generate', {
      squid: lane.emu.squidId(DEMO_SQUIDS.headphones),
      results: MANY,
    })) as J;
    runId = String(run.id);
    expected = [];
    for (let page = 1; expected.length < MANY; page++)
      expected.push(...(await lane.emu.api(`/v1/results?run=${runId}&page=${page}&limit=100`)).data);
  });
  const asked = async () =>
    (await lane.emu.requests())
      .filter((r) => r.path === '/v1/results')
      .map((r) => Number((r.query as Record<string, string>).page));
  const exportMany = (file: string, ...more: string[]) =>
    sq(['results', 'list', '--run', runId, '--all', '-o', file, ...more], { env: lane.emu.env() });

  it('an understated total_results (every page says 200) is read to its end while next and total_pages lead on', async () => {
    await lane.emu.faults([{ path: '/v1/results', action: 'envelope', body: { total_results: 200 } }]);
    await lane.emu.control('DELETE', '/_emulator/requests');
    const dir = tempDir('sq-faults-');
    const r = await exportMany(join(dir, 'out.ndjson'));
    expect(r.stderr).toBe(`Wrote ${MANY} records to ${join(dir, 'out.ndjson')} (ndjson)\n`);
    expect(r.code).toBe(0);
    expect(ndjson(readFileSync(join(dir, 'out.ndjson'), 'utf8'))).toEqual(expected);
    expect(await asked()).toEqual([1, 2, 3, 4, 5]);
    await lane.emu.clearFaults();
  });

  it('next: null on a full page while both counters say more: reading goes on, every record, exit 0', async () => {
    await lane.emu.faults([
      { path: '/v1/results', action: 'delay', ms: 0, count: 1 },
      { path: '/v1/results', action: 'envelope', body: { next: null }, count: 1 },
    ]);
    const o = await sq(['results', 'list', '--run', runId, '--all', '--format', 'ndjson'], { env: lane.emu.env() });
    expect(o.code).toBe(0);
    expect(o.stderr).toBe('');
    expect(ndjson(o.stdout)).toEqual(expected);
    await lane.emu.clearFaults();
  });

  it('signals that disagree (next: null, total_pages 2, total_results 500): -o exits 1 keeping 3 pages, --resume completes; a listing exits 1', async () => {
    const lie = [{ path: '/v1/results', action: 'envelope', body: { next: null, total_pages: 2 } }];
    await lane.emu.faults(lie);
    const dir = tempDir('sq-faults-');
    const file = join(dir, 'out.csv');
    const r = await exportMany(file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'error: GET /v1/results page 3 (HTTP 200): the page is full and total_results says 500, but ' +
        "next is null and total_pages says 2: the listing's signals disagree — stopping after 300 of " +
        '500 records',
    );
    expect(r.stderr).toContain('Kept 3 whole pages (300 of 500 records)');
    expect(readdirSync(dir).sort()).toEqual(keptAside('out.csv'));

    const o = await sq(['results', 'list', '--run', runId, '--all', '--format', 'ndjson'], { env: lane.emu.env() });
    expect(o.code).toBe(1);
    expect(ndjson(o.stdout)).toEqual(expected.slice(0, 300));
    expect(o.stderr).toContain("the listing's signals disagree");

    await lane.emu.clearFaults();
    await lane.emu.control('DELETE', '/_emulator/requests');
    const clean = join(dir, 'clean.csv');
    expect((await exportMany(clean)).code).toBe(0);
    const resumed = await exportMany(file, '--resume');
    expect(resumed.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(clean, 'utf8'));
  });

  it('the emulator refuses an envelope rule without fields, or one that would replace data', async () => {
    await expect(lane.emu.faults([{ action: 'envelope' }])).rejects.toThrow(
      'rules[0].body must be an object of envelope fields',
    );
    await expect(lane.emu.faults([{ action: 'envelope', body: { data: [] } }])).rejects.toThrow('without data');
  });
});
