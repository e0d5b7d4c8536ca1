// sq go interrupted in one phase by one signal and run again after the run ended (issue 33, E4/E8), for
// test/e2e/go-rerun.test.ts (some of the phase x signal pairs) and test/system/go-rerun-sweep.test.ts (all twelve);
// and what those files run sq with: the built binary for a call a signal stops, in-process for the rerun.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { expect } from 'vitest';
import type { TestEmulator } from './emulator.js';
import { EVENT_MS } from './timeouts.js';
import { BIN, binCacheDir, giveToPool, sq } from './cli.js';
import { fakeSqClock } from './clock.js';
import { tempDir } from './fs.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const runPosts = async (emu: TestEmulator) => (await emu.requests('POST')).filter((r) => r.path === '/v1/runs');

export function start(
  emu: TestEmulator,
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
export async function inProcess(
  emu: TestEmulator,
  args: string[],
  configDir: string,
  extra: Record<string, string> = {},
) {
  // The emulator's virtual clock stands still between steps while real time goes on: a run it makes would be dated
  // before the start sq recorded (by the real clock and the API's Date header), and not be found as made "since" it.
  // A real API's clock goes on with ours: the virtual one is first put a minute ahead of the real time (before, the
  // tests of a lost answer passed only after other tests had moved it on).
  const behind = Date.now() + 60_000 - emu.emu.clock.now();
  if (behind > 0) await emu.advance(behind);
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

export async function until(what: string, cond: () => boolean | Promise<boolean>, ms = EVENT_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await pause(30);
  }
}

/** Moves the emulator's clock until the run is done and exported. */
export async function finish(emu: TestEmulator, runId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const run = (await emu.api(`/v1/runs/${runId}`)) as { status: string; export_done: boolean };
    if (run.status === 'done' && run.export_done) return;
    await emu.advance(1000);
  }
  throw new Error(`run ${runId} never finished`);
}

export const PHASES = ['params', 'started', 'waiting', 'exporting'] as const;
export const SIGNALS = [
  ['kill -9', 'SIGKILL', null],
  ['SIGTERM', 'SIGTERM', 143],
  ['Ctrl-C', 'SIGINT', 130],
] as const;

/**
 * sq go stopped by `signal` in `phase` (the params request hanging, just after the run started, after two polls of the
 * wait, the export's request hanging), then run again in-process after the run ended: one POST /v1/runs, the first
 * run's results in the file, nothing left beside it. Its temp dir goes with the file's (test/setup/cache-dir.ts).
 */
export async function interruptedGo(
  emu: TestEmulator,
  phase: (typeof PHASES)[number],
  signal: (typeof SIGNALS)[number][1],
  code: number | null,
): Promise<void> {
  const dir = tempDir('sq-go-rerun-');
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
  const first = start(emu, args, configDir);
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
      await finish(emu, runId!);
      await until('the export request', async () => (await emu.requests('GET')).some((r) => r.path === '/v1/results'));
    }
  }
  first.child.kill(signal);
  const r1 = await first.child;
  if (code === null) expect(r1.signal, first.stderr()).toBe('SIGKILL');
  else expect(r1.exitCode, first.stderr()).toBe(code);
  await emu.clearFaults();
  // The rerun comes after the run ended: the case where a second run was started and charged.
  if (runId) await finish(emu, runId);

  const second = await inProcess(emu, args, configDir);
  expect(second.code, second.stderr).toBe(0);
  const posts = await runPosts(emu);
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
}
