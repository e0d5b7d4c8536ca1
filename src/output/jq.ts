// --jq: real jq (jq-web, jq 1.7 compiled to WebAssembly), loaded only when the flag is given.
//
// jq-web was picked over jq-wasm by measurement (README, "Scripting"): jq-wasm copies its input one byte at a time
// (1,000 squids took 1.1 s, 10,000 never finished) and drops a runtime error once some output was written.
// jq-web stays outside the bundle (esbuild.config.mjs): with --jq, bin/sq.js preloads a copy of its script and a
// smaller jq.wasm from dist/ (see preloadJq there); without the launcher, jq-web loads from node_modules as published.
import { SqError, UsageError } from '../errors.js';
import { importPackage } from '../import-package.js';
import { fnv1a64, readCacheFile, writeCacheFile } from '../io/cache-file.js';

interface JqWeb {
  raw(json: string, filter: string, flags?: string[]): string | undefined;
}

interface JqFailure {
  exitCode?: number;
  stderr?: string;
  message?: string;
}

/** What bin/sq.js started with --jq (its preloadJq): jq-web's factory (dist/jq.cjs) and jq.wasm compiling. */
interface PreloadedJq {
  factory: (moduleArg: { instantiateWasm(imports: object, done: (instance: WasmInstance) => void): object }) => Promise<JqWeb>;
  wasm: Promise<WasmModule>;
}
declare const __sqJq: PreloadedJq | undefined;
// The few WebAssembly types used here (TypeScript has them only in the DOM library, which sq does not load).
type WasmModule = { readonly __wasmModule?: never };
type WasmInstance = { readonly exports: object };
declare const WebAssembly: { instantiate(module: WasmModule, imports: object): Promise<WasmInstance> };

let loading: Promise<JqWeb> | undefined;
let lib: JqWeb | undefined;

/** Loads jq once per process: what the launcher preloaded, else jq-web as published. */
export async function loadJq(): Promise<JqWeb> {
  loading ??= (typeof __sqJq === 'object' && __sqJq ? fromPreloaded(__sqJq) : undefined) ?? requireJqWeb();
  lib = await loading;
  return lib;
}

function requireJqWeb(): Promise<JqWeb> {
  // require, not import(): jq-web's exports are a Promise, and a module namespace carrying its `then` is itself a
  // thenable that some loaders (vitest's) cannot await.
  return importPackage<typeof import('node:module')>('node:module').then(({ createRequire }) => createRequire(import.meta.url)('jq-web') as Promise<JqWeb>);
}

async function fromPreloaded({ factory, wasm }: PreloadedJq): Promise<JqWeb> {
  let module: WasmModule;
  try {
    module = await wasm;
  } catch {
    return requireJqWeb();
  }
  // jq-web waits for instantiateWasm's callback: a failure must reject here, or it would wait for ever.
  return new Promise<JqWeb>((resolve, reject) => {
    factory({
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(module, imports).then(done, reject);
        return {};
      },
    }).then(resolve, reject);
  });
}

/** jq's own message without the "jq: error: " prefix and the "jq: 1 compile error" trailer. */
function jqMessage(err: JqFailure): string {
  const text = (err.stderr ?? err.message ?? 'jq failed').trim();
  return text
    .split('\n')
    .filter((l) => !/^jq: \d+ compile errors?$/.test(l))
    .join('\n')
    .replace(/^jq: error(?: \(at [^)]*\))?: /, '')
    .trimEnd();
}

/**
 * Runs jq like `jq -r -c`: raw strings unquoted, any other value as compact JSON, one per line. Emscripten's runtime
 * sets process.exitCode when jq fails and on some paths writes jq's stderr with console.warn: both are put back, so
 * an in-process run (tests) is not marked as failed and stderr only carries sq's own messages.
 */
function call(lib: JqWeb, json: string, expr: string, flags: string[]): { ok: true; out: string | undefined } | { ok: false; err: JqFailure } {
  const exitCode = process.exitCode;
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return { ok: true, out: lib.raw(json, expr, flags) };
  } catch (err) {
    return { ok: false, err: err as JqFailure };
  } finally {
    console.warn = warn;
    process.exitCode = exitCode;
  }
}

/**
 * A syntax error or an unknown function is a usage error, found before any request: the expression runs once on
 * null with -n and its output is dropped; only jq's compile failure (exit 3) counts, a runtime error on null does not.
 * An expression that compiled before (with this jq) is not checked again: its hash is kept in `known`, a file in the
 * cache directory, so a script that runs the same --jq each time does not wait for jq's check run before its request.
 */
export async function checkJq(expr: string, known?: string): Promise<void> {
  if (expr.trim() === '') throw new UsageError('--jq needs an expression, e.g. --jq \'.[].name\'');
  const key = fingerprint(`${JQ_WEB}\n${expr}`);
  const seen = known === undefined ? undefined : readCacheFile(known);
  if (seen?.split('\n').includes(key)) {
    // Not waited for: jq finishes loading while the request is out. Whatever prints through jq awaits it (a failure
    // to load is reported there).
    loadJq().catch(() => undefined);
    return;
  }
  const r = call(await loadJq(), 'null', expr, ['-n']);
  if (!r.ok && r.err.exitCode === 3) throw new UsageError(`--jq: ${jqMessage(r.err)}`);
  if (known !== undefined) writeCacheFile(known, [...(seen ?? '').split('\n').filter(Boolean).slice(-(KNOWN_MAX - 1)), key, ''].join('\n'));
}

/** The jq build the known-expressions cache was made with (test/unit checks it against node_modules/jq-web). */
export const JQ_WEB = 'jq-web 0.6.2';
const KNOWN_MAX = 256;

/** The name an expression has in the known list (see checkJq). A collision could only skip a check: the bad
 * expression then fails after the request, still exit 2 with jq's message. */
export function fingerprint(text: string): string {
  return fnv1a64(text);
}

/** The text jq prints for `value`; a runtime error (e.g. "Cannot index string with "name"") is exit 1 with jq's message. */
export function runJq(value: unknown, expr: string): string {
  if (!lib) throw new Error('jq is not loaded: await loadJq() first');
  const r = call(lib, JSON.stringify(value) ?? 'null', expr, ['-r', '-c']);
  // jq-web drops the final newline of jq's output, and gives undefined when there was none (no output at all).
  if (r.ok) return r.out === undefined ? '' : `${r.out}\n`;
  if (r.err.exitCode === 3) throw new UsageError(`--jq: ${jqMessage(r.err)}`);
  throw new SqError(`--jq: ${jqMessage(r.err)}`);
}
