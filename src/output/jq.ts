// --jq: real jq (jq-web, jq compiled to WebAssembly), loaded only when the flag is given; picked over jq-wasm, and a
// worker thread over a synchronous jq on the main thread, by measurement (docs/performance.md, "--jq").
//
// jq runs in a worker thread (src/output/jq-worker.ts) so that a stop signal always works (the main thread still
// handles SIGTERM and ends the worker), its output streams with backpressure (`--jq 'repeat(1)' | head -2` ends), and
// it is capped (src/output/limits.ts): a cap reached is exit 1 naming it, never V8's fatal invalid size error.
//
// jq-web stays outside the bundle (esbuild.config.mjs): with --jq, bin/sq.js starts jq's worker before the CLI loads
// (jq-preload.ts, with sq's patches from jq-patches.ts) and startJq takes it over; without the launcher, jq-web loads
// from node_modules and is patched here the same way.
import type { Worker } from 'node:worker_threads';
import { SqError, UsageError } from '../errors.js';
import { importPackage } from '../import-package.js';
import { fnv1a64, readCacheFile, writeCacheFile } from '../lib/cache-file.js';
import { JQ_WORKER_SOURCE } from './jq-worker.js';
import { capMessage, outputFor, type FilterLimits } from './limits.js';
import { patchJqWeb } from './jq-patches.js';
import { boundedJq } from '../startup/jq-bounded.js';
import { jsonText } from './json-text.js';

/** What bin/sq.js started with --jq (jq-preload.ts): jq's worker already loading jq with the caps it read, else
 * dist/jq.wasm compiling for the worker startJq starts; and where dist/jq.cjs and dist/jq.wasm are. */
interface PreloadedJq {
  /** Undefined when `started` compiles it itself. */
  wasm?: Promise<unknown>;
  file: string;
  wasmPath: string;
  /** jq's script as text, where it is no file to read (the standalone executable's assets). */
  source?: string;
  /** jq's factory itself, where it is loaded already (the standalone executable). */
  factory?: JqFactory;
  started?: {
    worker: Worker;
    ctrl: Int32Array;
    limits: Pick<FilterLimits, 'maxOutput' | 'maxMemory'>;
    exited: boolean;
    forget(): void;
  };
}
declare const __sqJq: PreloadedJq | undefined;

interface JqLib {
  raw(json: string, expr: string, flags: string[]): string;
}
type JqFactory = (module: {
  sqWrite(bytes: Uint8Array, offset: number, length: number): number;
  instantiateWasm(imports: unknown, done: (instance: unknown) => void): object;
}) => Promise<JqLib>;
/** Node's WebAssembly (this project's TypeScript settings declare no DOM or WebAssembly types). */
const Wasm = (
  globalThis as unknown as {
    WebAssembly: {
      compile(bytes: Uint8Array): Promise<unknown>;
      instantiate(module: unknown, imports: unknown): Promise<unknown>;
    };
  }
).WebAssembly;

interface Job {
  id: number;
  write(text: string): Promise<void>;
  closed(): boolean;
  decoder: InstanceType<typeof TextDecoder>;
  chain: Promise<void>;
  settle(err?: unknown): void;
}

interface Host {
  worker: Worker;
  ctrl: Int32Array;
  limits: FilterLimits;
  job: Job | null;
}

let host: Host | undefined;
let nextId = 1;
const MB = 1024 * 1024;

/** Starts jq's worker, if it is not running with these limits (the one bin/sq.js started, if its caps are these). */
export async function startJq(limits: FilterLimits): Promise<Host> {
  if (host && sameLimits(host.limits, limits)) return host;
  stopJq();
  const { Worker } = await importPackage<typeof import('node:worker_threads')>('node:worker_threads');
  if (host && sameLimits(host.limits, limits)) return host;
  const pre = typeof __sqJq === 'object' && __sqJq ? __sqJq : undefined;
  const started = pre?.started;
  if (started) {
    // Taken over once: if it is not what is wanted now, it is ended and a worker of the wanted kind started.
    pre.started = undefined;
    started.forget();
    if (!started.exited && sameLimits(started.limits, limits)) return attach(started.worker, started.ctrl, limits);
    void started.worker.terminate();
  }
  const { file, wasmPath, source } = pre ?? (await jqFiles());
  const ctrl = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(JQ_WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      source,
      wasmPath,
      waitWasm: !!pre?.wasm,
      ctrl: ctrl.buffer,
      maxOutput: limits.maxOutput,
      maxHeap: limits.maxMemory,
    },
    // The worker's JavaScript heap (jq's input as a string, jq-web's glue): past it Node ends the worker alone.
    resourceLimits: { maxOldGenerationSizeMb: Math.max(64, Math.round(limits.maxMemory / MB)) },
    stdout: true,
    stderr: true,
  });
  if (pre?.wasm) {
    pre.wasm.then(
      (module) => worker.postMessage({ op: 'wasm', module }),
      () => worker.postMessage({ op: 'wasm', module: null }),
    );
  }
  return attach(worker, ctrl, limits);
}

function attach(worker: Worker, ctrl: Int32Array, limits: FilterLimits): Host {
  // Idle, it does not keep the process alive.
  worker.unref();
  const h: Host = { worker, ctrl, limits, job: null };
  host = h;
  worker.on('message', (m: WorkerMessage) => onMessage(h, m));
  worker.on('error', (err: Error & { code?: string }) => {
    const job = h.job;
    kill(h);
    const text =
      err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? capMessage('--jq', 'maxMemory', limits) : `--jq: ${err.message}`;
    job?.settle(new SqError(text));
  });
  worker.on('exit', () => {
    const job = h.job;
    kill(h);
    job?.settle(new SqError('--jq: jq stopped unexpectedly'));
  });
  return h;
}

/** Ends jq's worker (a stop signal, a cap, a reader gone): the next use starts a new one. */
export function stopJq(): void {
  if (host) kill(host);
}

function kill(h: Host): void {
  if (host === h) host = undefined;
  h.worker.removeAllListeners('exit');
  void h.worker.terminate();
}

function sameLimits(a: Pick<FilterLimits, 'maxOutput' | 'maxMemory'>, b: FilterLimits): boolean {
  return a.maxOutput === b.maxOutput && a.maxMemory === b.maxMemory;
}

type WorkerMessage =
  | { id: number; chunk: Uint8Array }
  | { id: number; done: true; error?: { exitCode?: number; text: string } }
  | { id: number; cap: 'output' | 'memory'; size: number }
  | { id: number; fatal: string };

function onMessage(h: Host, m: WorkerMessage): void {
  const job = h.job;
  if ('fatal' in m) {
    kill(h);
    job?.settle(new SqError(`--jq: jq could not start: ${m.fatal}`));
    return;
  }
  if (!job || job.id !== m.id) return;
  if ('chunk' in m) {
    job.chain = job.chain.then(async () => {
      try {
        if (!job.closed()) await job.write(job.decoder.decode(m.chunk, { stream: true }));
      } finally {
        Atomics.sub(h.ctrl, 0, 1);
        Atomics.notify(h.ctrl, 0);
      }
      // The reader went away (`| head`): a quiet stop, as for any output; jq need not run on.
      if (job.closed()) {
        kill(h);
        job.settle();
      }
    });
    job.chain.catch((err: unknown) => {
      kill(h);
      job.settle(err);
    });
    return;
  }
  if ('cap' in m) {
    kill(h);
    const cap = m.cap === 'output' ? 'maxOutput' : 'maxMemory';
    job.chain.then(
      () => job.settle(new SqError(capMessage('--jq', cap, h.limits, m.size))),
      (err: unknown) => job.settle(err),
    );
    return;
  }
  job.chain.then(
    () => {
      h.job = null;
      if (!m.error) return job.settle();
      job.settle(jqError(m.error.exitCode, m.error.text));
    },
    (err: unknown) => job.settle(err),
  );
}

// One document at a time (`webhook listen` filters each event as it comes): a job waits for the one before.
let queue: Promise<unknown> = Promise.resolve();

/** After a stop signal, jobs already handed over may still finish for GRACE_MS (`webhook listen` still prints the
 * events it had accepted), then the worker is ended. */
const GRACE_MS = 250;
const abortedAt = new WeakMap<AbortSignal, number>();

/** Notes when `signal` fires: one listener per signal, outside submit's scope, whose closure would keep every job's
 * arguments (each page's JSON text) alive until the command ends. */
function noteAbort(signal: AbortSignal): void {
  if (signal.aborted || watched.has(signal)) return;
  watched.add(signal);
  signal.addEventListener('abort', () => abortedAt.set(signal, Date.now()), { once: true });
}
const watched = new WeakSet<AbortSignal>();

function graceLeft(signal: AbortSignal): number {
  return (abortedAt.get(signal) ?? Date.now()) + GRACE_MS - Date.now();
}

function submit(...args: Parameters<typeof submitNow>): Promise<void> {
  const signal = args[4];
  if (signal) noteAbort(signal);
  return inTurn(() => submitNow(...args));
}

/** Runs `job` after the jobs before it, wherever they ran (worker or main thread): output keeps its order. */
function inTurn(job: () => Promise<void>): Promise<void> {
  const run = queue.then(job);
  queue = run.catch(() => undefined);
  return run;
}

/** Runs one job in the worker; `write` gets jq's output as it comes. A stop signal ends the worker at once. */
async function submitNow(
  limits: FilterLimits,
  msg: { op: 'check' | 'run'; expr: string; json?: string; maxOutput?: number },
  write: (text: string) => Promise<void>,
  closed: () => boolean,
  signal?: AbortSignal,
): Promise<void> {
  if (signal?.aborted && graceLeft(signal) <= 0) throw signal.reason;
  const h = await startJq(limits);
  if (h.job) throw new Error('jq is busy: one document at a time');
  return new Promise<void>((resolve, reject) => {
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      kill(h);
      job.settle(signal!.reason);
    };
    const onAbort = () => {
      timer = setTimeout(stop, Math.max(0, graceLeft(signal!)));
    };
    const job: Job = {
      id: nextId++,
      write,
      closed,
      decoder: new TextDecoder(),
      chain: Promise.resolve(),
      settle(err?: unknown) {
        if (done) return;
        done = true;
        if (h.job === job) h.job = null;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        h.worker.unref();
        if (err === undefined) resolve();
        else reject(err);
      },
    };
    h.job = job;
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    // Busy, the worker keeps the process alive: the output is still to come.
    h.worker.ref();
    h.worker.postMessage({ ...msg, id: job.id });
  });
}

/** jq's failure with its own message, without the "jq: error: " prefix and the "jq: 1 compile error" trailer. */
function jqError(exitCode: number | undefined, raw: string): SqError {
  const text = raw
    .trim()
    .split('\n')
    .filter((l) => !/^jq: \d+ compile errors?$/.test(l))
    .join('\n')
    .replace(/^Non-zero exit code: \d+\n?/, '')
    .replace(/^jq: error(?: \(at [^)]*\))?: /, '')
    .trimEnd();
  return exitCode === 3 ? new UsageError(`--jq: ${text}`) : new SqError(`--jq: ${text}`);
}

/**
 * A syntax error or an unknown function is a usage error, found before any request: jq compiles the expression with
 * no input, so it never runs. An expression that compiled before is not checked again: its hash is kept in `known`,
 * a file in the cache directory, so a script that runs the same --jq each time does not wait for the check.
 */
export async function checkJq(expr: string, limits: FilterLimits, known?: string, signal?: AbortSignal): Promise<void> {
  if (expr.trim() === '') throw new UsageError("--jq needs an expression, e.g. --jq '.[].name'");
  // A bounded path always compiles, and runs on the main thread (runJq): no check, no worker. jq loads and warms up
  // while the request is out, not waited for here.
  if (boundedJq(expr)) {
    jqHere().catch(() => undefined);
    return;
  }
  const key = fingerprint(`${JQ_WEB}\n${expr}`);
  const seen = known === undefined ? undefined : readCacheFile(known);
  if (seen?.split('\n').includes(key)) {
    // Not waited for: jq finishes loading in its worker while the request is out.
    startJq(limits).catch(() => undefined);
    return;
  }
  await submit(
    limits,
    { op: 'check', expr },
    async () => undefined,
    () => false,
    signal,
  );
  const kept = (seen ?? '')
    .split('\n')
    .filter(Boolean)
    .slice(-(KNOWN_MAX - 1));
  if (known !== undefined) writeCacheFile(known, [...kept, key, ''].join('\n'));
}

/** The jq build the known-expressions cache was made with (test/unit checks it against node_modules/jq-web). */
export const JQ_WEB = 'jq-web 0.6.2';
const KNOWN_MAX = 256;

/** The name an expression has in the known list (see checkJq). A collision could only skip a check: the bad
 * expression then fails after the request, still exit 2 with jq's message. */
export function fingerprint(text: string): string {
  return fnv1a64(text);
}

/**
 * Runs jq like `jq -r -c` on `value`, handing `write` what jq prints as it prints it. A runtime error is exit 1 with
 * jq's message, after what jq printed before it; a cap reached is exit 1 naming it; `closed()` ends jq quietly.
 */
export async function runJq(
  value: unknown,
  expr: string,
  o: { limits: FilterLimits; write(text: string): Promise<void>; closed(): boolean; signal?: AbortSignal },
): Promise<void> {
  const json = jsonText(value) ?? 'null';
  if (json.length <= HERE_MAX && boundedJq(expr)) return inTurn(() => runHere(json, expr, o));
  await submit(
    o.limits,
    { op: 'run', expr, json, maxOutput: outputFor(o.limits, json.length) },
    o.write,
    o.closed,
    o.signal,
  );
}

/**
 * The largest document a bounded expression (boundedJq) is run on the main thread for: a page of results. jq then ends
 * at once whatever the expression, so a stop signal is never kept waiting and no worker starts (docs/performance.md,
 * "--jq"). Larger documents, and any other expression, go to the worker.
 */
const HERE_MAX = 4 * MB;

let here: Promise<{ lib: JqLib; out: Uint8Array[] }> | undefined;
const WARM_INPUT = '{"a":[1,"x",null,true,false,{"b":-2.5e3,"c":"\\u00e9"}],"d":[]}';
const WARM_FILTER = '.a[], .a, .d | length, .e.f?';

/** jq-web's files in node_modules, its script patched as bin/sq.js patches it. */
async function jqFiles(): Promise<{ file: string; wasmPath: string; source?: string }> {
  const { createRequire } = await importPackage<typeof import('node:module')>('node:module');
  const { readFileSync } = await importPackage<typeof import('node:fs')>('node:fs');
  const require = createRequire(import.meta.url);
  const file = require.resolve('jq-web');
  return { file, wasmPath: require.resolve('jq-web/jq.wasm'), source: patchJqWeb(readFileSync(file, 'utf8'), file) };
}

/** jq-web loaded on the main thread, once: from what bin/sq.js preloaded (or the standalone executable's assets), else node_modules. */
function jqHere(): Promise<{ lib: JqLib; out: Uint8Array[] }> {
  here ??= (async () => {
    const pre = typeof __sqJq === 'object' && __sqJq ? __sqJq : undefined;
    const { readFileSync } = await importPackage<typeof import('node:fs')>('node:fs');
    const { file, wasmPath, source } = pre ?? (await jqFiles());
    let factory = pre?.factory;
    const wasm = pre?.wasm ?? Wasm.compile(readFileSync(wasmPath));
    if (!factory) {
      const vm = await importPackage<typeof import('node:vm')>('node:vm');
      const { dirname } = await importPackage<typeof import('node:path')>('node:path');
      const { createRequire } = await importPackage<typeof import('node:module')>('node:module');
      const mod = { exports: {} as unknown };
      const wrap = new vm.Script(
        `(function (exports, require, module, __filename, __dirname) {${source ?? readFileSync(file, 'latin1')}\n})`,
        { filename: file },
      ).runInThisContext() as (...a: unknown[]) => void;
      wrap(mod.exports, createRequire(import.meta.url), mod, file, dirname(file));
      factory = mod.exports as JqFactory;
    }
    const out: Uint8Array[] = [];
    const lib = await factory({
      sqWrite(bytes, offset, length) {
        // jq's heap as emscripten hands it over (an Int8Array): copied out as bytes.
        out.push(Uint8Array.from(new Uint8Array(bytes.buffer, bytes.byteOffset + offset, length)));
        return length;
      },
      instantiateWasm(imports, done) {
        void wasm.then((m) => Wasm.instantiate(m, imports)).then(done);
        return {};
      },
    });
    // As the worker warms up (src/output/jq-worker.ts): jq's code for input, iteration and output compiled now.
    try {
      lib.raw(WARM_INPUT, WARM_FILTER, ['-r', '-c']);
    } catch {
      // nothing to report: the user's own run reports what is wrong
    }
    out.length = 0;
    return { lib, out };
  })();
  return here;
}

/** A bounded expression on a small document, on the main thread: what it printed, then its error if any, as the worker does. */
async function runHere(
  json: string,
  expr: string,
  o: { write(text: string): Promise<void>; closed(): boolean },
): Promise<void> {
  const { lib, out } = await jqHere();
  out.length = 0;
  let failure: { exitCode?: number; stderr?: string; message?: string } | undefined;
  try {
    lib.raw(json, expr, ['-r', '-c']);
  } catch (err) {
    failure = (err ?? {}) as typeof failure;
  }
  const text = Buffer.concat(out.splice(0)).toString('utf8');
  if (text !== '' && !o.closed()) await o.write(text);
  if (!failure) return;
  throw jqError(failure.exitCode, String(failure.stderr || failure.message || failure || 'jq failed'));
}
