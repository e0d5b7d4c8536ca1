// --jq: real jq (jq-web, jq 1.7 compiled to WebAssembly), loaded only when the flag is given.
//
// jq-web was picked over jq-wasm by measurement (README, "Scripting"): jq-wasm copies its input one byte at a time
// (1,000 squids took 1.1 s, 10,000 never finished) and drops a runtime error once some output was written.
// jq-web reads the wasm file beside its own script, so it stays in node_modules (esbuild.config.mjs, external).
import { SqError, UsageError } from '../errors.js';
import { importPackage } from '../import-package.js';

interface JqWeb {
  raw(json: string, filter: string, flags?: string[]): string | undefined;
}

interface JqFailure {
  exitCode?: number;
  stderr?: string;
  message?: string;
}

let loading: Promise<JqWeb> | undefined;
let lib: JqWeb | undefined;

/** Loads jq once per process. Commands never wait for it: preAction does, through checkJq, before any request. */
export async function loadJq(): Promise<JqWeb> {
  // require, not import(): jq-web's exports are a Promise, and a module namespace carrying its `then` is itself a
  // thenable that some loaders (vitest's) cannot await.
  loading ??= importPackage<typeof import('node:module')>('node:module').then(({ createRequire }) => createRequire(import.meta.url)('jq-web') as Promise<JqWeb>);
  lib = await loading;
  return lib;
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
 */
export async function checkJq(expr: string): Promise<void> {
  if (expr.trim() === '') throw new UsageError('--jq needs an expression, e.g. --jq \'.[].name\'');
  const r = call(await loadJq(), 'null', expr, ['-n']);
  if (!r.ok && r.err.exitCode === 3) throw new UsageError(`--jq: ${jqMessage(r.err)}`);
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
