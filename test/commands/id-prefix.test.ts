// <run> and <task> accept a unique id prefix (issue 11 #5): looked up in every squid's runs/tasks (or --squid's),
// ambiguous → exit 2 listing the candidates and nothing written, unknown → exit 3 with the nearest ids.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { tempDir } from '../helpers/fs.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });
let parisRuns: J[];

beforeEach(async () => {
  parisRuns = (await emu.api(`/v1/runs?squid=${emu.squidId(DEMO_SQUIDS.paris)}&limit=100`)).data;
  await emu.clearRequests();
});

const twins = (prefix: string, extra: J = {}) => ({
  total_results: 2,
  total_pages: 1,
  page: 1,
  limit: 100,
  next: null,
  data: [1, 2].map((n) => ({
    id: `${prefix}${'0'.repeat(31 - prefix.length)}${n}`,
    status: 'running',
    created_at: `2026-01-0${n}T00:00:00`,
    ...extra,
  })),
});

describe('results list: --run and --task take the prefixes the tables show', () => {
  it("--run 8 characters lists that run's results; --task narrows them to one task; both looked up with GETs only", async () => {
    const run = parisRuns.find((r) => r.status === 'done') ?? parisRuns[0];
    const full = await sq(['results', 'list', '--run', run.id, '--all', '--format', 'ndjson'], { env: emu.env() });
    expect(full.code, full.stderr).toBe(0);
    const byId = await sq(['results', 'list', '--run', String(run.id).slice(0, 8), '--all', '--format', 'ndjson'], {
      env: emu.env(),
    });
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stdout).toBe(full.stdout);
    expect(byId.stdout.length).toBeGreaterThan(0);
    const tasks = (await emu.api(`/v1/tasks?squid=${emu.squidId(DEMO_SQUIDS.paris)}&limit=100`)).data as J[];
    const task = tasks[0];
    await emu.clearRequests();
    const one = await sq(
      [
        'results',
        'list',
        '--squid',
        DEMO_SQUIDS.paris,
        '--task',
        String(task.id).slice(0, 8),
        '--all',
        '--format',
        'ndjson',
      ],
      { env: emu.env() },
    );
    expect(one.code, one.stderr).toBe(0);
    const results = (await emu.requests()).filter((q) => q.path === '/v1/results');
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((q) => (q.query as Record<string, string>).task === task.id)).toBe(true);
    expect((await emu.requests()).every((q) => q.method === 'GET')).toBe(true);
  });

  it('an unknown --run prefix is exit 3 naming the run, not a silent empty list', async () => {
    const r = await sq(['results', 'list', '--run', 'abcdef12'], { env: emu.env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no run matches "abcdef12"');
  });
});

describe('runs: id prefixes', () => {
  it('a unique prefix resolves across squids, reading lists only, then asks for the full id', async () => {
    const run = parisRuns[0];
    const r = await sq(['runs', 'get', String(run.id).slice(0, 8), '--json'], { env: emu.env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(run.id);
    const seen = await emu.requestLines();
    expect(seen[0]).toBe('GET /v1/squids');
    expect(seen.slice(1, -1).every((l) => l === 'GET /v1/runs')).toBe(true);
    expect(seen.at(-1)).toBe(`GET /v1/runs/${run.id}`);
  });

  it('stats, tasks and download take the prefix too; --squid narrows the search to one squid', async () => {
    const run = parisRuns[0];
    const p = String(run.id).slice(0, 6).toUpperCase();
    const stats = await sq(['runs', 'stats', p, '--squid', DEMO_SQUIDS.paris, '--json'], { env: emu.env() });
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout).id).toBe(run.id);
    const seen = await emu.requestLines();
    expect(seen.filter((l) => l === 'GET /v1/runs')).toHaveLength(1);
    const tasks = await sq(['runs', 'tasks', p, '--json'], { env: emu.env() });
    expect(tasks.code).toBe(0);
    expect(JSON.parse(tasks.stdout).length).toBeGreaterThan(0);
    const dl = await sq(['runs', 'download', p, '-o', '-'], { env: emu.env() });
    expect(dl.code).toBe(0);
    expect(dl.stdout.length).toBeGreaterThan(0);
  });

  it('an ambiguous prefix is exit 2 listing the candidates, and abort sends no POST', async () => {
    await emu.faults([{ method: 'GET', path: '/v1/runs', action: 'status', status: 200, body: twins('beef') }]);
    const r = await sq(['runs', 'abort', 'beef', '--yes'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"beef" is ambiguous: 2 runs match it; pass a full id or a longer prefix');
    expect(r.stderr).toMatch(/beef0{27}1 {2}running {2}2026-01-01T00:00:00 {2}squid "/);
    expect(r.stderr).toContain('beef0000000000000000000000000002');
    expect((await emu.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('an unknown prefix is exit 3 with "did you mean" naming the nearest id', async () => {
    const id = String(parisRuns[0].id);
    const typo = id.slice(0, 7) + (id[7] === '0' ? '1' : '0');
    const r = await sq(['runs', 'get', typo], { env: emu.env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`no run matches "${typo}" \\(searched \\d+ runs across \\d+ squids by id\\)`));
    expect(r.stderr).toContain('did you mean:');
    expect(r.stderr).toContain(`  ${id}  `);
  });

  it('a prefix shorter than 4 characters or not hex goes to the API as given (no list is read)', async () => {
    const r = await sq(['runs', 'get', 'abc'], { env: emu.env() });
    expect(r.code).toBe(3);
    expect(await emu.requestLines()).toEqual(['GET /v1/runs/abc']);
  });

  it('a search that would take more than 30 requests asks for the full id or --squid instead', {
    timeout: 40_000,
  }, async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      id: `${String(i).padStart(4, '0')}${'a'.repeat(28)}`,
      name: `s${i}`,
      total_runs: 1,
    }));
    await emu.faults([
      {
        method: 'GET',
        path: '/v1/squids',
        action: 'status',
        status: 200,
        body: { total_results: 40, total_pages: 1, page: 1, limit: 100, next: null, data: many },
      },
      { method: 'GET', path: '/v1/runs', action: 'status', status: 200, body: twins('beef') },
    ]);
    const r = await sq(['runs', 'get', 'feed'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'finding it would take more than 30 requests; pass the full id or narrow the search with --squid',
    );
    expect(await emu.requestLines()).toHaveLength(30);
  });
});

describe('tasks: id prefixes', () => {
  it("tasks get resolves a unique prefix from the squids' task lists", async () => {
    const task = (await emu.api(`/v1/tasks?squid=${emu.squidId(DEMO_SQUIDS.paris)}`)).data[0];
    await emu.clearRequests();
    const r = await sq(['tasks', 'get', String(task.id).slice(0, 8), '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(task.id);
    expect((await emu.requestLines()).at(-1)).toBe(`GET /v1/tasks/${task.id}`);
  });

  it('tasks delete with an ambiguous prefix is exit 2 and sends no DELETE', async () => {
    await emu.faults([
      {
        method: 'GET',
        path: '/v1/tasks',
        action: 'status',
        status: 200,
        body: twins('cafe', { params: { url: 'https://x.test/' } }),
      },
    ]);
    const r = await sq(['tasks', 'delete', 'cafe', '--yes'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"cafe" is ambiguous: 2 tasks match it');
    expect(r.stderr).toContain('cafe0000000000000000000000000001  https://x.test/');
    expect((await emu.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('tasks delete resolves a unique prefix and deletes the full id', async () => {
    const task = (await emu.api(`/v1/tasks?squid=${emu.squidId(DEMO_SQUIDS.paris)}`)).data[0];
    await emu.clearRequests();
    const r = await sq(['tasks', 'delete', String(task.id).slice(0, 10), '--yes', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect((await emu.requestLines()).at(-1)).toBe(`DELETE /v1/tasks/${task.id}`);
  });
});

describe('every id a command takes works as the 8-character prefix the tables show', () => {
  const kinds: [string, (ids: Record<string, string>) => string[]][] = [
    ['squid argument', (i) => ['squids', 'get', i.squid]],
    ['--squid of runs list', (i) => ['runs', 'list', '--squid', i.squid]],
    ['--squid of tasks list', (i) => ['tasks', 'list', '--squid', i.squid]],
    ['--squid of delivery show', (i) => ['delivery', 'show', '--squid', i.squid]],
    ['--squid of results list', (i) => ['results', 'list', '--squid', i.squid, '--limit', '3']],
    ['crawler argument', (i) => ['crawlers', 'get', i.crawler]],
    ['run argument', (i) => ['runs', 'get', i.run]],
    ['run argument of runs tasks', (i) => ['runs', 'tasks', i.run]],
    ['--run of results list', (i) => ['results', 'list', '--run', i.run, '--limit', '3']],
    ['task argument', (i) => ['tasks', 'get', i.task]],
    [
      '--task of results list',
      (i) => ['results', 'list', '--squid', DEMO_SQUIDS.paris, '--task', i.task, '--limit', '3'],
    ],
    ['account argument', (i) => ['accounts', 'get', i.account]],
    ['upload id of tasks upload-status', (i) => ['tasks', 'upload-status', i.upload]],
  ];

  it.each(kinds)('%s', async (_kind, argsOf) => {
    emu.expectWrites('POST /v1/tasks/upload');
    const cache = tempDir('sq-prefix-cache-');
    const env = emu.env({ SQ_CACHE_DIR: cache });
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const csv = join(cache, 'tasks.csv');
    writeFileSync(csv, 'url\nhttps://www.google.com/maps/search/prefix+test\n');
    const upload = await sq(['tasks', 'upload', '--squid', squid, csv, '--json'], { env });
    expect(upload.code, upload.stderr).toBe(0);
    const ids: Record<string, string> = {
      squid,
      crawler: String((await emu.api(`/v1/squids/${squid}`)).crawler),
      run: String(parisRuns.find((r) => r.status === 'done')?.id ?? parisRuns[0].id),
      task: String((await emu.api(`/v1/tasks?squid=${squid}&limit=100`)).data[0].id),
      account: String((await emu.api('/v1/accounts')).data[0].id),
      upload: String(JSON.parse(upload.stdout).id),
    };
    for (const [k, v] of Object.entries(ids)) expect(v, k).toMatch(/^[0-9a-f]{32}$/);
    const short = Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, v.slice(0, 8)]));
    const full = await sq([...argsOf(ids), '--json'], { env });
    expect(full.code, full.stderr).toBe(0);
    const byPrefix = await sq([...argsOf(short), '--json'], { env });
    expect(byPrefix.code, byPrefix.stderr).toBe(0);
    expect(byPrefix.stdout).toBe(full.stdout);
  });

  it('an upload prefix sq did not see started is exit 3 saying why, and the full id still works', async () => {
    emu.expectWrites('POST /v1/tasks/upload');
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const cache = tempDir('sq-prefix-cache-');
    const csv = join(cache, 'tasks.csv');
    writeFileSync(csv, 'url\nhttps://www.google.com/maps/search/prefix+test\n');
    const upload = await sq(['tasks', 'upload', '--squid', squid, csv, '--json'], {
      env: emu.env({ SQ_CACHE_DIR: cache }),
    });
    const id = String(JSON.parse(upload.stdout).id);
    // Another machine (another cache directory) never saw it.
    const other = emu.env({ SQ_CACHE_DIR: tempDir('sq-prefix-cache-') });
    const r = await sq(['tasks', 'upload-status', id.slice(0, 8)], { env: other });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`no upload id starts with "${id.slice(0, 8)}"`);
    expect(r.stderr).toContain('pass the full id');
    expect((await sq(['tasks', 'upload-status', id, '--json'], { env: other })).code).toBe(0);
  });
});
