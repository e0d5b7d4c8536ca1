// The launcher's V8 code caches, in the cache directory, and the loader of the bundle's parts. esbuild.config.mjs
// builds this file (with src/startup/argv.ts) on its own as dist/launcher.cjs, which bin/sq.js requires.
import {
  constants,
  lstatSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  closeSync,
  type Stats,
} from 'node:fs';
import { makeDirSync, openRegularSync } from '../lib/regular-file.js';
import { runtimeV8Flags } from './v8-flags.js';

import { Script } from 'node:vm';

export { cacheDir } from '../lib/cache-dir.js';

export interface CodeCache {
  /** The cache's bytes, if the directory and the file are ours alone; else undefined. */
  read(): Buffer | undefined;
  /** Writes what `data` makes, as a new file renamed over the old one; any failure is the same as no cache. */
  write(data: () => Uint8Array): void;
}

/**
 * The code cache of `source` (a file of this build, named by its first line `// sq bundle <id>`) under the name
 * `name`, if it has one. One cache file per build, Node version, V8 flags and command word (`sq me`, `sq runs`, …).
 */
export function codeCache(source: string, dir: string, name: string): CodeCache | undefined {
  const build = buildOf(source);
  if (build === undefined) return undefined;
  // V8 rejects a cache made under other V8 flags, so runs under other flags (sq's own from v8-flags.ts included) keep
  // one each rather than take turns rewriting one file.
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS || ''} ${runtimeV8Flags().join(' ')}`.trim();
  const cacheFile = `${dir}/code-${build}-${process.version}-${process.arch}${flags ? `-f${fnv1a(flags)}` : ''}-${name}.bin`;
  return {
    read() {
      if (!ownDir(dir)) return undefined;
      let fd: number | undefined;
      try {
        // Not through a symlink, and without blocking on a FIFO put in its place; then only a regular file of yours
        // that nobody else can write: compiled code runs as you.
        let st: Stats;
        ({ fd, st } = openRegularSync(cacheFile, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)));
        if (ours(st, 'isFile')) return readFileSync(fd);
      } catch {
        // no cache
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
      return undefined;
    },
    write(data) {
      let tmp: string | undefined;
      try {
        if (!makeOwnDir(dir)) return;
        pruneOtherBuilds(dir, build);
        // A new file (O_EXCL: never through a link or into a file someone placed), renamed over the old one.
        tmp = `${cacheFile}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
        writeFileSync(tmp, data(), { mode: 0o600, flag: 'wx' });
        renameSync(tmp, cacheFile);
      } catch (e) {
        // A read-only or full disk: run without a cache. (EEXIST: the name was not ours to remove.)
        try {
          if (tmp && (e as NodeJS.ErrnoException).code !== 'EEXIST') rmSync(tmp, { force: true });
        } catch {
          // nothing was made
        }
      }
    },
  };
}

/** The build a file of the build names on its first line (`// sq bundle <id>`, esbuild.config.mjs), if it has one. */
function buildOf(source: string): string | undefined {
  return /^\/\/ sq bundle ([0-9a-f]+)\n/.exec(source)?.[1];
}

/**
 * `source` (a part of the bundle: its build line, then `(function (<PART_PARAMS>) {…})` as the build writes it)
 * compiled through vm.Script, so that V8 can start from a code cache: the bytecode an earlier call of the same command
 * compiled. The cache directory is used only when it is a real directory that is ours alone. A cache that is missing
 * or rejected only costs the time it would have saved, and saveCache rewrites it after a successful call. `name` is
 * the command word and the part (`me`, `squids.shared`).
 */
export function compileCached(
  file: string,
  source: string,
  dir: string | undefined,
  name: string,
  mark?: (phase: string) => void,
): { run: (...args: unknown[]) => unknown; saveCache(code: number): void; cacheToWrite(code: number): boolean } {
  const cache = dir === undefined ? undefined : codeCache(source, dir, name);
  const cachedData = cache?.read();
  const script = new Script(source, { filename: file, cachedData });
  // SQ_TRACE_STARTUP's phase (bin/sq.js): the cache read and deserialised, or the bundle compiled without one.
  mark?.(cachedData ? (script.cachedDataRejected ? 'cache load (rejected)' : 'cache load') : 'compile (no cache)');
  const run = script.runInThisContext() as (...args: unknown[]) => unknown;
  const fresh = !cachedData || script.cachedDataRejected === true;
  // A V8 flag set while the command ran (v8-flags.ts: a long export's) would be baked into what V8 makes now, and the
  // next call, without it, would reject the file: nothing is written then.
  const flagsAtCompile = runtimeV8Flags().length;
  const cacheToWrite = (code: number) => !!cache && fresh && code === 0 && runtimeV8Flags().length === flagsAtCompile;
  return {
    run,
    cacheToWrite,
    saveCache(code) {
      if (cacheToWrite(code)) cache!.write(() => script.createCachedData());
    },
  };
}

/**
 * Caches of other builds (an older sq) written over a day ago are dead weight, as are temporary files a killed
 * process left. Not younger ones: two installed versions used side by side would keep wiping each other's.
 */
function pruneOtherBuilds(dir: string, build: string): void {
  const dayAgo = Date.now() - 86_400_000;
  for (const f of readdirSync(dir)) {
    if (!f.startsWith('code-') || (f.includes(build) && !f.endsWith('.tmp'))) continue;
    try {
      if (lstatSync(`${dir}/${f}`).mtimeMs < dayAgo) rmSync(`${dir}/${f}`, { force: true });
    } catch {
      // gone already
    }
  }
}

/** Creates the cache directory (0700) if it is missing; true if it is then usable (ownDir). */
function makeOwnDir(dir: string): boolean {
  try {
    // Not Node's recursive mkdir: it retries for ever on a filesystem that answers ENOENT to every entry (/proc/x).
    if (!lstat(dir)) makeDirSync(dir, 0o700);
  } catch {
    return false;
  }
  return ownDir(dir);
}

function lstat(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Made by you and writable by nobody else. (Windows has no uid and reports every writable file as 0666: there the
 * per-user cache directory is what protects it.) */
function ours(st: Stats | undefined, kind: 'isFile' | 'isDirectory'): boolean {
  return !!st && st[kind]() && (!process.getuid || (st.uid === process.getuid() && (st.mode & 0o022) === 0));
}

/** The cache directory is used only when it is a real directory (not a symlink) that is ours alone. */
export function ownDir(dir: string): boolean {
  return ours(lstat(dir), 'isDirectory');
}

/** 32 bits of FNV-1a, as 8 hex digits: names the V8 flags a cache was made under. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * The parameters of each part's function (esbuild.config.mjs writes them; loadParts passes them in this order): the
 * module wrapper's own, then what bin/sq.js hands the parts (PartGlobals).
 */
export const PART_PARAMS = 'exports, require, module, __filename, __dirname, __sqHostImport, __sqJq';

/** What bin/sq.js hands the bundle's parts besides the module wrapper's own arguments (src/import-package.ts, jq.ts). */
export interface PartGlobals {
  __sqHostImport: (specifier: string) => Promise<unknown>;
  __sqJq: unknown;
}

/**
 * Runs the CLI's bundle from its parts (scripts/split-bundle.mjs): dist/sq.cjs, and each dist/bundles/<part>.cjs the
 * first time one of its modules is required as "sq-mod:<part>:<module>", each compiled from its own code cache and
 * each module initialised once. Anything else a part requires is `hostRequire`, bin/sq.js's own. Returns the exports
 * of dist/shell/main.js.
 */
export function loadParts(
  dist: string,
  dir: string | undefined,
  word: string,
  hostRequire: NodeJS.Require,
  globals: PartGlobals,
  mark?: (phase: string) => void,
): {
  exports: { run(argv: string[], init?: { exits?: boolean }): Promise<number> };
  saveCache(code: number): void;
  cacheToWrite(code: number): boolean;
} {
  const tables = new Map<string, Record<string, (() => unknown) | undefined>>();
  const modules = new Map<string, unknown>();
  const saves: Array<ReturnType<typeof compileCached>> = [];
  let build: string | undefined;
  const load = (part: string): Record<string, (() => unknown) | undefined> => {
    const file = part === 'sq' ? `${dist}/sq.cjs` : `${dist}/bundles/${part}.cjs`;
    // The parts are ASCII (esbuild.config.mjs): latin1 reads one straight into a one-byte string.
    const source = readFileSync(file, 'latin1');
    const first = part === 'sq';
    // All parts of one build, or none. Only a build line is ever quoted: no error shows what else a file holds.
    const id = buildOf(source);
    if (first) build = id;
    else if (id !== build)
      throw new Error(
        `${file} is not of the same build as ${dist}/sq.cjs (${id ? `build ${id}` : 'no build line'}, ` +
          `not ${build ? `build ${build}` : 'none'}): install sq again, or run \`npm run build\``,
      );
    // A part of a build older than this loader (its text a bare module body) would run with none of its arguments.
    if (!source.startsWith(`(function (${PART_PARAMS}) {`, source.indexOf('\n') + 1))
      throw new Error(
        `${file} is not a part of this sq (no part function after its build line): install sq again, or run \`npm run build\``,
      );
    const compiled = compileCached(file, source, dir, first ? word : `${word}.${part}`, first ? mark : undefined);
    const module = { exports: {} as Record<string, (() => unknown) | undefined> };
    compiled.run(module.exports, partRequire, module, file, dist, globals.__sqHostImport, globals.__sqJq);
    tables.set(part, module.exports);
    saves.push(compiled);
    return module.exports;
  };
  const partRequire = Object.assign(
    (id: string): unknown => {
      if (!id.startsWith('sq-mod:')) return hostRequire(id);
      const colon = id.indexOf(':', 7);
      const [part, path] = [id.slice(7, colon), id.slice(colon + 1)];
      if (modules.has(path)) return modules.get(path);
      const init = (tables.get(part) ?? load(part))[path];
      if (!init) throw new Error(`${dist}/bundles/${part}.cjs has no module ${path}: run \`npm run build\` again`);
      const exports = init();
      modules.set(path, exports);
      return exports;
    },
    { resolve: hostRequire.resolve },
  );
  return {
    exports: partRequire('sq-mod:sq:dist/shell/main.js') as {
      run(argv: string[], init?: { exits?: boolean }): Promise<number>;
    },
    saveCache: (code) => {
      for (const part of saves) part.saveCache(code);
    },
    cacheToWrite: (code) => saves.some((part) => part.cacheToWrite(code)),
  };
}
