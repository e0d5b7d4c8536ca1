// --jq in the launcher: jq's worker started, or jq.wasm compiling, before the CLI loads (src/output/jq.ts takes over
// its PreloadedJq). Built on its own as dist/jq-preload.cjs, which bin/sq.js requires only with --jq.
import { readFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import type { codeCache as makeCodeCache } from './code-cache.js';

/** dist/launcher.cjs, which the launcher has loaded already (its codeCache). */
type CodeCacheModule = { codeCache: typeof makeCodeCache };
/** Node's global (this project's TypeScript lib has no DOM or WebAssembly types). */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<unknown> };

/** The worker startJqWorker started, as jq.ts takes it over, and what the launcher does with it at exit. */
interface Started {
  worker: Worker;
  ctrl: Int32Array;
  booted: Int32Array;
  limits: { maxOutput: number; maxMemory: number };
  exited: boolean;
  saveCache(code: number): void;
  forget?: () => void;
}

/**
 * --jq, before the V8 flag is set: jq's worker thread (dist/jq-worker.cjs) starts at once, so that starting it and
 * loading jq-web in it overlap the CLI's load and the request. A thread started after any V8 flag is set compiles
 * Node's own modules from source (docs/startup.md), so the flag waits until the thread has started, and the worker
 * compiles dist/jq.wasm itself. src/output/jq.ts takes the worker over if it has the caps the CLI wants.
 */
export function startJqWorker(dir: string | undefined, codeCache: CodeCacheModule, dist: string): Started | undefined {
  try {
    const file = `${dist}/jq.cjs`;
    // jq-web's script is compiled in the worker from a code cache of its own, as the bundle is here (with no cache
    // directory, from source).
    const source = readFileSync(file, 'latin1');
    const cache = dir === undefined ? undefined : codeCache.codeCache(source, dir, '_jq');
    // The caps as src/output/limits.ts reads them (its defaults: 64 and 512 MB); a value it would refuse only makes
    // jq.ts start a worker of its own, after it has reported the usage error.
    const mb = (name: string, dflt: number, max: number) => {
      const raw = (process.env[name] || '').trim();
      return (/^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= max ? Number(raw) : dflt) * 1024 * 1024;
    };
    const limits = {
      maxOutput: mb('SQ_FILTER_MAX_OUTPUT_MB', 64, 1_000_000),
      maxMemory: mb('SQ_FILTER_MAX_MEMORY_MB', 512, 2047),
    };
    const ctrl = new Int32Array(new SharedArrayBuffer(8));
    const booted = new Int32Array(new SharedArrayBuffer(4));
    // Loaded here, not with this file: a bounded --jq (no worker) never needs it.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const worker = new Worker(`${dist}/jq-worker.cjs`, {
      workerData: {
        file,
        source,
        cachedData: cache?.read(),
        makeCache: !!cache,
        wasmPath: `${dist}/jq.wasm`,
        waitWasm: false,
        ctrl: ctrl.buffer,
        booted: booted.buffer,
        maxOutput: limits.maxOutput,
        maxHeap: limits.maxMemory,
        warm: true,
      },
      resourceLimits: { maxOldGenerationSizeMb: Math.max(64, Math.round(limits.maxMemory / 1024 / 1024)) },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    let made: Uint8Array | undefined;
    const started: Started = {
      worker,
      ctrl,
      booted,
      limits,
      exited: false,
      saveCache(code: number) {
        if (made && code === 0) cache!.write(() => made!);
      },
    };
    // The worker's code cache, when it had none or V8 refused it (see src/output/jq-worker.ts); jq that could not
    // load before jq.ts took the worker over makes jq.ts start its own, which reports why.
    worker.on('message', (m: { jqCache?: Uint8Array; fatal?: unknown } | null) => {
      if (m && m.jqCache) made = m.jqCache;
      if (m && m.fatal) started.exited = true;
    });
    // Until jq.ts takes it over: an error ends it (jq.ts then starts its own), never the process.
    const gone = () => (started.exited = true);
    worker.on('error', gone).on('exit', gone);
    started.forget = () => worker.off('error', gone).off('exit', gone);
    Atomics.wait(booted, 0, 0, 1000);
    return started;
  } catch {
    return undefined;
  }
}

/**
 * --jq, after the V8 flag: unless startJqWorker `started` a worker, dist/jq.wasm starts compiling here, before the
 * bundle loads, for the worker src/output/jq.ts starts. Without this the worker loads jq-web from node_modules.
 */
export function preloadJq(started: Started | undefined, dist: string) {
  try {
    const wasmPath = `${dist}/jq.wasm`;
    const wasm = started ? undefined : WebAssembly.compile(readFileSync(wasmPath));
    // A failure is handled where the module is awaited (src/output/jq.ts), if it ever is.
    wasm?.catch(() => {});
    return { wasm, file: `${dist}/jq.cjs`, wasmPath, started };
  } catch {
    return undefined;
  }
}
