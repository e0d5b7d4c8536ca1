// runs verbs in-process against the real emulator: exact requests received, exact output, validation before requests.
import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'clear' });
const api = (path: string, init?: { method?: string; body?: unknown }): Promise<J> => emu.api(path, init);
let squids: Record<string, string>;

const reqs = async () => (await emu.requests()).map((r) => `${r.method} ${r.path}${qs(r.query)}`);
function qs(q: string | Record<string, string>): string {
  if (typeof q === 'string') return q ? (q.startsWith('?') ? q : `?${q}`) : '';
  const s = new URLSearchParams(q).toString();
  return s ? `?${s}` : '';
}

beforeAll(async () => {
  const list = await api('/v1/squids?limit=100');
  squids = Object.fromEntries(list.data.map((s: J) => [s.name, s.id]));
});
describe('runs list', () => {
  it('prints the squid runs newest first as TSV with the run columns, resolving the squid by name', async () => {
    const paris = squids['Paris restaurants'];
    const expected = (await api(`/v1/runs?squid=${paris}&limit=100`)).data as J[];
    expect(expected.length).toBeGreaterThan(1);
    await emu.clearRequests();
    const r = await sq(['runs', 'list', '--squid', 'Paris restaurants'], { env: emu.env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id\tstatus\ttotal_results\tcredit_used\tduration\tstarted_at\tended_at\tdone_reason');
    expect(lines.slice(1).map((l) => l.split('\t')[0])).toEqual(expected.map((x) => x.id));
    const first = lines[1].split('\t');
    expect(first[1]).toBe(expected[0].status);
    expect(first[2]).toBe(String(expected[0].total_results));
    expect(first[4]).toMatch(/^\d+:\d\d:\d\d$/);
    const got = await reqs();
    expect(got[got.length - 1]).toBe(`GET /v1/runs?squid=${paris}&page=1&limit=20`);
  });

  it('--limit 1 shows one run and says how many exist on stderr', async () => {
    const paris = squids['Paris restaurants'];
    const r = await sq(['runs', 'list', '--squid', paris, '--limit', '1', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toHaveLength(1);
    expect(await reqs()).toEqual([`GET /v1/runs?squid=${paris}&page=1&limit=1`]);
    const total = (await api(`/v1/runs?squid=${paris}&limit=1`)).total_results;
    expect(r.stderr).toBe(`Showing 1 of ${total} runs — use --all or --limit N to see more.\n`);
  });

  it.each([
    [['runs', 'list', '--all'], '--all needs --squid'],
    [['runs', 'list', '--page', '2'], '--page needs --squid'],
    [['runs', 'list', '--limit', '101'], '--limit must be at most 100 without --squid'],
    [['runs', 'list', '--squid', 'x', '--all', '--limit', '5'], '--all and --limit cannot be used together'],
    [['runs', 'list', '--squid', 'x', '--page', '0'], '--page must be an integer from 1'],
    [['runs', 'list', '--squid', 'x', '--page', '2', '--limit', '101'], '--limit must be an integer from 1 to 100'],
  ])('%j is a usage error before any request', async (args, msg) => {
    const r = await sq(args, { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(msg);
    expect(await reqs()).toEqual([]);
  });
});

describe('runs get, stats, tasks', () => {
  let runId: string;
  beforeAll(async () => {
    runId = (await api(`/v1/runs?squid=${squids['Paris restaurants']}&limit=1`)).data[0].id;
  });

  it('get --json prints the API record', async () => {
    const expected = await api(`/v1/runs/${runId}`);
    await emu.clearRequests();
    const r = await sq(['runs', 'get', runId, '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    expect(await reqs()).toEqual([`GET /v1/runs/${runId}`]);
  });

  it('get of an unknown run exits 3 with the API message', async () => {
    const r = await sq(['runs', 'get', '0'.repeat(32)], { env: emu.env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Run not found');
  });

  it('stats --json prints the stats record ("NN%" and eta kept as sent)', async () => {
    const expected = await api(`/v1/runs/${runId}/stats`);
    const r = await sq(['runs', 'stats', runId, '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout);
    expect(got.percent_done).toBe(expected.percent_done);
    expect({ ...got, updated_at: null }).toEqual({ ...expected, updated_at: null });
  });

  it('tasks lists the run tasks as TSV', async () => {
    const expected = (await api(`/v1/runs/${runId}/tasks?limit=100`)).data as J[];
    await emu.clearRequests();
    const r = await sq(['runs', 'tasks', runId], { env: emu.env() });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id\ttask\tstatus\tlast_result\ttotal_results\tstarted_at\tended_at\tdone_reason');
    expect(lines.slice(1)).toEqual(
      expected.map((t) =>
        [t.id, t.task, t.status, t.last_result, t.total_results, t.started_at, t.ended_at, t.done_reason]
          .map((v) => (v ?? '') + '')
          .join('\t'),
      ),
    );
    expect(await reqs()).toEqual([`GET /v1/runs/${runId}/tasks?page=1&limit=100`]);
  });

  it('tasks falls back to /v1/runtasks?run= when /runs/{run}/tasks answers 404', async () => {
    await emu.faults([{ method: 'GET', path: `/v1/runs/${runId}/tasks`, action: 'status', status: 404 }]);
    const r = await sq(['runs', 'tasks', runId, '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    const ids = JSON.parse(r.stdout).map((t: J) => t.id);
    await emu.clearFaults();
    expect(ids).toEqual((await api(`/v1/runtasks?run=${runId}&limit=100`)).data.map((t: J) => t.id));
    expect((await reqs()).slice(0, 2)).toEqual([
      `GET /v1/runs/${runId}/tasks?page=1&limit=100`,
      `GET /v1/runtasks?run=${runId}&page=1&limit=100`,
    ]);
  });
});

describe('runs abort', () => {
  async function freshRun(): Promise<string> {
    const run = await api('/v1/runs', { method: 'POST', body: { squid: squids['Amazon headphones'] } });
    expect(run.id).toBeTruthy();
    await emu.clearRequests();
    return run.id;
  }

  it('without a terminal and without --yes is a usage error naming --yes, and sends nothing', async () => {
    const id = await freshRun();
    const r = await sq(['runs', 'abort', id], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(await reqs()).toEqual([]);
    await api(`/v1/runs/${id}/abort`, { method: 'POST' });
  });

  it('--dry-run prints the request and sends nothing', async () => {
    const id = await freshRun();
    const r = await sq(['runs', 'abort', id, '--dry-run'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`POST /v1/runs/${id}/abort\n`);
    expect(r.stderr).toBe('Dry run: nothing was sent.\n');
    expect(await reqs()).toEqual([]);
    await api(`/v1/runs/${id}/abort`, { method: 'POST' });
  });

  it('--yes aborts: one POST, the run record on stdout, and the run ends aborted', async () => {
    const id = await freshRun();
    const r = await sq(['runs', 'abort', id, '--yes', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    const rec = JSON.parse(r.stdout);
    expect(rec.id).toBe(id);
    expect(rec.done_reason).toBe('aborted');
    expect(await reqs()).toEqual([`POST /v1/runs/${id}/abort`]);
    await emu.advance(10_000);
    expect((await api(`/v1/runs/${id}`)).status).toBe('aborted');
  });
});

/** The reads and the estimate the spending guard makes before a start. */
const notGuard = (l: string) => !/ \/v1\/(squid\/estimate|user\/balance|plans\/auto-reset)$/.test(l);

describe('runs start', () => {
  it('prints the new run and sends exactly one POST with the resolved squid', async () => {
    const squid = squids['Paris restaurants'];
    await emu.advance(3_600_000); // whatever ran before has finished
    await emu.clearRequests();
    const r = await sq(['runs', 'start', '--squid', squid, '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    const run = JSON.parse(r.stdout);
    expect(run.squid).toBe(squid);
    expect(run.status).toBe('pending');
    // The estimate and the account's side first (the cost line on stderr, whether it charges the card), then one start.
    const got = await emu.requests();
    expect(got.map((x) => `${x.method} ${x.path}`).sort()).toEqual(
      ['GET /v1/plans/auto-reset', 'GET /v1/squids', 'GET /v1/user/balance', 'POST /v1/runs', 'POST /v1/squid/estimate']
        .filter((l) => got.some((x) => `${x.method} ${x.path}` === l))
        .sort(),
    );
    expect(got.filter((x) => x.path === '/v1/runs').map((x) => x.body)).toEqual([{ squid }]);
    expect(got.at(-1)?.path).toBe('/v1/runs');
    expect(r.stderr).toMatch(/^estimated \d+ credits \(base \d+.*\), sets off no reset$/m);
  });

  it('--dry-run sends no POST', async () => {
    const r = await sq(['runs', 'start', '--squid', squids['Paris restaurants'], '--dry-run'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`POST /v1/runs\n${JSON.stringify({ squid: squids['Paris restaurants'] }, null, 2)}\n`);
    expect((await reqs()).filter((x) => x.startsWith('POST'))).toEqual([]);
  });

  it('is not retried after a reset mid-body: one POST, a run exists, recent runs listed on stderr, exit 1', async () => {
    const squid = squids['Amazon headphones'];
    await emu.advance(3_600_000);
    const before = (await api(`/v1/runs?squid=${squid}&limit=100`)).data.map((r: J) => r.id);
    await emu.clearRequests();
    await emu.faults([{ method: 'POST', path: '/v1/runs', action: 'reset_mid_body', count: 5 }]);
    const r = await sq(['runs', 'start', '--squid', squid], { env: emu.env() });
    await emu.clearFaults();
    expect(r.code).toBe(1);
    const got = await emu.requests();
    expect(got.filter((x) => x.method === 'POST' && x.path === '/v1/runs')).toHaveLength(1);
    const after = (await api(`/v1/runs?squid=${squid}&limit=100`)).data.map((r: J) => r.id);
    const started = after.filter((id: string) => !before.includes(id));
    expect(started).toHaveLength(1);
    expect(r.stderr).toContain('may have started');
    expect(r.stderr).toContain(`Most recent runs of squid ${squid}`);
    expect(r.stderr).toContain(`  ${started[0]}  `);
    expect(got.map((x) => `${x.method} ${x.path}`).filter(notGuard)).toEqual(['POST /v1/runs', 'GET /v1/runs']);
  });

  it.each(['malformed', 'truncate'])(
    'a 200 answer with a %s body is ambiguous too: one POST, recent runs listed, exit 1',
    async (action) => {
      const squid = squids['Amazon headphones'];
      await emu.advance(3_600_000);
      const before = (await api(`/v1/runs?squid=${squid}&limit=100`)).data.map((r: J) => r.id);
      await emu.clearRequests();
      await emu.faults([{ method: 'POST', path: '/v1/runs', action, count: 5 }]);
      const r = await sq(['runs', 'start', '--squid', squid], { env: emu.env() });
      await emu.clearFaults();
      expect(r.code).toBe(1);
      expect((await emu.requestLines()).filter(notGuard)).toEqual(['POST /v1/runs', 'GET /v1/runs']);
      const started = (await api(`/v1/runs?squid=${squid}&limit=100`)).data
        .map((r: J) => r.id)
        .filter((id: string) => !before.includes(id));
      expect(started).toHaveLength(1);
      expect(r.stderr).toContain('starting the run failed and it may have started anyway');
      expect(r.stderr).toContain('The request may have reached the server');
      expect(r.stderr).toContain(`  ${started[0]}  `);
    },
  );

  it.each([
    [['--interval', '1s'], '--interval must be at least 5s'],
    [['--interval', 'soon'], '--interval must be a duration'],
    [['--timeout', '-3'], '--timeout must be a duration'],
  ])('against a non-loopback URL, %j exits 2 before any request', async (extra, msg) => {
    const r = await sq(['runs', 'start', '--squid', 'x', '--wait', ...extra], {
      env: { SQ_BASE_URL: 'https://api.example.com', SQ_TOKEN: 'k_123456789' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(msg);
  });

  it('allows --interval 1s against the loopback emulator (validation passes; unknown squid then exits 3)', async () => {
    const r = await sq(['runs', 'watch', '0'.repeat(32), '--interval', '1s'], { env: emu.env() });
    expect(r.code).toBe(3);
  });
});

describe('runs download (not ready)', () => {
  it.each([['/nonexistent-dir/x.csv'], ['/nonexistent-dir/']])(
    '-o %s in a missing directory exits 2 before any request',
    async (o) => {
      const r = await sq(['runs', 'download', '0'.repeat(32), '-o', o], { env: emu.env() });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('directory "/nonexistent-dir" does not exist');
      expect(await reqs()).toEqual([]);
    },
  );

  it('says the export is not ready and exits 3', async () => {
    const run = await api('/v1/runs', { method: 'POST', body: { squid: squids['Paris restaurants'] } });
    const r = await sq(['runs', 'download', run.id], { env: emu.env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`export not ready for run ${run.id}: the run is pending`);
    expect(r.stderr).toContain(`sq runs watch ${run.id}`);
    await api(`/v1/runs/${run.id}/abort`, { method: 'POST' });
  });
});
