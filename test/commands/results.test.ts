// results list in-process against the real emulator: scope validation, stable columns, formats, -o files, warnings.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { csvLine } from '../../src/output/formats.js';
import { tempDir } from '../helpers/fs.js';
import { type J, ndjson } from '../helpers/json.js';

const emu = useEmulator({ each: 'clear' });
const api = (path: string): Promise<J> => emu.api(path);
let paris: J;
let runId: string;
let attrs: string[];

async function allResults(query: string): Promise<J[]> {
  const out: J[] = [];
  for (let page = 1; ; page++) {
    const p = await api(`/v1/results?${query}&page=${page}&limit=100`);
    out.push(...p.data);
    if (p.data.length < 100) return out;
  }
}
const cell = (v: unknown) =>
  v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

beforeAll(async () => {
  paris = (await api('/v1/squids?name=Paris&limit=100')).data.find((s: J) => s.name === 'Paris restaurants');
  runId = (await api(`/v1/runs?squid=${paris.id}&limit=1`)).data[0].id;
  const crawler = (await api(`/v1/squids/${paris.id}`)).crawler;
  attrs = (await api(`/v1/crawlers/${crawler}/attributes`)).data.map((a: J) => a.name);
});
beforeEach(async () => {
  await emu.control('POST', '/_emulator/config', { freePlan: false });
  await emu.clearRequests();
});

describe('results list: scope', () => {
  it.each([
    [['results', 'list'], 'pass exactly one of --squid or --run (neither was given)'],
    [['results', 'list', '--squid', 'a', '--run', 'b'], '--squid and --run cannot be used together'],
    [['results', 'list', '--run', 'b', '--all', '--limit', '3'], '--all and --limit cannot be used together'],
    [['results', 'list', '--run', 'b', '--limit', '0'], '--limit must be an integer from 1'],
    [['results', 'list', '--run', 'b', '-o', 'x.txt', '--format', 'table'], '--format table is for terminals'],
    [['results', 'list', '--run', 'b', '-o', '/nonexistent-dir/x.csv'], 'directory "/nonexistent-dir" does not exist'],
  ])('%j exits 2 before any request', async (args, msg) => {
    const r = await sq(args, { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(msg);
    expect(await emu.requestLines()).toEqual([]);
  });
});

describe('results list: output', () => {
  it('TSV of a run: id, squid, run, scraping_time then the crawler attributes; missing keys are empty cells', async () => {
    const expected = (await allResults(`run=${runId}`)).slice(0, 5);
    await emu.clearRequests();
    const r = await sq(['results', 'list', '--run', runId, '--limit', '5'], { env: emu.env() });
    expect(r.code).toBe(0);
    const cols = [
      'id',
      'squid',
      'run',
      'scraping_time',
      ...attrs.filter((a) => !['id', 'squid', 'run', 'scraping_time'].includes(a)),
    ];
    const lines = r.stdout.split('\n').slice(0, -1);
    expect(lines[0]).toBe(cols.join('\t'));
    expect(lines.slice(1)).toEqual(expected.map((row) => cols.map((c) => cell(row[c])).join('\t')));
    // heterogeneous rows: at least one row lacks a key another row has
    expect(expected.some((row) => cols.some((c) => !(c in row)))).toBe(true);
    const total = (await api(`/v1/results?run=${runId}&limit=1`)).total_results;
    expect(r.stderr).toBe(`Showing 5 of ${total} results — use --all or --limit N to see more.\n`);
    const crawler = (await api(`/v1/squids/${paris.id}`)).crawler;
    const got = (await emu.requests()).slice(0, 4).map((x) => `${x.method} ${x.path} ${JSON.stringify(x.query)}`);
    expect(got).toEqual([
      `GET /v1/runs/${runId} {}`,
      `GET /v1/squids/${paris.id} {}`,
      `GET /v1/crawlers/${crawler}/attributes {}`,
      `GET /v1/results ${JSON.stringify({ run: runId, page: '1', limit: '5' })}`,
    ]);
  });

  it('--json prints the records exactly, with one /v1/results request per 100 and nothing else', async () => {
    const expected = await allResults(`squid=${paris.id}`);
    await emu.clearRequests();
    const r = await sq(['results', 'list', '--squid', paris.id, '--all', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    expect(await emu.requestLines()).toEqual(Array(Math.ceil((expected.length + 1) / 100)).fill('GET /v1/results'));
    expect(r.stderr).toBe('');
  });

  it('--task keeps only that task', async () => {
    // Result rows carry no task (the get-results sample): the run's tasks name it.
    const task = (await api(`/v1/runtasks?run=${runId}`)).data[0].task;
    const expected = await allResults(`run=${runId}&task=${task}`);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan((await allResults(`run=${runId}`)).length);
    const r = await sq(['results', 'list', '--run', runId, '--task', task, '--format', 'ndjson'], { env: emu.env() });
    expect(ndjson(r.stdout)).toEqual(expected);
  });

  it('without the crawler attributes, the header is the union of the first page keys in first-seen order', async () => {
    const crawler = (await api(`/v1/squids/${paris.id}`)).crawler;
    const rows = (await allResults(`run=${runId}`)).slice(0, 100);
    await emu.faults([{ path: `/v1/crawlers/${crawler}/attributes`, action: 'status', status: 404 }]);
    const r = await sq(['results', 'list', '--run', runId, '--format', 'csv'], { env: emu.env() });
    expect(r.code).toBe(0);
    const keys: string[] = ['id', 'squid', 'run', 'scraping_time'];
    for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k) && k !== 'object') keys.push(k);
    expect(r.stdout.split('\n')[0]).toBe(keys.join(','));
    expect(r.stdout).toBe(csvLine(keys) + rows.map((row) => csvLine(keys.map((k) => cell(row[k])))).join(''));
  });

  it('-o FILE writes only to the file (format from the extension), mode 0600, summary on stderr', async () => {
    const dir = tempDir('sq-res-');
    const file = join(dir, 'out.csv');
    const r = await sq(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const rows = await allResults(`run=${runId}`);
    expect(r.stderr).toBe(`Wrote ${rows.length} records to ${file} (csv)\n`);
    const piped = await sq(['results', 'list', '--run', runId, '--all', '--format', 'csv'], { env: emu.env() });
    expect(readFileSync(file, 'utf8')).toBe(piped.stdout);
    expect(readdirSync(dir)).toEqual(['out.csv']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('an error mid-export leaves no target file: only a resumable partial and its checkpoint, or nothing for JSON', async () => {
    const dir = tempDir('sq-res-');
    await emu.control('POST', '/_emulator/generate', { squid: paris.id, results: 250 });
    const big = (await api(`/v1/runs?squid=${paris.id}&limit=1`)).data[0].id;
    // page 1 answers, every later page fails with a non-retried 400
    const faults = [
      { path: '/v1/results', action: 'delay', ms: 1, count: 1 },
      { path: '/v1/results', action: 'status', status: 400 },
    ];
    await emu.faults(faults);
    const r = await sq(['results', 'list', '--run', big, '--all', '-o', join(dir, 'x.ndjson')], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['.x.ndjson.sq-checkpoint', '.x.ndjson.sq-partial']);
    // a JSON array cannot be continued, so nothing of it is kept
    await emu.faults(faults);
    const j = await sq(['results', 'list', '--run', big, '--all', '-o', join(dir, 'x.json')], { env: emu.env() });
    expect(j.code).toBe(1);
    expect(readdirSync(dir).filter((f) => f.includes('x.json'))).toEqual([]);
  });

  it('the free-plan warning goes to stderr, the capped records to stdout', async () => {
    await emu.control('POST', '/_emulator/config', { freePlan: true });
    const r = await sq(['results', 'list', '--squid', paris.id, '--all', '--format', 'ndjson'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(50);
    expect(r.stderr).toMatch(/^warning: Free plan: only 50 results returned/);
  });

  it('the free-plan cap is not a fault: -o writes the capped records, exit 0, the warning shown even with --quiet', async () => {
    await emu.control('POST', '/_emulator/config', { freePlan: true });
    try {
      const file = join(tempDir('sq-res-'), 'capped.ndjson');
      const r = await sq(['results', 'list', '--squid', paris.id, '--all', '-o', file, '--quiet'], { env: emu.env() });
      expect(r.code).toBe(0);
      expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(50);
      expect(r.stderr).toBe(
        'warning: Free plan: only 50 results returned. Upgrade at https://app.lobstr.io/dashboard/pricing\n',
      );
    } finally {
      await emu.control('POST', '/_emulator/config', { freePlan: false });
    }
  });
});
