// sq go interrupted at each phase (params, just after the run started, waiting, exporting) by kill -9, SIGTERM and
// Ctrl-C (SIGINT), then run again after the run ended (issue 33, E4/E8): the emulator's request log shows exactly one
// POST /v1/runs, and the file holds the first run's results. Before the record, the rerun started (and paid for) a
// second run and never exported the first; interrupted in the params step, every rerun failed SquidNotReady.
import { readFileSync, rmSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { EVENT_MS, SLOW } from '../helpers/timeouts.js';
import { BIN, binCacheDir, giveToPool, sq } from '../helpers/cli.js';
import { fakeSqClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/fs.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const runPosts = async () => (await emu.requests('POST')).filter((r) => r.path === '/v1/runs');

function start(
  args: string[],
  configDir: string,
  extra: Record<string, string> = {},
): { child: ResultPromise; stderr: () => string; done: () => boolean } {
  const cache = binCacheDir();
  const child = execa(process.execPath, [BIN, ...args], {
    env: { ...emu.env(), SQ_CONFIG_DIR: configDir, SQ_CACHE_DIR: cache, NO_COLOR: '1', ...extra },
    extendEnv: false,
    reject: false,
  });
  let err = '';
  let finished = false;
  child.stderr!.on('data', (d: Buffer) => (err += d));
  void child.finally(() => (finished = true));
  void child.then((r) => r.exitCode === 0 && giveToPool(cache));
  return { child, stderr: () => err, done: () => finished };
}

/**
 * sq in-process (test/helpers/cli.ts), for what a call finds and does with what an earlier one left (the record beside
 * the file, the run, the export): the CLI's logic. Each of its waits moves the emulator's clock a second, as the
 * built binary's 100 ms polls saw it move a second every 100 ms. What is about the process (a call stopped by a
 * signal, kill -9) stays a real one (start).
 */
async function inProcess(args: string[], configDir: string, extra: Record<string, string> = {}) {
  const fake = fakeSqClock();
  const clock = {
    now: fake.now,
    async sleep(ms: number) {
      await emu.advance(1000);
      await fake.sleep(ms);
    },
  };
  return sq(args, {
    env: { ...emu.env(), SQ_CONFIG_DIR: configDir, SQ_CACHE_DIR: tempDir('sq-cache-'), NO_COLOR: '1', ...extra },
    clock,
  });
}

async function until(what: string, cond: () => boolean | Promise<boolean>, ms = EVENT_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await pause(30);
  }
}

/** Moves the emulator's clock until the run is done and exported. */
async function finish(runId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const run = (await emu.api(`/v1/runs/${runId}`)) as { status: string; export_done: boolean };
    if (run.status === 'done' && run.export_done) return;
    await emu.advance(1000);
  }
  throw new Error(`run ${runId} never finished`);
}

const PHASES = ['params', 'started', 'waiting', 'exporting'] as const;
const SIGNALS = [
  ['kill -9', 'SIGKILL', null],
  ['SIGTERM', 'SIGTERM', 143],
  ['Ctrl-C', 'SIGINT', 130],
] as const;

describe('sq go interrupted, then run again after the run ended: one run, the first one, exported', SLOW, () => {
  for (const phase of PHASES) {
    for (const [label, signal, code] of SIGNALS) {
      it(`${label} in the ${phase} phase`, async () => {
        const dir = tempDir('sq-go-rerun-');
        dirs.push(dir);
        const file = join(dir, 'out.csv');
        const configDir = join(dir, 'cfg');
        // No --param: the params step is the crawler's defaults, the one E8 lost (SquidNotReady on every rerun).
        const args = [
          'go',
          'amazon-products',
          `https://www.amazon.com/s?k=rerun+${phase}+${signal}`,
          '-o',
          file,
          '--interval',
          '100ms',
        ];
        if (phase === 'params') await emu.faults([{ method: 'POST', path: '/v1/squids/', action: 'hang' }]);
        if (phase === 'exporting') await emu.faults([{ method: 'GET', path: '/v1/results', action: 'hang' }]);
        const first = start(args, configDir);
        let runId: string | null = null;
        const started = () => /run ([0-9a-f]+) started/.exec(first.stderr())?.[1] ?? null;
        if (phase === 'params') {
          await until('the params request', async () =>
            (await emu.requests('POST')).some((r) => /^\/v1\/squids\/[0-9a-f]+$/.test(r.path)),
          );
        } else {
          await until('the run to start', () => started() !== null || first.done());
          runId = started();
          expect(runId, first.stderr()).not.toBeNull();
          if (phase === 'waiting') {
            await until(
              'two polls',
              async () => (await emu.requests('GET')).filter((r) => r.path === `/v1/runs/${runId}/stats`).length >= 2,
            );
          }
          if (phase === 'exporting') {
            await finish(runId!);
            await until('the export request', async () =>
              (await emu.requests('GET')).some((r) => r.path === '/v1/results'),
            );
          }
        }
        first.child.kill(signal);
        const r1 = await first.child;
        if (code === null) expect(r1.signal, first.stderr()).toBe('SIGKILL');
        else expect(r1.exitCode, first.stderr()).toBe(code);
        await emu.clearFaults();
        // The rerun comes after the run ended: the case where a second run was started and charged.
        if (runId) await finish(runId);

        const second = await inProcess(args, configDir);
        expect(second.code, second.stderr).toBe(0);
        const posts = await runPosts();
        expect(posts, second.stderr).toHaveLength(1);
        const only = /run ([0-9a-f]+) (started|resumed)/.exec(second.stderr)![1];
        if (runId) {
          expect(only).toBe(runId);
          expect(second.stderr).toContain(`run ${runId} resumed (done)`);
        } else {
          // Interrupted in the params step: the rerun finishes it, then starts the one run.
          expect(second.stderr).toMatch(/reused\nparams set: the crawler's defaults\n/);
        }
        const run = (await emu.api(`/v1/runs/${only}`)) as { total_results: number };
        expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(run.total_results + 1);
        // Nothing left beside the file: no record, no lock, no partial export.
        expect(readdirSync(dir).filter((f) => f !== 'cfg')).toEqual(['out.csv']);
      });
    }
  }

  it("the answer to POST /v1/runs lost (the run did start): the rerun finds that run among the squid's new runs, and starts none", async () => {
    const dir = tempDir('sq-go-rerun-');
    dirs.push(dir);
    const file = join(dir, 'out.ndjson');
    const args = [
      'go',
      'amazon-products',
      'https://www.amazon.com/s?k=rerun+lost+answer',
      '-o',
      file,
      '--interval',
      '100ms',
    ];
    // The server starts the run, then the connection drops mid-answer: sq cannot know the run's id.
    await emu.faults([{ method: 'POST', path: '/v1/runs', action: 'reset_mid_body', count: 1 }]);
    const first = await inProcess(args, join(dir, 'cfg'));
    expect(first.code, first.stderr).toBe(1);
    expect(first.stderr).toContain('it may have started anyway');
    expect(existsSync(join(dir, '.out.ndjson.sq-go'))).toBe(true);
    const [post] = await runPosts();
    expect(post).toBeDefined();
    const listed = (await emu.api(`/v1/runs?squid=${(post.body as { squid: string }).squid}`)) as {
      data: { id: string }[];
    };
    expect(listed.data).toHaveLength(1);
    await finish(listed.data[0].id);

    const second = await inProcess(args, join(dir, 'cfg'));
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`run ${listed.data[0].id} resumed (done; its start was cut short)`);
    expect(await runPosts()).toHaveLength(1);
    expect(readdirSync(dir).filter((f) => f !== 'cfg')).toEqual(['out.ndjson']);
  });
});

describe('a 3xx answer to POST /v1/runs during sq go (issue 33, E9)', SLOW, () => {
  // Before: the redirect was read as the answer. Now it is never followed nor read: "may have started anyway", and the
  // record stays, so the rerun looks for the run before it starts one.
  const runsOf = async (squid: string) =>
    ((await emu.api(`/v1/runs?squid=${squid}`)) as { data: { id: string }[] }).data;
  for (const [label, after] of [
    ['the run did start (the gateway answered after the app took it)', true],
    ['the run did not start', false],
  ] as const) {
    it(`${label}: "may have started anyway", and the rerun leaves one run, exported`, async () => {
      emu.expectWrites('POST /v1/tasks', 'POST /v1/runs');
      const dir = tempDir('sq-go-rerun-');
      dirs.push(dir);
      const file = join(dir, 'out.ndjson');
      const args = [
        'go',
        'amazon-products',
        `https://www.amazon.com/s?k=rerun+redirect+${after}`,
        '-o',
        file,
        '--interval',
        '100ms',
      ];
      await emu.faults([
        {
          method: 'POST',
          path: '/v1/runs',
          action: 'status',
          status: 307,
          after,
          headers: { Location: 'https://gw.example.com/v1/runs?token=zz9' },
          body: {},
          count: 1,
        },
      ]);
      const first = await inProcess(args, join(dir, 'cfg'));
      expect(first.code, first.stderr).toBe(1);
      expect(first.stderr).toContain('HTTP 307, a redirect to gw.example.com');
      expect(first.stderr).toContain('may have started anyway');
      expect(first.stderr).not.toContain('zz9');
      expect(existsSync(join(dir, '.out.ndjson.sq-go'))).toBe(true);
      const squid = /\(([0-9a-f]+)\) created/.exec(first.stderr)![1];
      expect(await runPosts()).toHaveLength(1);
      expect(await runsOf(squid)).toHaveLength(after ? 1 : 0);

      const second = await inProcess(args, join(dir, 'cfg'));
      expect(second.code, second.stderr).toBe(0);
      const runs = await runsOf(squid);
      expect(runs).toHaveLength(1);
      if (after) {
        expect(second.stderr).toContain(`run ${runs[0].id} resumed`);
        expect(await runPosts()).toHaveLength(1);
      } else {
        expect(second.stderr).toContain(`run ${runs[0].id} started`);
      }
      const run = (await emu.api(`/v1/runs/${runs[0].id}`)) as { total_results: number };
      expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(run.total_results);
      expect(readdirSync(dir).filter((f) => f !== 'cfg')).toEqual(['out.ndjson']);
    });
  }
});

describe('runs start --idempotency-key: a rerun never starts a second run', SLOW, () => {
  it('SIGTERM while waiting, the run ends, the same command again: that run waited for and printed, one POST /v1/runs', async () => {
    const dir = tempDir('sq-idem-');
    dirs.push(dir);
    const squid = emu.squidId(DEMO_SQUIDS.headphones);
    const args = [
      'runs',
      'start',
      '--squid',
      squid,
      '--wait',
      '--interval',
      '100ms',
      '--idempotency-key',
      'nightly-1',
      '--json',
    ];
    const env = { SQ_CACHE_DIR: join(dir, 'cache') };
    const first = start(args, join(dir, 'cfg'), env);
    await until('the run to start', () => /Started run [0-9a-f]+/.test(first.stderr()) || first.done());
    const runId = /Started run ([0-9a-f]+)/.exec(first.stderr())![1];
    first.child.kill('SIGTERM');
    expect((await first.child).exitCode, first.stderr()).toBe(143);
    await finish(runId);
    const second = await inProcess(args, join(dir, 'cfg'), env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(
      `Run ${runId} was started with --idempotency-key nightly-1 (done); no new run started`,
    );
    expect(JSON.parse(second.stdout).id).toBe(runId);
    expect(await runPosts()).toHaveLength(1);
    // The same key for another squid is a mistake: exit 2, nothing sent.
    const other = await inProcess(
      ['runs', 'start', '--squid', emu.squidId(DEMO_SQUIDS.paris), '--idempotency-key', 'nightly-1'],
      join(dir, 'cfg'),
      env,
    );
    expect(other.code, other.stderr).toBe(2);
    expect(other.stderr).toContain(`--idempotency-key "nightly-1" started a run of squid ${squid}`);
    expect(await runPosts()).toHaveLength(1);
  });

  it('the answer to the POST lost: the rerun finds the run it started instead of starting another', async () => {
    const dir = tempDir('sq-idem-');
    dirs.push(dir);
    const squid = emu.squidId(DEMO_SQUIDS.headphones);
    const args = ['runs', 'start', '--squid', squid, '--idempotency-key', 'k2', '--json'];
    const env = { SQ_CACHE_DIR: join(dir, 'cache') };
    await emu.faults([{ method: 'POST', path: '/v1/runs', action: 'reset_mid_body', count: 1 }]);
    const r1 = await inProcess(args, join(dir, 'cfg'), env);
    expect(r1.code).toBe(1);
    const r2 = await inProcess(args, join(dir, 'cfg'), env);
    expect(r2.code, r2.stderr).toBe(0);
    expect(await runPosts()).toHaveLength(1);
    const listed = (await emu.api(`/v1/runs?squid=${squid}`)) as { data: { id: string }[] };
    expect(JSON.parse(r2.stdout).id).toBe(listed.data[0].id);
  });
});
