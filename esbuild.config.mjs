// `npm run build`: compiles src/ into dist/ (one .js per .ts), then bundles the CLI (dist/shell/main.js and everything it may
// load) into CommonJS files bin/sq.js runs with a V8 code cache of its own: dist/sq.cjs, what every call runs, and
// dist/bundles/<part>.cjs, what only some calls load (scripts/split-bundle.mjs). The unbundled dist/ stays for the
// tests that import modules directly.
//
// Why: a call like `sq me` used to spend more time finding, reading and compiling ~60 module files (ours, commander)
// than talking to the API. One file compiled from a cache costs a fraction of that (see docs/performance.md, and
// test/bench/startup.bench.mjs). Requests go through Node's own node:http (src/api/transport.ts), not a package.
//
// What the bundle leaves out until it is used (a plain text patch; the build fails if the text it expects is gone,
// so an upgrade of commander cannot silently undo or break it; it is pinned exactly in package.json so that an
// upgrade is a deliberate review of the patch):
// - node:child_process in commander: it only runs stand-alone executable subcommands, which sq has none of.
// Packages that only some commands load (ora, prompts, conf, yaml) are bundled each on its own into
// dist/vendor/, loaded on first use (src/import-package.ts), so that installing sq installs no packages for them (see
// VENDORED at the end). ssh2-sftp-client (the emulator's SFTP delivery: an optional peer dependency), jq-web and
// chalk stay in node_modules. For --jq, bin/sq.js loads dist/jq.cjs
// and dist/jq.wasm instead, both written below from jq-web; node_modules' copy is the fallback.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { buildParts, partition } from './scripts/split-bundle.mjs';
import { createRequire } from 'node:module';

/**
 * Packages that only some commands load, each bundled with its own dependencies into dist/vendor/<file>.mjs (an ES
 * module, like the package as imported): installing sq then fetches none of them (docs/install.md). The bundle's
 * importPackage() loads them from there; the unbundled dist/ the tests import keeps loading them from node_modules.
 */
const VENDORED = {
  ora: 'ora',
  conf: 'conf',
  '@inquirer/prompts': 'inquirer-prompts',
  yaml: 'yaml',
  // `sq mcp`: the MCP SDK's server parts and zod, re-exported by src/mcp/sdk.ts (package.json "imports").
  '#mcp-sdk': 'mcp-sdk',
  // `sq mcp --http`: the SDK's HTTP transport, apart (src/mcp/sdk-http.ts): a stdio server never loads it.
  '#mcp-sdk-http': 'mcp-sdk-http',
  // `sq results sync --to postgres://…`: the Postgres client (src/sync/postgres.ts).
  pg: 'pg',
};

/** [path inside node_modules, [[text, replacement], …], text that must not remain] */
const PATCHES = [
  [
    'commander/lib/command.js',
    [
      [
        "const childProcess = require('node:child_process');",
        "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      ],
    ],
    /childProcess\.(?!spawn\()/,
  ],
];

const root = `${process.cwd().replace(/\\/g, '/')}/`;

/** `whole`: the build of the whole bundle, where every patch must have found its file (a part holds only some). */
const lazyLoads = (whole) => ({
  name: 'sq-lazy-loads',
  setup(b) {
    const byPath = new Map(PATCHES.map(([p, reps, leftover]) => [p, { reps, leftover }]));
    b.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
      const path = args.path.replace(/\\/g, '/');
      const rel = path.replace(/^.*node_modules\//, '');
      let text = await readFile(args.path, 'utf8');
      // SQ_TEST_LOAD_LOG=FILE (see the banner below): each file of the bundle adds its name to the log as its
      // evaluation ends. At the end, not the start: a "use strict" directive must stay first.
      const logged = JSON.stringify(path.startsWith(root) ? path.slice(root.length) : rel);
      text = `${text}\n;__sqLoadLog?.push(${logged});\n`;
      const patch = byPath.get(rel);
      if (patch) {
        for (const [from, to] of patch.reps) {
          if (!text.includes(from))
            throw new Error(
              `esbuild.config.mjs: ${rel} no longer contains ${JSON.stringify(from.slice(0, 60))}; review the patch`,
            );
          text = text.replace(from, to);
        }
        const m = patch.leftover && text.match(patch.leftover);
        if (m)
          throw new Error(
            `esbuild.config.mjs: ${rel} still uses ${JSON.stringify(m[0])} after patching; review the patch`,
          );
        byPath.delete(rel);
      }
      return { contents: text, loader: 'js' };
    });
    b.onEnd((result) => {
      if (whole && !result.errors.length && byPath.size)
        throw new Error(`esbuild.config.mjs: not in the bundle any more: ${[...byPath.keys()].join(', ')}`);
    });
  },
});

// src/ → dist/, file for file: esbuild strips the types (tsconfig's isolatedModules and verbatimModuleSyntax make that
// exact, with no type information), many times faster than tsc's emit. The types
// are checked by tsc on its own: `npm run typecheck` (npm test runs it; prepack runs tsc -p tsconfig.json --noEmit).
await build({
  entryPoints: readdirSync('src', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join('src', f)),
  outbase: 'src',
  outdir: 'dist',
  platform: 'node',
  format: 'esm',
  target: 'es2022',
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
});

// Every noun's spec as JSON (dist/specs/<noun>.json), functions (each verb's run) as `true`, read by src/shell/specs.ts:
// program.ts builds the command tree from it and dispatch.ts parses a plain line with it, without loading the
// modules. Files of their own rather than inside the bundle: a call reads only its noun's, and the bundle and its code
// cache stay smaller. A spec holding anything JSON does not carry as it is (a RegExp, a Set, a function other
// than run) fails the build rather than show a different command.
const { NOUNS } = await import('./dist/commands/index.js');
// A spec of a noun since removed (or of an older build's file layout) must not stay beside the current ones.
await rm('dist/specs', { recursive: true, force: true });
await mkdir('dist/specs', { recursive: true });
const verbModules = [];
for (const entry of NOUNS) {
  const spec = (await entry.load()).default;
  const json = JSON.stringify(spec, (key, value) => {
    if (typeof value !== 'function') return value;
    if (key !== 'run')
      throw new Error(`esbuild.config.mjs: the spec of "${entry.name}" has a function "${key}": only run can be one`);
    return true;
  });
  const runs = (v) => ({ ...v, run: true, subcommands: v.subcommands?.map(runs) });
  const expected = 'verbs' in spec ? { ...spec, verbs: spec.verbs.map(runs) } : runs(spec);
  if (!isDeepStrictEqual(JSON.parse(json), withoutUndefined(expected)))
    throw new Error(`esbuild.config.mjs: the spec of "${entry.name}" holds values JSON cannot carry`);
  // Each verb of a noun with the file that declares it (the file whose default export it is), so that running it
  // loads that file alone, not the noun's index and every verb it imports (verbModules below).
  const doc = JSON.parse(json);
  if ('verbs' in spec) {
    // Listed from src/, not dist/: a dist/ of an earlier build keeps the files of modules since moved or removed.
    const files = readdirSync(`src/commands/${entry.name}`, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, '.js'));
    const byExport = new Map();
    for (const f of files)
      byExport.set(
        (await import(`./dist/commands/${entry.name}/${f}`)).default,
        `${entry.name}/${f.replace(/\\/g, '/')}`,
      );
    spec.verbs.forEach((v, i) => {
      const file = byExport.get(v);
      if (file) (doc.verbs[i].module = file), verbModules.push(file);
    });
  }
  await writeFile(`dist/specs/${entry.name}.json.tmp`, JSON.stringify(doc));
  await rename(`dist/specs/${entry.name}.json.tmp`, `dist/specs/${entry.name}.json`);
}
// The files of those verbs, each imported on its own when it runs (src/shell/specs.ts, sqVerbModules; injected below).
await writeFile(
  'dist/verb-modules.js',
  `export const sqVerbModules = {\n${verbModules.map((f) => `  ${JSON.stringify(f)}: () => import(${JSON.stringify(`./commands/${f}`)}),`).join('\n')}\n};\n`,
);

function withoutUndefined(v) {
  if (Array.isArray(v)) return v.map(withoutUndefined);
  if (v === null || typeof v !== 'object') return v;
  if (Object.getPrototypeOf(v) !== Object.prototype) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => [k, withoutUndefined(x)]),
  );
}

// The bundle is built whole first, then again in parts (scripts/split-bundle.mjs): dist/sq.cjs, what every call runs,
// and dist/bundles/<part>.cjs, what only some calls load (a noun's verbs, the MCP server, jq…), from the whole one's
// module graph.
const bundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  write: false,
  external: ['ora', 'chalk', 'conf', '@inquirer/prompts', 'yaml', 'ssh2-sftp-client', 'jq-web'],
  // import.meta.url: dist/sq.cjs, beside the files it was bundled from, in every part (the banner below);
  // import.meta.dirname: dist/, the directory bin/sq.js's loader gives each part as __dirname.
  // VENDORED (below): the packages importPackage() loads from dist/vendor/ rather than node_modules.
  // __SQ_VERSION__ (src/version.ts): the version as package.json says at build time, which ships with it; reading and
  // parsing package.json cost every call time.
  define: {
    'import.meta.url': '__sqImportMeta.url',
    'import.meta.dirname': '__dirname',
    __SQ_VENDORED__: JSON.stringify(VENDORED),
    __SQ_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version),
  },
  // bin/sq.js's loader (src/startup/code-cache.ts, loadParts) runs each part with __dirname the dist/ directory.
  // SQ_TEST_LOAD_LOG=FILE: the files of the bundle that this call evaluated, in that order, written to FILE at exit,
  // one log for all the parts (test/e2e/launcher.test.ts checks that `sq me` evaluates nothing it does not need).
  banner: {
    js:
      // Made when first read: node:url's pathToFileURL cost every call, and most never read it.
      "var __sqImportMeta = { get url() { return (this.href ??= require('node:url').pathToFileURL(__dirname + '/sq.cjs').href); } };\n" +
      'var __sqLoadLog = process.env.SQ_TEST_LOAD_LOG ? (globalThis.__sqLoadLog ??= ' +
      "(process.on('exit', () => require('node:fs').writeFileSync(process.env.SQ_TEST_LOAD_LOG, globalThis.__sqLoadLog.join('\\n') + '\\n')), [])) : undefined;",
  },
  plugins: [lazyLoads(false)],
  inject: ['dist/verb-modules.js'],
  logLevel: 'warning',
  // Licence comments of the bundled packages are kept, at the end of each file.
  legalComments: 'eof',
  // Strings, templates, regular expressions and names come out as ASCII escapes; comments are left as written.
  charset: 'ascii',
  // Without comments and indentation the files are much smaller: less to read on every call. Names are not
  // minified, so a --verbose stack trace still names its functions; the unbundled dist/ stays readable.
  minifyWhitespace: true,
  minifySyntax: true,
};
const { PART_PARAMS } = await import('./dist/startup/code-cache.js');
const whole = await build({
  ...bundleOptions,
  entryPoints: ['dist/shell/main.js'],
  outfile: 'dist/sq.cjs',
  metafile: true,
  plugins: [lazyLoads(true)],
});
const parts = [];
for (const [part, text] of await buildParts(bundleOptions, root, partition(whole.metafile))) {
  // Only comments can still hold non-ASCII text: spell it as escapes too, so the whole file is ASCII and bin/sq.js can
  // read it as latin1 into a one-byte string (half the memory and time of a UTF-8 read).
  const code = text.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  // bin/sq.js compiles the parts through vm.Script, where import() has no loader: an import() of a module esbuild left
  // outside the bundle (a built-in: `await import('node:fs/promises')`) fails at run time with
  // ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING, only in the bundle. Such imports go through importPackage() (the launcher's
  // loader) or process.getBuiltinModule(); one written as import('…') fails the build instead.
  const strayImport = /\bimport\(\s*["'`][^"'`]*["'`]\s*\)/.exec(code);
  if (strayImport)
    throw new Error(
      `esbuild.config.mjs: part ${part} has ${strayImport[0]}, which fails under bin/sq.js: use importPackage() or process.getBuiltinModule()`,
    );
  // Each part is one function expression, the module wrapper that require() would add, written here so that the
  // launcher compiles the text it reads as it is (src/startup/code-cache.ts, compileCached).
  parts.push([part === 'sq' ? 'sq.cjs' : `bundles/${part}.cjs`, `(function (${PART_PARAMS}) {${code}\n})\n`]);
}
// jq-web's script as dist/jq.cjs, for jq's worker thread when bin/sq.js runs with --jq (src/output/jq.ts), with sq's
// text patches (src/output/jq-patches.ts, built by tsc above): it exports its factory, which the worker calls with
// the module bin/sq.js compiled while the bundle loaded, and its output and heap growth go through sq's caps.
const jqWeb = createRequire(import.meta.url).resolve('jq-web');
const { patchJqWeb } = await import('./dist/output/jq-patches.js');
const jqCode = patchJqWeb(await readFile(jqWeb, 'utf8'), jqWeb).replace(
  /[^\x00-\x7f]/gu,
  (c) => `\\u{${c.codePointAt(0).toString(16)}}`,
);

// jq's worker thread as a file, for bin/sq.js to start it as soon as it sees --jq (src/output/jq-worker.ts).
const { JQ_WORKER_SOURCE } = await import('./dist/output/jq-worker.js');
await writeFile('dist/jq-worker.cjs.tmp', JQ_WORKER_SOURCE);
await rename('dist/jq-worker.cjs.tmp', 'dist/jq-worker.cjs');

// jq.wasm without its DWARF debugging sections (1.8 of its 2.7 MB, custom sections that the engine skips): less to
// read and copy on every --jq call. The code, data and the function names for stack traces stay as they are.
const jqWasm = await readFile(createRequire(import.meta.url).resolve('jq-web/jq.wasm'));
await writeFile('dist/jq.wasm.tmp', withoutDebugSections(jqWasm));
await rename('dist/jq.wasm.tmp', 'dist/jq.wasm');

function withoutDebugSections(wasm) {
  if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error('esbuild.config.mjs: jq.wasm is not a WebAssembly module');
  const parts = [wasm.subarray(0, 8)];
  let i = 8;
  const leb = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = wasm[i++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  while (i < wasm.length) {
    const start = i;
    const id = wasm[i++];
    const size = leb();
    const body = i;
    i = body + size;
    if (i > wasm.length) throw new Error('esbuild.config.mjs: jq.wasm ends inside a section');
    if (id === 0) {
      const save = i;
      i = body;
      const nameLength = leb();
      const name = wasm.subarray(i, i + nameLength).toString('latin1');
      i = save;
      if (name.startsWith('.debug_')) continue;
    }
    parts.push(wasm.subarray(start, i));
  }
  const out = Buffer.concat(parts);
  if (!WebAssembly.validate(out))
    throw new Error('esbuild.config.mjs: jq.wasm without its debug sections does not validate');
  return out;
}

// The first line names this exact build (both files: bin/sq.js prunes the code caches of other builds); bin/sq.js keys
// its code caches on it.
// The build's name: the hash of dist/jq.cjs and of each part with its path, in the order of the paths.
const hash = createHash('sha256').update(jqCode);
for (const [file, code] of [...parts].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(file).update(code);
const id = hash.digest('hex').slice(0, 16);
// Written beside, then moved into place: the parts of the old build go at once with dist/bundles.
await rm('dist/bundles.tmp', { recursive: true, force: true });
await mkdir('dist/bundles.tmp/bundles', { recursive: true });
for (const [file, code] of parts) await writeFile(`dist/bundles.tmp/${file}`, `// sq bundle ${id}\n${code}`);
await writeFile('dist/jq.cjs.tmp', `// sq bundle ${id}\n${jqCode}`);
await rename('dist/jq.cjs.tmp', 'dist/jq.cjs');
await rm('dist/bundles', { recursive: true, force: true });
await rename('dist/bundles.tmp/bundles', 'dist/bundles');
await rename('dist/bundles.tmp/sq.cjs', 'dist/sq.cjs');
await rm('dist/bundles.tmp', { recursive: true, force: true });

// Every command's --help as the CLI prints it when stdout is not a terminal (laid out for 80 columns), one file per
// command: dist/help/sq.txt for `sq --help`, dist/help/sq.squids.list.txt for `sq squids list --help`. bin/sq.js
// prints that file for `sq <command…> --help` (or -h) with no other argument when stdout is a pipe or a file, without
// loading the CLI: help is what a newcomer types first. Rendered here by the CLI itself (run() with captured streams,
// a clean environment); test/help/prerendered.test.ts checks every file against the CLI's own output. A command
// whose help does not come out as exit 0 with nothing on stderr gets no file (the launcher then runs the CLI).
{
  const { run } = await import('./dist/shell/main.js');
  const { createContext } = await import('./dist/shell/factory.js');
  const { buildProgram } = await import('./dist/shell/program.js');
  const { Writable, PassThrough } = await import('node:stream');
  const env = { SQ_CONFIG_DIR: '/nonexistent-sq-build', SQ_CACHE_DIR: '', SQ_NO_UPDATE_NOTIFIER: '1' };
  const captured = () => {
    const chunks = [];
    const stream = new Writable({
      write(c, _e, cb) {
        chunks.push(Buffer.from(c));
        cb();
      },
    });
    return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
  };
  const io = (out, err) => ({
    stdout: out,
    stderr: err,
    stdin: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: 80,
  });
  const program = await buildProgram(createContext({ env, io: io(captured().stream, captured().stream) }), [], {
    loadAll: true,
  });
  const paths = [];
  const walk = (cmd, words) => {
    paths.push(words);
    for (const c of cmd.commands) walk(c, [...words, c.name()]);
  };
  walk(program, []);
  const tmp = `dist/help.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp);
  for (const words of paths) {
    if (!words.every((w) => /^[a-z][a-z0-9-]*$/.test(w))) continue;
    const [out, err] = [captured(), captured()];
    const code = await run([...words, '--help'], { env, io: io(out.stream, err.stream) });
    if (code !== 0 || err.text() !== '') continue;
    await writeFile(`${tmp}/${['sq', ...words].join('.')}.txt`, out.text());
  }
  await rm('dist/help', { recursive: true, force: true });
  await rename(tmp, 'dist/help');
}

// What bin/sq.js needs before the bundle loads, in one file (one module load less on every call): the argv
// pre-scanner (src/startup/argv.ts: one scanner and one list of value-taking globals for the launcher, main and program),
// to name the code cache, and the code caches' checks and the parts' loader (src/startup/code-cache.ts): one copy, the
// CLI's own.
await build({
  stdin: {
    contents:
      "export * from './dist/startup/code-cache.js';\nexport { setV8Flag } from './dist/startup/v8-flags.js';\nexport { scanArgv, boundedJq } from './dist/startup/argv.js';\n",
    resolveDir: '.',
    sourcefile: 'launcher.js',
  },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: 'dist/launcher.cjs',
  logLevel: 'warning',
  // Compiled from source on every call (it finds the code caches): the less text, the less to parse.
  minifyWhitespace: true,
  minifySyntax: true,
});
// The two files it replaces, if an older build left them.
await rm('dist/argv.cjs', { force: true });
await rm('dist/code-cache.cjs', { force: true });
// And what only some calls need, loaded by the launcher only then: SQ_TRACE_STARTUP's marks (src/startup/trace.ts) and --jq's
// early start (src/startup/jq-preload.ts).
await build({
  entryPoints: ['dist/startup/trace.js'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: 'dist/trace.cjs',
  logLevel: 'warning',
});
await build({
  entryPoints: ['dist/startup/jq-preload.js'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: 'dist/jq-preload.cjs',
  logLevel: 'warning',
});

// dist/vendor/: see VENDORED. Each file exports the names Node's import() of the package gives (for a CommonJS
// package, the default export and the names Node finds in it), so that the bundle's import() gets the same module
// either way. Their CommonJS parts require() Node's built-ins, which an ES module bundle does through a require of
// its own.
const vendorEntry = {
  name: 'sq-vendor-entry',
  setup(b) {
    b.onResolve({ filter: /^vendor:/ }, (args) => ({
      path: args.path.slice('vendor:'.length),
      namespace: 'sq-vendor',
    }));
    b.onLoad({ filter: /.*/, namespace: 'sq-vendor' }, async (args) => {
      const names = Object.keys(await import(args.path));
      const named = names.filter((n) => n !== 'default');
      const contents = [
        `import * as m from ${JSON.stringify(args.path)};`,
        names.includes('default') ? 'export default m.default;' : '',
        named.length ? `export const { ${named.join(', ')} } = m;` : '',
      ].join('\n');
      return { contents, resolveDir: process.cwd(), loader: 'js' };
    });
  },
};
await build({
  entryPoints: Object.fromEntries(Object.entries(VENDORED).map(([pkg, file]) => [file, `vendor:${pkg}`])),
  plugins: [vendorEntry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir: 'dist/vendor',
  outExtension: { '.js': '.mjs' },
  // pg's optional native binding and its Cloudflare Workers socket: sq uses neither (pg requires them only when asked).
  external: ['pg-native', 'pg-cloudflare'],
  banner: {
    js: "import { createRequire as __sqCreateRequire } from 'node:module'; const require = __sqCreateRequire(import.meta.url);",
  },
  legalComments: 'eof',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});

// dist/mcp-first.json: `sq mcp`'s answers to initialize and tools/list, from the server just built (the script says why).
await import('./scripts/mcp-first-answers.mjs');
