// sq go (src/commands/go.ts), in-process against the emulator: the whole path (squid, params, tasks, run, wait,
// export), a rerun after Ctrl-C mid-wait that resumes the run instead of starting a second one, and bad input
// refused with exit 2 before any write (a malformed --param before any request at all).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { gatedSqClock } from '../helpers/clock.js';
import { waitFor } from '../helpers/wait.js';
import { InterruptedError } from '../../src/errors.js';
import { squidName } from '../../src/run/go.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const A = 'https://www.amazon.com/s?k=go+test+a';
const B = 'https://www.amazon.com/s?k=go+test+b';

const posts = async () => (await emu.requests('POST')).map((r) => r.path);
const runPosts = async () => (await posts()).filter((p) => p === '/v1/runs').length;
const statsPolls = async () => (await emu.requests()).filter((q) => /^\/v1\/runs\/[^/]+\/stats$/.test(q.path)).length;

/**
 * Runs sq go, the emulator's clock moved between two of its polls (gatedSqClock, as in runs-watch-tty.test.ts). sq
 * waits on this clock for everything (polls, back-offs, pacing), so each of its waits needs a step: after 200 steps
 * sq is stopped and the test fails naming its waits, never left waiting for a step that will not come (a hang until
 * the test's timeout, as when a pacing wait polled every 200 ms for a minute).
 */
async function goAdvancing(args: string[], opts: { signal?: AbortSignal; stopAfterPolls?: () => void } = {}) {
  let finished = false;
  const cap = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, cap.signal]) : cap.signal;
  const clock = gatedSqClock(signal);
  const p = sq(['go', ...args], { env: emu.env(), signal, clock }).finally(() => (finished = true));
  let polled = 0;
  for (let i = 0; !finished; i++) {
    // Real time, so a bound far from the machine's speed: the first sq of a worker loads the CLI's modules through
    // vite, which took over 10 s (the bound before) at a load average of 25 on 2 cores. The test's timeout is 60 s.
    await waitFor(() => clock.sleeping || finished, Boolean, 'a poll', 40_000);
    if (finished) break;
    if (i === 200) {
      cap.abort(new Error('stopped by the test'));
      await p;
      throw new Error(`sq go still waiting after 200 steps of its clock; it slept ${JSON.stringify(clock.slept)}`);
    }
    if ((await statsPolls()) > polled) polled++;
    if (polled === 2 && opts.stopAfterPolls) {
      opts.stopAfterPolls();
      break;
    }
    await emu.advance(500);
    clock.step();
  }
  return p;
}

describe('sq go', () => {
  it('creates the squid, sets params, adds tasks, starts a run, waits, exports to -o FILE, each step on stderr', async () => {
    const file = join(tempDir('sq-go-'), 'out.csv');
    const r = await goAdvancing(['amazon-products', A, B, '-p', 'max_results=5', '-o', file, '--interval', '20ms']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const name = squidName('amazon-products', [{ url: A }, { url: B }]);
    const squid = (await emu.api(`/v1/squids?name=${encodeURIComponent(name)}`)).data.find(
      (s: { name: string }) => s.name === name,
    );
    expect(squid).toBeDefined();
    expect(squid.params.max_results).toBe(5);
    const runs = (await emu.api(`/v1/runs?squid=${squid.id}`)).data;
    expect(runs).toHaveLength(1);
    const run = runs[0];
    expect(run.status).toBe('done');
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines[0]).toBe(`squid "${name}" (${squid.id}) created`);
    expect(lines[1]).toBe('params set: max_results');
    expect(lines[2]).toBe('2 tasks added, 0 already there');
    // The one estimate line of every run start, then the run.
    expect(lines[3]).toMatch(/^estimated \d+ credits \(base \d+\), sets off no reset$/);
    expect(lines[4]).toBe(`run ${run.id} started`);
    const n = run.total_results;
    expect(n).toBeGreaterThan(0);
    expect(lines.at(-1)).toBe(`exported ${n} record${n === 1 ? '' : 's'} to ${file}`);
    const csv = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(csv[0].startsWith('id,squid,run,')).toBe(true);
    expect(csv).toHaveLength(n + 1);
    expect(csv.slice(1).every((l) => l.includes(run.id))).toBe(true);
    expect(await posts()).toEqual([
      '/v1/squids',
      `/v1/squids/${squid.id}`,
      '/v1/tasks',
      '/v1/squid/estimate',
      '/v1/runs',
    ]);
  }, 60_000);

  // cli.mdx's own example: a crawler of the examples pages (google-search-scraper), a keyword task.
  it('runs cli.mdx\'s example: sq go google-search-scraper "pizza delivery" --key keyword', async () => {
    const r = await goAdvancing([
      'google-search-scraper',
      'pizza delivery',
      '--key',
      'keyword',
      '--format',
      'json',
      '--interval',
      '20ms',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const name = squidName('google-search-scraper', [{ keyword: 'pizza delivery' }]);
    const squid = (await emu.api(`/v1/squids?name=${encodeURIComponent(name)}`)).data.find(
      (s: { name: string }) => s.name === name,
    );
    expect((await emu.api(`/v1/tasks?squid=${squid.id}`)).data.map((t: { params: unknown }) => t.params)).toEqual([
      { keyword: 'pizza delivery' },
    ]);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.squid === squid.id)).toBe(true);
  }, 60_000);

  it('rerun after Ctrl-C mid-wait: reuses the squid and tasks and resumes the run, never a second one', async () => {
    const file = join(tempDir('sq-go-'), 'out.ndjson');
    const args = ['amazon-products', A, B, '-o', file, '--interval', '20ms'];
    const controller = new AbortController();
    const first = await goAdvancing(args, {
      signal: controller.signal,
      stopAfterPolls: () => controller.abort(new InterruptedError('SIGINT')),
    });
    expect(first.code).toBe(130);
    expect(first.stderr).toMatch(/run [0-9a-f]+ started/);
    expect(first.stderr).toContain('Stopped waiting');
    const runId = /run ([0-9a-f]+) started/.exec(first.stderr)![1];
    expect((await emu.api(`/v1/runs/${runId}`)).status).not.toBe('done');
    expect(() => readFileSync(file)).toThrow();

    await emu.clearRequests();
    const again = await goAdvancing(args);
    expect(again.code, again.stderr).toBe(0);
    const lines = again.stderr.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^squid "go amazon-products [0-9a-f]+" \([0-9a-f]+\) reused$/);
    expect(lines[1]).toBe('0 tasks added, 2 already there');
    expect(lines[2]).toMatch(new RegExp(`^run ${runId} resumed \\((running|pending|uploading|done)\\)$`));
    expect(await runPosts()).toBe(0);
    expect(await posts()).toEqual(['/v1/tasks']);
    const done = await emu.api(`/v1/runs/${runId}`);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(done.total_results);
  }, 60_000);

  it("a param set earlier survives a -p of another key on the reused squid (params updates replace: api-changelog, the vendor's clients)", async () => {
    const maps = 'https://www.google.com/maps/search/creperie+go+test';
    const first = await goAdvancing([
      'google-maps-search-export',
      maps,
      '-p',
      'ratings=4.5+',
      '-p',
      'functions.fetch_business_images=true',
      '-o',
      join(tempDir('sq-go-'), 'a.ndjson'),
      '--interval',
      '20ms',
    ]);
    expect(first.code, first.stderr).toBe(0);
    const again = await goAdvancing([
      'google-maps-search-export',
      maps,
      '-p',
      'max_results=5',
      '-o',
      join(tempDir('sq-go-'), 'b.ndjson'),
      '--interval',
      '20ms',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('reused');
    const name = squidName('google-maps-search-export', [{ url: maps }]);
    const id = (await emu.api(`/v1/squids?name=${encodeURIComponent(name)}`)).data.find(
      (s: { name: string }) => s.name === name,
    ).id;
    expect((await emu.api(`/v1/squids/${id}`)).params).toMatchObject({
      ratings: '4.5+',
      max_results: 5,
      functions: { fetch_business_images: true },
    });
  }, 60_000);

  it('a finished run is not resumed: a rerun starts a new one on the same squid', async () => {
    const file = join(tempDir('sq-go-'), 'out.ndjson');
    const args = ['amazon-products', A, '-o', file, '--interval', '20ms'];
    expect((await goAdvancing(args)).code).toBe(0);
    const r = await goAdvancing([
      ...args.slice(0, 2),
      '-o',
      join(tempDir('sq-go-'), 'again.ndjson'),
      '--interval',
      '20ms',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /reused\n0 tasks added, 1 already there\nestimated [\d.,]+ credits .*\nrun [0-9a-f]+ started\n/,
    );
    expect(await runPosts()).toBe(2);
  }, 60_000);

  it('an export that fails after the run finished: the same sq go again exports that run, and starts no other', async () => {
    const file = join(tempDir('sq-go-'), 'out.csv');
    await emu.faults([{ path: '/v1/results', action: 'reset_mid_body', count: 10 }]);
    const args = ['amazon-products', A, '-o', file, '--interval', '20ms'];
    const r = await goAdvancing(args);
    expect(r.code, r.stderr).toBe(1);
    const runId = /run ([0-9a-f]+) started/.exec(r.stderr)![1];
    expect(r.stderr).toContain(
      `run ${runId} is finished and its results are kept: run the same \`sq go\` command again to export them (it starts no new run)`,
    );
    await emu.clearFaults();
    const again = await sq(['go', ...args], { env: emu.env() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`run ${runId} resumed (done)`);
    const done = (await emu.api(`/v1/runs/${runId}`)) as { total_results: number };
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(done.total_results + 1);
    expect(await runPosts()).toBe(1);
    // The job is over: its record is gone, and a third sq go (with --force) is a new job with a new run.
    expect(existsSync(join(file, '..', '.out.csv.sq-go'))).toBe(false);
  }, 60_000);

  it('a leftover of an interrupted export to the -o file: exit 2 before any request, not after a new run', async () => {
    const dir = tempDir('sq-go-');
    const file = join(dir, 'out.csv');
    // A real leftover: an export to the same file that stopped at its second page, its first page kept aside.
    const run = (await emu.control('POST', '/_emulator/generate', {
      squid: emu.squidId(DEMO_SQUIDS.headphones),
      results: 150,
    })) as { id: string };
    await emu.faults([
      { path: '/v1/results', action: 'delay', ms: 0, count: 1 },
      { path: '/v1/results', action: 'status', status: 400, count: 1 },
    ]);
    expect((await sq(['results', 'list', '--run', run.id, '--all', '-o', file], { env: emu.env() })).code).toBe(1);
    await emu.clearFaults();
    await emu.clearRequests();
    const r = await sq(['go', 'amazon-products', A, '-o', file], { env: emu.env() });
    expect(r.code, r.stderr).toBe(2);
    // The refusal `results list -o` itself gives, found before any request.
    expect(r.stderr).toContain('an interrupted export is waiting to be continued (1 page in');
    expect(r.stderr).toContain('--resume');
    expect(await emu.requests()).toEqual([]);
  });

  it('an existing -o file is kept: exit 2 before any request, unless --force (as results list -o)', async () => {
    const file = join(tempDir('sq-go-'), 'out.ndjson');
    writeFileSync(file, 'keep me\n');
    await emu.clearRequests();
    const r = await sq(['go', 'amazon-products', A, '-o', file], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--force');
    expect(await emu.requests()).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('keep me\n');
    const forced = await goAdvancing(['amazon-products', A, '-o', file, '--force', '--interval', '20ms']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toContain('keep me');
  }, 60_000);

  it('--force without -o FILE (or with -o -): exit 2 before any request, not after the run', async () => {
    for (const extra of [[], ['-o', '-']]) {
      await emu.clearRequests();
      const r = await sq(['go', 'amazon-products', A, '--force', ...extra], { env: emu.env() });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--force goes with -o FILE');
      expect(await emu.requests()).toEqual([]);
    }
  });

  it('--json prints a summary object on stdout; the file keeps its own format', async () => {
    const file = join(tempDir('sq-go-'), 'out.csv');
    const r = await goAdvancing(['amazon-products', A, '-o', file, '--interval', '20ms', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(Object.keys(s)).toEqual(['squid', 'params', 'tasks', 'run', 'exported']);
    expect(s.squid.created).toBe(true);
    expect(s.tasks).toEqual({ added: 1, existing: 0 });
    expect(s.run.resumed).toBe(false);
    expect(s.run.status).toBe('done');
    expect(s.exported).toEqual({ records: s.run.total_results, output: file, format: 'csv' });
    expect(readFileSync(file, 'utf8').startsWith('id,squid,run,')).toBe(true);
  }, 60_000);

  it('results to stdout without -o', async () => {
    const r = await goAdvancing(['amazon-products', A, '--interval', '20ms', '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.length).toBeGreaterThan(0);
    expect(r.stderr).toContain(`exported ${rows.length} record${rows.length === 1 ? '' : 's'} to stdout`);
  }, 60_000);

  it('an unknown --param key: exit 2 with the closest name, after GET requests only', async () => {
    await emu.clearRequests();
    const r = await sq(['go', 'amazon-products', A, '-p', 'max_result=5'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--param max_result: crawler "Amazon Products Scraper" has no parameter "max_result"; did you mean "max_results"?',
    );
    expect(r.stderr).toContain('nothing was sent');
    expect(await emu.requests('POST')).toEqual([]);
  });

  it("a TASK out of the crawler's format (its url regex): exit 2 naming it, after GET requests only, so no squid is left behind", async () => {
    await emu.clearRequests();
    const r = await sq(['go', 'amazon-products', A, 'https://www.ebay.com/sch/x', 'notaurl', '-p', 'max_result=5'], {
      env: emu.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--param max_result: crawler "Amazon Products Scraper" has no parameter "max_result"');
    expect(r.stderr).toContain(
      'also: TASK 2: "https://www.ebay.com/sch/x" is not a url this crawler takes (its format: ^https://www\\.amazon\\.)',
    );
    expect(r.stderr).toContain('also: TASK 3: "notaurl" is not a url this crawler takes');
    expect(await emu.requests('POST')).toEqual([]);
    expect(await emu.requests('PATCH')).toEqual([]);
    // The same TASK alone is the first problem named.
    const alone = await sq(['go', 'amazon-products', 'notaurl'], { env: emu.env() });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(
      /^error: TASK 1: "notaurl" is not a url this crawler takes \(its format: .*\); nothing was sent\n/,
    );
  });

  it.each([
    [['go', 'amazon-products', A, '-p', 'oops'], '--param must look like key=value'],
    [['go', 'amazon-products'], 'missing required argument'],
    [['go', 'amazon-products', ' '], 'no tasks given'],
    [['go', 'amazon-products', A, '--json'], '--json prints a summary object on stdout: pass -o FILE'],
    [['go', 'amazon-products', A, '--timeout', 'soon'], '--timeout must be a duration'],
    [['go', 'amazon-products', A, '--dry-run'], 'sq go does not take --dry-run'],
  ])('bad input %j: exit 2 before any request', async (args, message) => {
    await emu.clearRequests();
    const r = await sq(args, { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await emu.requests()).toEqual([]);
  });

  it('the squid name depends on the crawler and the set of tasks, not their order or repeats', () => {
    const a = squidName('amazon-products', [{ url: A }, { url: B }]);
    expect(squidName('amazon-products', [{ url: B }, { url: A }, { url: A }])).toBe(a);
    expect(squidName('amazon-products', [{ url: A }])).not.toBe(a);
    expect(squidName('indeed-jobs', [{ url: A }, { url: B }])).not.toBe(a);
    expect(a).toMatch(/^go amazon-products [0-9a-f]{16}$/);
  });
});
