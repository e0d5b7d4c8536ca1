#!/usr/bin/env node
'use strict';
// The launcher. `sq --version` answers without loading the CLI; everything else runs the CLI bundled into dist/sq.cjs
// and the parts of dist/bundles/ the command needs (esbuild.config.mjs), compiled from V8 code caches when there are
// some. See docs/startup.md.
const argv = process.argv.slice(2);
const fs = require('node:fs');
// SQ_TRACE_STARTUP=1: where a call's time goes, one line per phase on stderr as the process exits (src/startup/trace.ts
// marks the CLI's phases; docs/performance.md). Off, it costs this one look-up.
const trace = process.env.SQ_TRACE_STARTUP ? require('../dist/trace.cjs').startTrace() : undefined;
let launcher; // src/startup/code-cache.ts and src/startup/argv.ts, built as dist/launcher.cjs; not loaded for --version

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // A plain write(2): creating process.stdout would load Node's stream machinery for one line.
  try {
    fs.writeSync(1, `${JSON.parse(fs.readFileSync(`${__dirname}/../package.json`, 'utf8')).version}\n`);
  } catch (e) {
    if (e.code !== 'EPIPE') {
      process.stderr.write(`error: cannot write to stdout: ${e.message}\n`);
      process.exitCode = 1;
    }
  }
} else if (prerenderedHelp(argv)) {
  trace?.mark('help (pre-rendered)');
} else {
  // `sq … | head` closes the pipe early: that is not an error worth a stack trace. Any other error on stdout is the
  // CLI's to report, with its exit code (src/output/sink.ts, main.ts): never an uncaught throw from here. stderr
  // likewise, but as Node makes it, on first use: most calls never write there, and making it is not free.
  process.stdout.on('error', () => {});
  const made = Object.getOwnPropertyDescriptor(process, 'stderr');
  let stderr;
  if (made?.get && made.configurable) {
    Object.defineProperty(process, 'stderr', {
      configurable: true,
      enumerable: made.enumerable,
      get: () => (stderr ??= made.get.call(process).on('error', () => {})),
    });
  } else {
    stderr = process.stderr.on('error', () => {});
  }
  trace?.mark('stdio streams');
  // The same pre-scan of argv as the CLI's own (src/startup/argv.ts), and the code caches' directory and files, checked
  // by the CLI's own code (src/startup/code-cache.ts), with the loader of the bundle's parts: built beside the bundle.
  launcher = require('../dist/launcher.cjs');
  const scan = launcher.scanArgv(argv);
  const dir = launcher.cacheDir(process.env);
  trace?.mark('launcher');
  // With --jq, jq's worker thread starts now, before the V8 flag below: see startJqWorker (src/startup/jq-preload.ts,
  // built as dist/jq-preload.cjs). Not for an expression bounded by its input (`.[].name`): src/output/jq.ts runs that
  // on the main thread (a document too large for it still goes to a worker, started then). Without a cache directory
  // too (SQ_CACHE_DIR=, no home), only without the code cache of jq-web's script: the worker src/output/jq.ts starts
  // after the flag, from node_modules' jq-web, cost ~70 ms more CPU a call (farm-bench, 15 pairs, load ~10 on 2 cores).
  const jqExpr = scan.options.get('--jq');
  const jqPreload = scan.options.has('--jq') ? require('../dist/jq-preload.cjs') : undefined;
  const jqWorker =
    jqPreload && typeof jqExpr === 'string' && !launcher.boundedJq(jqExpr)
      ? jqPreload.startJqWorker(dir, launcher, `${__dirname}/../dist`)
      : undefined;
  // jq is WebAssembly (jq-web): V8 re-compiles it with TurboFan on background threads, and a short-lived process waits
  // for them at exit (a --jq call took twice the CPU). The baseline compiler's code is plenty. Only with --jq: a V8
  // flag set at run time makes V8 refuse the code cache Node ships for its own modules, and every built-in loaded
  // after it (node:vm, node:tty, node:fs/promises…) would be compiled from source (docs/startup.md). Set
  // before anything compiles; a V8 that refuses the flag only costs that time.
  if (scan.options.has('--jq')) {
    try {
      // Recorded (src/startup/v8-flags.ts): the code caches made under it get names of their own.
      launcher.setV8Flag('--liftoff-only');
    } catch {}
  }
  if (jqWorker) {
    Atomics.store(jqWorker.booted, 0, 2);
    Atomics.notify(jqWorker.booted, 0);
  }
  const jq = jqPreload?.preloadJq(jqWorker, `${__dirname}/../dist`);
  const cli = load(dir, scan.noun, jq);
  // `exits`: this process ends when run() returns, connections and all (src/shell/factory.ts, ContextInit).
  cli.exports.run(argv, { exits: true }).then(async (code) => {
    // The command has removed its own signal handlers. From here a stop signal ends the process as the command
    // would have (128 + signal), but only once saveCache, which is synchronous, has renamed or removed its temp file.
    // (Only when there is a cache to write: a signal handler costs the process a signal watcher.)
    const stops = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 };
    if (cli.cacheToWrite(code) || jqWorker)
      for (const s of Object.keys(stops))
        if (process.platform !== 'win32' || s !== 'SIGQUIT') process.on(s, () => process.exit(128 + stops[s]));
    trace?.mark('command');
    cli.saveCache(code);
    jqWorker?.saveCache(code);
    // The command is finished: once stdout and stderr are flushed, leave at once rather than wait for library
    // timers and closing keep-alive sockets to wind down. An empty write's callback runs once the
    // writes before it are out: 'drain' would not do, as it comes only after a write that returned false, and a
    // wait for it that never ends empties the event loop, so the process left with exit 0 whatever the command's code.
    await Promise.all(
      [process.stdout, stderr]
        .filter(Boolean)
        .map(
          (s) =>
            new Promise((done) =>
              s.writableLength > 0 && !s.destroyed && !s.writableEnded ? s.write('', () => done()) : done(),
            ),
        ),
    );
    trace?.mark('exit');
    process.exit(code);
  });
}

/**
 * `sq <command…> --help` (or -h) and nothing else, with stdout a pipe, a socket, a file or a device that is no
 * terminal (/dev/null): the help the build rendered
 * for that command (dist/help/sq.<words>.txt, esbuild.config.mjs), byte for byte what the CLI prints there (laid out
 * for 80 columns; test/help/prerendered.test.ts), printed without loading the CLI. False (the CLI runs) for a
 * terminal, any other argument, a command with no file, or a write that fails before any byte is out.
 */
function prerenderedHelp(argv) {
  const n = argv.length - 1;
  if (n < 0 || n > 4 || (argv[n] !== '--help' && argv[n] !== '-h')) return false;
  for (let i = 0; i < n; i++) if (!/^[a-z][a-z0-9-]{0,39}$/.test(argv[i])) return false;
  let text;
  try {
    const st = fs.fstatSync(1);
    if (!st.isFIFO() && !st.isSocket() && !st.isFile() && !(st.isCharacterDevice() && !require('node:tty').isatty(1)))
      return false;
    text = fs.readFileSync(`${__dirname}/../dist/help/${['sq', ...argv.slice(0, n)].join('.')}.txt`);
  } catch {
    return false;
  }
  let off = 0;
  try {
    while (off < text.length) off += fs.writeSync(1, text, off, text.length - off);
  } catch (e) {
    // As the CLI: a reader that went away (`sq --help | head -1`) is a quiet stop, exit 0.
    if (e.code === 'EPIPE') return true;
    if (off === 0) return false;
    if (e.code === 'EAGAIN') {
      process.stdout.on('error', () => {}).write(text.subarray(off));
      return true;
    }
    process.stderr.write(`error: cannot write to stdout: ${e.message}\n`);
    process.exitCode = 1;
  }
  return true;
}

/**
 * Runs the CLI from dist/sq.cjs and the parts of dist/bundles/ the command needs (src/startup/code-cache.ts, loadParts),
 * each compiled from a V8 code cache in SQ_CACHE_DIR, else $XDG_CACHE_HOME/sq, else ~/.cache/sq; SQ_CACHE_DIR= (empty)
 * turns the cache off. Node 22.1+ has a cache of its own, module.enableCompileCache(), but it keeps only the code
 * compiled while a module loads, not the functions a command compiles as it runs.
 */
function load(dir, word, jq) {
  const dist = `${__dirname}/../dist`;
  // import() inside code compiled this way has no loader of its own: the bundle borrows this file's (see
  // src/import-package.ts). Packages resolve the same from bin/ as from dist/.
  // The ES modules a command imports on first use that way (dist/vendor/: the MCP SDK, prompts…; the emulator)
  // compile from Node's own cache (Node 22.1+; none on 20), turned on at the first such import, in the same private
  // directory: `sq mcp` compiled its SDK from source on every start.
  let esm;
  const hostImport = (s) => {
    if (esm === undefined && (esm = dir !== undefined && launcher.ownDir(dir)))
      require('node:module').enableCompileCache?.(`${dir}/node-compile-cache`);
    return import(s);
  };
  // One code cache per part and command word; `jq` is what preloadJq started.
  const name = word && /^[a-z][a-z0-9-]{0,23}$/.test(word) ? word : '_';
  try {
    const cli = launcher.loadParts(dist, dir, name, require, { __sqHostImport: hostImport, __sqJq: jq }, trace?.mark);
    trace?.mark('bundle evaluation');
    return cli;
  } catch (e) {
    if (e.code === 'ENOENT' && typeof e.path === 'string' && e.path.startsWith(dist)) missing(e.path);
    throw e;
  }
}

function missing(file) {
  const { resolve } = require('node:path');
  process.stderr.write(`error: ${resolve(file)} is missing: run \`npm run build\` in ${resolve(__dirname, '..')}\n`);
  process.exit(1);
}
