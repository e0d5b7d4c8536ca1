// sq go interrupted at each phase (params, just after the run started, waiting, exporting) by kill -9, SIGTERM and
// Ctrl-C (SIGINT), then run again after the run ended (issue 33, E4/E8): the emulator's request log shows exactly one
// POST /v1/runs, and the file holds the first run's results. Before the record, the rerun started (and paid for) a
// second run and never exported the first; interrupted in the params step, every rerun failed SquidNotReady.
// Each phase and each signal is here, in five of the twelve pairs (each a process of sq go, ~0.65 s of CPU with its
// rerun); npm run test:system runs all twelve (test/system/go-rerun-sweep.test.ts).
import { readFileSync, rmSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { SLOW } from '../helpers/timeouts.js';
import { tempDir } from '../helpers/fs.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import {
  finish as finishOn,
  inProcess as inProcessOn,
  interruptedGo,
  runPosts as runPostsOn,
  start as startOn,
  until,
} from '../helpers/go-rerun.js';

const emu = useEmulator({ each: 'reset' });
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const runPosts = () => runPostsOn(emu);
const start = (args: string[], configDir: string, extra: Record<string, string> = {}) =>
  startOn(emu, args, configDir, extra);
const inProcess = (args: string[], configDir: string, extra: Record<string, string> = {}) =>
  inProcessOn(emu, args, configDir, extra);
const finish = (runId: string) => finishOn(emu, runId);

describe('sq go interrupted, then run again after the run ended: one run, the first one, exported', SLOW, () => {
  // Every phase and every signal; kill -9 (no handler runs) and SIGTERM in the exporting phase, which leaves the most.
  for (const [phase, label, signal, code] of [
    ['params', 'kill -9', 'SIGKILL', null],
    ['started', 'SIGTERM', 'SIGTERM', 143],
    ['waiting', 'Ctrl-C', 'SIGINT', 130],
    ['exporting', 'kill -9', 'SIGKILL', null],
    ['exporting', 'SIGTERM', 'SIGTERM', 143],
  ] as const) {
    it(`${label} in the ${phase} phase`, () => interruptedGo(emu, phase, signal, code));
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
