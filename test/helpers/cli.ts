// Two ways to run sq in tests: in-process (fast; captured streams, the real command tree) and as the built binary
// (bin/sq.js in a child process of its own, exactly as a user or a script runs it).
import { PassThrough, type Writable } from 'node:stream';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { run } from '../../src/shell/main.js';
import { fakeSqClock } from './clock.js';
import { tempDir } from './fs.js';
import { capture } from './stream.js';
import { fillFromPool, giveToPool } from './code-cache-pool.js';

export interface SqResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function tempConfigDir(): string {
  return tempDir('sq-test-cfg-');
}

let calls = 0;
/**
 * The config dir of one sq or sqBin call that was given none: a fresh path under the file's temp dir, not made, as a
 * user's first call finds none (sq makes it when it stores a profile). A directory made and removed for every call
 * cost a mkdtemp and an rmdir each, and in a profiled run the workers spent ~12 s in those rmdirs, stalled behind
 * other processes' fsyncs.
 */
function ownConfigDir(): string {
  return join(tmpdir(), `sq-test-cfg-${process.pid}-${++calls}`);
}

/**
 * In-process. `env` replaces process.env entirely (plus a fresh SQ_CONFIG_DIR unless given). sq runs on a fake
 * clock (test/helpers/clock.ts): pacing, retry back-off and polling waits pass at once, and `now` moves by what sq
 * slept. A test that needs the real clock (something outside sq must happen while it waits) passes
 * `clock: 'real'` and says why.
 */
export async function sq(
  args: string[],
  opts: {
    env?: Record<string, string | undefined>;
    stdin?: string;
    tty?: boolean;
    signal?: AbortSignal;
    /** 'fake' (the default), 'real', or a clock of the test's own (fakeSqClock, gatedSqClock), to read what sq slept. */
    clock?: 'fake' | 'real' | { now: () => number; sleep: (ms: number) => Promise<void> };
    /** The terminal's width, for tty tests (default 120). */
    columns?: number;
    /** sq's stdout, where a test gives its own (a failing stream, a stream on a file's descriptor): stdout is then ''. */
    stdout?: Writable;
  } = {},
): Promise<SqResult> {
  const stdout = capture();
  const stderr = capture();
  const stdin = new PassThrough();
  stdin.end(opts.stdin ?? '');
  const own = opts.env?.SQ_CONFIG_DIR === undefined ? ownConfigDir() : undefined;
  // No update check against the real registry from a test on a terminal: the notice's own tests turn it back on.
  const env = { SQ_CONFIG_DIR: own, SQ_NO_UPDATE_NOTIFIER: '1', ...opts.env };
  const signal = opts.signal ?? new AbortController().signal;
  const clock =
    opts.clock === 'real'
      ? undefined
      : opts.clock === undefined || opts.clock === 'fake'
        ? fakeSqClock(signal)
        : opts.clock;
  try {
    const code = await run(args, {
      env,
      now: clock?.now,
      sleep: clock?.sleep,
      io: {
        stdout: opts.stdout ?? stdout.stream,
        stderr: stderr.stream,
        stdin,
        stdoutIsTTY: !!opts.tty,
        stderrIsTTY: !!opts.tty,
        stdinIsTTY: !!opts.tty,
        columns: opts.columns ?? 120,
      },
      // What main.ts aborts on Ctrl-C: a test aborts its own with an InterruptedError to stand for one.
      signal,
    });
    await new Promise((r) => setImmediate(r));
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    // A config dir made for this one call (if sq made it) is of no use after it.
    if (own) rmSync(own, { recursive: true, force: true });
  }
}

/**
 * In-process, with sqBin's options and the result as sqBin gives it (stdin from `input`, NO_COLOR set, stdout and
 * stderr without their final newline, as execa strips it): for a test of what the CLI does (exit codes, output,
 * requests, files) that once ran the built binary only to run the CLI, at ~0.13 s of CPU a call (a Node process
 * started, the pool's code cache linked and removed) against a few ms. What is about the process stays on sqBin:
 * the launcher, signals, pipes, code caches, concurrency between processes.
 */
export async function sqIn(
  args: string[],
  opts: { env?: Record<string, string | undefined>; input?: string } = {},
): Promise<SqResult> {
  const r = await sq(args, { env: { NO_COLOR: '1', ...opts.env }, stdin: opts.input });
  return { code: r.code, stdout: r.stdout.replace(/\n$/, ''), stderr: r.stderr.replace(/\n$/, '') };
}

export const BIN = resolve(import.meta.dirname, '../../bin/sq.js');

/**
 * For a test that starts bin/sq.js itself (to signal it, or to read it as it runs): a fresh cache directory (SQ_CACHE_DIR)
 * holding the run's code caches (test/helpers/code-cache-pool.ts), as sqBin gives each call; pacing state stays the
 * call's own. Without one, every such call compiled the 800 KB bundle from source: `sq squids list` measured ~0.08 s
 * of CPU from a pooled cache against ~0.12 s without one (a word the pool does not hold yet costs the same as none).
 * `giveToPool(dir)` after a call that ended with exit 0 and no --jq adds what it wrote to the pool.
 */
export function binCacheDir(): string {
  const dir = tempDir('sq-test-cache-');
  fillFromPool(dir);
  return dir;
}

export { giveToPool } from './code-cache-pool.js';

/**
 * The built binary, as a user runs it. Needs `npm run build` first (npm test does it). Unless the test gives it a cache
 * directory (SQ_CACHE_DIR, XDG_CACHE_HOME or HOME), a fresh one of its own, as a user's first call has, but holding
 * the run's code caches (test/helpers/code-cache-pool.ts): the bundle starts warm, as it does for a user from the
 * second call on. Not for `__complete`, whose refresh goes on in the background after the call.
 */
export async function sqBin(
  args: string[],
  opts: { env?: Record<string, string | undefined>; input?: string; timeout?: number; cancelSignal?: AbortSignal } = {},
): Promise<SqResult> {
  const own = opts.env?.SQ_CONFIG_DIR === undefined ? ownConfigDir() : undefined;
  const givesCache = ['SQ_CACHE_DIR', 'XDG_CACHE_HOME', 'HOME'].some((k) => opts.env?.[k] !== undefined);
  const cache = givesCache || args[0] === '__complete' ? undefined : binCacheDir();
  try {
    const r = await runProgram(process.execPath, [BIN, ...args], {
      env: { SQ_CONFIG_DIR: own, SQ_CACHE_DIR: cache, NO_COLOR: '1', SQ_NO_UPDATE_NOTIFIER: '1', ...opts.env },
      input: opts.input ?? '',
      timeout: opts.timeout ?? 60_000,
      cancelSignal: opts.cancelSignal,
    });
    if (cache && r.code === 0 && !args.some((a) => a === '--jq' || a.startsWith('--jq='))) giveToPool(cache);
    return r;
  } finally {
    if (own) rmSync(own, { recursive: true, force: true });
    if (cache) rmSync(cache, { recursive: true, force: true });
  }
}

/**
 * A program run to its end as execa ran it for sqBin (reject: false, extendEnv: false): exactly `env`, `input` on
 * stdin, SIGTERM at `timeout` or on `cancelSignal` (SIGKILL 5 s later if it is still there), stdout and stderr
 * without their final newline; the exit code, 1 when a signal ended it. node:child_process without execa: execa's
 * streams cost the worker ~5 ms of CPU more a call (measured on 30 calls of `node -e 0`: 6-8 ms against 2), and
 * sqBin starts several hundred processes a run.
 */
function runProgram(
  file: string,
  args: string[],
  opts: { env: Record<string, string | undefined>; input: string; timeout: number; cancelSignal?: AbortSignal },
): Promise<SqResult> {
  return new Promise((resolve, reject) => {
    const env = Object.fromEntries(Object.entries(opts.env).filter((e): e is [string, string] => e[1] !== undefined));
    const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    // A program that exits without reading its stdin: the write fails with EPIPE, which is no error of the test's.
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input);
    let force: NodeJS.Timeout | undefined;
    const stop = () => {
      child.kill('SIGTERM');
      force ??= setTimeout(() => child.kill('SIGKILL'), 5000);
    };
    const timer = setTimeout(stop, opts.timeout);
    opts.cancelSignal?.addEventListener('abort', stop, { once: true });
    const text = (chunks: Buffer[]) =>
      Buffer.concat(chunks)
        .toString()
        .replace(/\r?\n$/, '');
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(force);
      opts.cancelSignal?.removeEventListener('abort', stop);
      resolve({ code: code ?? 1, stdout: text(out), stderr: text(err) });
    });
  });
}
