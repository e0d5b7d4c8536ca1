// Is a newer sq published? One GET of the npm registry's `latest` document, within CHECK_BUDGET_MS, its answer kept a
// day in the cache directory. Used by the update notice (notice.ts) and by `sq doctor`. Its socket and timer are
// unref'd, so a registry that hangs never keeps sq from exiting, and every failure is "unknown", never an error.
import { existsSync, realpathSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { shellWord } from '../io/shell.js';
import { importPackage } from '../import-package.js';
import { readRegularSync } from '../lib/regular-file.js';
import { VERSION } from '../version.js';

export const PACKAGE_NAME = 'lobstr-sq';
export const DEFAULT_REGISTRY = 'https://registry.npmjs.org';
/** The whole budget of one check: connection, answer and body. */
export const CHECK_BUDGET_MS = 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;
/** After a check that got no answer, the next one waits this long (not a day: the network may be back soon). */
const RETRY_AFTER_FAILURE_MS = 60 * 60 * 1000;
const CACHE_FILE = 'update-check.json';

export interface UpdateCache {
  /** ms: when the registry was last asked (answer or not). */
  checked_at: number;
  /** The latest version it said, or null when it did not answer. */
  latest: string | null;
  /** ms: when the notice was last shown. */
  notified_at: number;
}

/** The registry's base URL: SQ_UPDATE_URL (tests: a local fake registry), else npm's. */
export function registryUrl(env: Record<string, string | undefined>): string {
  return (env.SQ_UPDATE_URL || DEFAULT_REGISTRY).replace(/\/+$/, '');
}

export function latestUrl(env: Record<string, string | undefined>): string {
  return `${registryUrl(env)}/${PACKAGE_NAME}/latest`;
}

/** -1, 0 or 1 as a is older, the same as, or newer than b (x.y.z; a pre-release sorts before its release). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core, pre] = v.replace(/^v/, '').split('-', 2);
    return { nums: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre: pre ?? null };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return 1;
  if (y.pre === null) return -1;
  return x.pre < y.pre ? -1 : 1;
}

export function isNewer(latest: string | null, current: string = VERSION): boolean {
  return latest !== null && compareVersions(latest, current) > 0;
}

/** What a version string the registry sent may be: digits and dots, maybe a pre-release tag; anything else is ignored. */
const VERSION_RE = /^\d{1,6}\.\d{1,6}\.\d{1,6}(-[0-9A-Za-z.-]{1,40})?$/;

/**
 * The registry's latest version of sq, or null when it did not answer within `budgetMs` (or answered something
 * else). The request is unref'd (it never keeps the process alive) unless `hold`: the process that exists only to
 * ask (sq __update-check) must wait for it.
 */
export async function fetchLatest(
  env: Record<string, string | undefined>,
  budgetMs = CHECK_BUDGET_MS,
  opts: { hold?: boolean } = {},
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(latestUrl(env));
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  // Loaded here, not at start: node:https brings TLS, which a command on a cached answer never needs.
  const { get } = await importPackage<typeof import('node:https')>(
    url.protocol === 'https:' ? 'node:https' : 'node:http',
  );
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => finish(null), budgetMs);
    if (!opts.hold) timer.unref();
    const req = get(url, { headers: { accept: 'application/json', 'user-agent': `sq/${VERSION}` } }, (res) => {
      if (res.statusCode !== 200) return finish(null);
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        // The `latest` document is a few KB; a registry that sends megabytes is not read to the end.
        if (size > 1_000_000) return finish(null);
        chunks.push(c);
      });
      res.on('end', () => {
        try {
          const v = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { version?: unknown }).version;
          finish(typeof v === 'string' && VERSION_RE.test(v) ? v : null);
        } catch {
          finish(null);
        }
      });
      res.on('error', () => finish(null));
    });
    if (!opts.hold) req.on('socket', (s) => s.unref());
    req.on('error', () => finish(null));
  });
}

function cachePath(dir: string): string {
  return `${dir}/${CACHE_FILE}`;
}

export function readCache(dir: string): UpdateCache | null {
  try {
    const raw = JSON.parse(readRegularSync(cachePath(dir))) as Partial<UpdateCache>;
    const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
    const latest = typeof raw.latest === 'string' && VERSION_RE.test(raw.latest) ? raw.latest : null;
    return { checked_at: n(raw.checked_at), latest, notified_at: n(raw.notified_at) };
  } catch {
    return null;
  }
}

/** Written whole (a temp file and a rename), mode 0600; a cache that cannot be written is no error. */
export function writeCache(dir: string, cache: UpdateCache): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${cachePath(dir)}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(cache), { mode: 0o600 });
    renameSync(tmp, cachePath(dir));
  } catch {
    // the next command asks again
  }
}

/** True when the cached answer is too old to trust (a day after an answer, an hour after a failed check). */
export function isStale(cache: UpdateCache | null, now: number): boolean {
  if (!cache) return true;
  const age = now - cache.checked_at;
  return age < 0 || age >= (cache.latest === null ? RETRY_AFTER_FAILURE_MS : DAY_MS);
}

/** How the running sq was installed: the standalone executable, a git clone (its root), or npm. */
export type Install = { kind: 'npm' } | { kind: 'standalone' } | { kind: 'git'; root: string };

/**
 * What the launcher's path says of how sq was installed: bin/sq.js in a folder with a .git (a clone, or a worktree's
 * .git file) is a git clone, built from source; the standalone executable has a host of its own; else npm.
 */
export function installOf(launcher: string | undefined = process.argv[1]): Install {
  if (typeof (globalThis as { __sqHostHas?: unknown }).__sqHostHas === 'function') return { kind: 'standalone' };
  try {
    if (launcher && /^sq(\.js)?$/.test(basename(launcher))) {
      const bin = dirname(realpathSync(launcher));
      const root = dirname(bin);
      if (basename(bin) === 'bin' && existsSync(join(root, '.git'))) return { kind: 'git', root };
    }
  } catch {
    // a launcher that cannot be read: npm's advice
  }
  return { kind: 'npm' };
}

/** The line the notice prints and doctor's fix names: the command for the way sq was installed. */
export function upgradeHint(latest: string, install: Install = installOf()): string {
  if (install.kind === 'git')
    return `cd ${shellWord(install.root)} && git pull && npm install && npm run build (sq runs from this git clone)`;
  if (install.kind === 'standalone') return `download the standalone executable of release ${latest}`;
  return `npm install -g ${PACKAGE_NAME}@${latest} (or the standalone executable of the release)`;
}
