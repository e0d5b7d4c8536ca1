// The CLI's bundle in parts (esbuild.config.mjs): dist/sq.cjs holds what every call runs (argv, the program's shell,
// config, the HTTP client, output), and dist/bundles/<part>.cjs the modules only some calls load: a noun's verbs, the
// MCP server, jq, the account-file engine… A call reads and compiles its parts alone: `sq me` and `sq squids list`
// the core only, and with it its code cache, and the functions V8 sets up as a file starts (docs/startup.md).
//
// Each module is in exactly one part, so it is evaluated once and shared by every part that uses it (one config,
// one pacing state, one error class per process). A part's import of a module of another part becomes
// require("sq-mod:<part>:<module>"), which bin/sq.js's loader (src/startup/code-cache.ts, loadParts) answers by loading
// that part and initialising the module; each part exports a table of the modules other parts import from it.
// Modules are split by what reaches them: a module that only one noun's verbs (or one lazily loaded feature) reach
// statically is in that noun's part; one that several reach is in "shared"; what the core reaches is in the core.
// Static imports mostly point from a part to one at least as widely used (a module that a shared module imports is
// reached by every part that reaches the shared one). Where they do not (an npm package kept whole with its
// importers), nothing loops either: a part's top level initialises no module, so loading one never loads another;
// its modules are initialised one by one as they are required.
import { build } from 'esbuild';

/**
 * The core (dist/sq.cjs): these modules and everything they import statically. Only roots: a module another root
 * imports statically is in the core already, and listing it fails the build (partition), so the list stays the few
 * modules the shell loads by import() on every call, and the verbs a script's loop runs most.
 */
export const CORE_ROOTS = [
  'dist/shell/main.js',
  'dist/verb-modules.js',
  'dist/shell/factory.js',
  'dist/shell/program.js',
  'dist/update/notice.js',
  'dist/config/store.js',
  'dist/config/resolve.js',
  // The table of human output, which the list verbs load on first use.
  'dist/output/table.js',
  // The calls a script's loop makes most: listing and reading the main resources (each a few KB with its columns),
  // and listing the stored profiles (no request: a part of its own cost it more than its code).
  'dist/commands/squids/list.js',
  'dist/commands/squids/get.js',
  'dist/commands/runs/list.js',
  'dist/commands/runs/get.js',
  'dist/commands/tasks/list.js',
  'dist/commands/crawlers/list.js',
  'dist/commands/profiles/list.js',
];
/** A part smaller than this goes into the core instead: a file of its own costs more than this much code. */
const MIN_PART = 4096;
/** Code that several kinds of call share gets a part of its own from this much; less goes into "shared". */
const MIN_SHARED_PART = 8192;

/**
 * Assigns each module of the bundle (an esbuild metafile of it) to a part: 'sq' (the core) or a part's name.
 * Returns the owner of each module and, per part, the modules other parts import from it.
 */
export function partition(metafile) {
  // Files only: not esbuild's own inputs (`<define:…>`, `<runtime>`), which every build makes for itself.
  const ins = Object.fromEntries(Object.entries(metafile.inputs).filter(([m]) => !m.startsWith('<')));
  const sizes = Object.values(metafile.outputs)[0].inputs;
  const size = (m) => sizes[m]?.bytesInOutput ?? 0;
  const edges = (m, dynamic) => ins[m].imports.filter((i) => ins[i.path] && (i.kind === 'dynamic-import') === dynamic).map((i) => i.path);
  const closure = (roots, stop) => {
    const seen = new Set();
    const todo = [...roots];
    while (todo.length) {
      const m = todo.pop();
      if (seen.has(m) || stop?.has(m)) continue;
      seen.add(m);
      todo.push(...edges(m, false));
    }
    return seen;
  };
  for (const r of CORE_ROOTS) if (!ins[r]) throw new Error(`scripts/split-bundle.mjs: ${r} is not in the bundle any more: update CORE_ROOTS`);
  for (const r of CORE_ROOTS) {
    if (closure(CORE_ROOTS.filter((x) => x !== r)).has(r)) throw new Error(`scripts/split-bundle.mjs: ${r} is imported by another root: drop it from CORE_ROOTS`);
  }
  // Every other module is loaded through an import() somewhere: each such target belongs to a kind of call (a noun's
  // verbs, or a feature: dist/mcp/…, dist/output/jq.js…), and a module to the kinds that reach it.
  let core = closure(CORE_ROOTS);
  const kindOf = (root) => /^dist\/commands\/([a-z-]+)(?:\/|\.js$)/.exec(root)?.[1] ?? /^dist\/([a-z-]+)\//.exec(root)?.[1] ?? 'misc';
  const reachedBy = new Map();
  for (const m of Object.keys(ins)) {
    for (const root of edges(m, true)) {
      if (core.has(root)) continue;
      for (const x of closure([root], core)) {
        if (!reachedBy.has(x)) reachedBy.set(x, new Set());
        reachedBy.get(x).add(kindOf(root));
      }
    }
  }
  // A kind's own modules make its part; what several kinds reach goes by the set of kinds that reach it: a set with
  // enough code is a part of its own (named after its largest module's folder), the rest is "shared".
  const owner = new Map();
  const bySet = new Map();
  for (const [m, kinds] of reachedBy) {
    const key = [...kinds].sort().join(',');
    if (kinds.size === 1) owner.set(m, key);
    else bySet.set(key, [...(bySet.get(key) ?? []), m]);
  }
  const taken = new Set(owner.values());
  for (const [, mods] of [...bySet].sort(([a], [b]) => a.localeCompare(b))) {
    const total = mods.reduce((n, m) => n + size(m), 0);
    let part = 'shared';
    if (total >= MIN_SHARED_PART) {
      const largest = [...mods].sort((x, y) => size(y) - size(x) || x.localeCompare(y))[0];
      const base = `shared-${/^(?:dist|node_modules)\/((?:@[^/]+\/)?[^/]+)/.exec(largest)[1].replace(/[^a-z0-9-]/g, '')}`;
      part = base;
      for (let n = 2; taken.has(part); n++) part = `${base}${n}`;
      taken.add(part);
    }
    for (const m of mods) owner.set(m, part);
  }
  // A part too small to be worth a file of its own joins the core, if what it imports adds little more.
  const byPart = new Map();
  for (const [m, part] of owner) byPart.set(part, [...(byPart.get(part) ?? []), m]);
  for (const [, mods] of [...byPart].sort(([a], [b]) => a.localeCompare(b))) {
    const added = [...closure(mods, core)];
    if (added.reduce((n, m) => n + size(m), 0) < MIN_PART) core = new Set([...core, ...added]);
  }
  for (const m of core) owner.set(m, 'sq');
  packagesWithImporters(ins, owner, (roots) => closure(roots));
  const unowned = Object.keys(ins).filter((m) => !owner.has(m));
  if (unowned.length) throw new Error(`scripts/split-bundle.mjs: no part for ${unowned.slice(0, 5).join(', ')}`);
  // What each part must hand out: the modules that a module of another part imports (statically or not).
  const exported = new Map([['sq', new Set(['dist/shell/main.js'])]]);
  for (const m of Object.keys(ins)) {
    for (const i of ins[m].imports) {
      if (!ins[i.path] || owner.get(i.path) === owner.get(m)) continue;
      const part = owner.get(i.path);
      if (!exported.has(part)) exported.set(part, new Set());
      exported.get(part).add(i.path);
    }
  }
  return { owner, exported };
}

/**
 * Builds each part as a CommonJS file (esbuild `options`, less its entry point): its entry is the table of the modules
 * it hands out, `{ "<module>": () => <its exports> }`, and an import of another part's module is left as
 * require("sq-mod:<part>:<module>"). Returns [part, code] pairs.
 */
export async function buildParts(options, root, { owner, exported }) {
  const parts = [...new Set(owner.values())].sort((a, b) => (a === 'sq' ? -1 : b === 'sq' ? 1 : a.localeCompare(b)));
  const out = [];
  for (const part of parts) {
    const table = [...(exported.get(part) ?? [])].sort();
    const entry = `module.exports = {\n${table.map((m) => `  ${JSON.stringify(m)}: () => require(${JSON.stringify(`${root}${m}`)}),`).join('\n')}\n};\n`;
    const elsewhere = {
      name: 'sq-parts',
      setup(b) {
        b.onResolve({ filter: /.*/ }, async (args) => {
          if (args.pluginData === 'sq-parts' || args.kind === 'entry-point') return undefined;
          const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'sq-parts' });
          if (r.errors.length || r.external) return r.errors.length ? { errors: r.errors } : { path: r.path, external: true };
          const m = r.path.startsWith(root) ? r.path.slice(root.length).replace(/\\/g, '/') : r.path;
          const o = owner.get(m);
          if (o === undefined || o === part) return { path: r.path, namespace: r.namespace, sideEffects: r.sideEffects, pluginData: r.pluginData };
          return { path: `sq-mod:${o}:${m}`, external: true };
        });
      },
    };
    const result = await build({
      ...options,
      entryPoints: undefined,
      outfile: undefined,
      stdin: { contents: entry, resolveDir: root, sourcefile: `sq-part-${part}.cjs`, loader: 'js' },
      inject: part === 'sq' ? options.inject : [],
      plugins: [elsewhere, ...(options.plugins ?? [])],
      // import() of another part's module becomes a require() in a promise, which the loader answers.
      supported: { ...options.supported, 'dynamic-import': false },
      metafile: true,
    });
    const foreign = Object.keys(result.metafile.inputs).filter((m) => owner.has(m) && owner.get(m) !== part);
    if (foreign.length) throw new Error(`scripts/split-bundle.mjs: part ${part} holds ${foreign.slice(0, 3).join(', ')} of another part`);
    // esbuild imports another part's module as Node imports a CommonJS one from an ES module (`__toESM(…, 1)`: the
    // default export is the whole exports object). These are ES modules (their exports say __esModule): without the
    // flag, `default` is their own default export again.
    const code = result.outputFiles[0].text.replace(/__toESM\(require\(("sq-mod:[^"]+")\),\s*1\)/g, '__toESM(require($1))');
    if (/__toESM\(require\("sq-mod:[^"]+"\),/.test(code)) throw new Error(`scripts/split-bundle.mjs: part ${part} imports another part's module in a form it does not know`);
    out.push([part, lazyExports(code)]);
  }
  return out;
}

/**
 * An npm package stays whole in one part, with the modules of ours that import it: a part that imported a package
 * from another would get the whole of it through that part's table, where esbuild can no longer leave out what
 * nobody uses (zod/mini is 30 KB used, 250 KB whole). The part is the most widely used of theirs: the core, else
 * "shared" when they are in several, else their one part.
 */
function packagesWithImporters(ins, owner, closure) {
  const pkgOf = (m) => /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(m)?.[1];
  const rank = (part) => (part === 'sq' ? 3 : part === 'shared' ? 2 : part.startsWith('shared-') ? 1 : 0);
  for (let changed = true; changed; ) {
    changed = false;
    const members = new Map();
    for (const m of Object.keys(ins)) {
      const pkg = pkgOf(m);
      if (pkg) members.set(pkg, [...(members.get(pkg) ?? []), m]);
    }
    for (const [pkg, files] of members) {
      const importers = Object.keys(ins).filter((m) => pkgOf(m) !== pkg && ins[m].imports.some((i) => pkgOf(i.path) === pkg));
      const parts = new Set([...files, ...importers].map((m) => owner.get(m)));
      const target = [...parts].sort((a, b) => rank(b) - rank(a))[0];
      const place = rank(target) === 0 && parts.size > 1 ? 'shared' : target;
      // Into the core, a module takes what it imports along (the core never waits on another part).
      for (const m of place === 'sq' ? closure([...files, ...importers]) : [...files, ...importers]) {
        if (owner.get(m) !== place) {
          owner.set(m, place);
          changed = true;
        }
      }
    }
  }
}

/**
 * esbuild gives each module's exports object its getters at the top level of the file (`__export(x_exports, {…})`),
 * so a part's start ran them for every module in it, used or not: young-generation allocation on every call
 * (docs/startup.md), most of it for modules the call never initialises. Each is moved to
 * the start of its module's init function (`init_x = __esm({"dist/x.js"() {…}})`), which runs before anything reads
 * `x_exports` (esbuild reads it only as `(init_x(), x_exports)`, and the parts' tables likewise), and first in it, so
 * a module that an import cycle re-enters already has its exports. A module's init is the first one after its
 * exports (esbuild writes a module's code in one piece), and only when it has the same name: two modules of the same
 * file name can get their names numbered apart (`resolve_exports` with `init_resolve2`), and such a call stays where
 * it was.
 */
export function lazyExports(code) {
  const moves = new Map();
  const exportsAt = /__export\(([\w$]+)_exports,(\{[^{}]*\})\);/g;
  const initAt = /\b(init_[\w$]+)=__esm\(\{"[^"]*"\(\)\{/g;
  for (const m of code.matchAll(exportsAt)) {
    initAt.lastIndex = m.index + m[0].length;
    const init = initAt.exec(code);
    if (init && init[1] === `init_${m[1]}`) moves.set(m.index, { init: init.index + init[0].length, text: m[0] });
  }
  const inserts = new Map([...moves.values()].map((x) => [x.init, x.text]));
  let out = '';
  let from = 0;
  for (const at of [...moves.keys(), ...inserts.keys()].sort((x, y) => x - y)) {
    out += code.slice(from, at);
    if (moves.has(at)) from = at + moves.get(at).text.length;
    else {
      out += inserts.get(at);
      from = at;
    }
  }
  return out + code.slice(from);
}
