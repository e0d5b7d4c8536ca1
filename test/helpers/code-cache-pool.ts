// One warm V8 code cache for the whole npm test run. bin/sq.js compiles the bundle from a code cache per command word
// in its cache directory (src/startup/code-cache.ts); each test file's directory (test/setup/cache-dir.ts) and each
// sqBin call's (test/helpers/cli.ts) starts empty, so every first `sq <word>` of a file, and every sqBin call, compiled
// the 800 KB bundle from source and then wrote its cache (~60 ms of CPU more than a warm start, 130 of them in
// test/e2e/profiles-concurrency alone). The cache files are named by build, Node version, V8 flags and word, so one
// made anywhere in the run fits every other: the run keeps them in one pool (under SQ_TEST_RUN_DIR, removed with it)
// and a new cache directory starts with hard links to them. A link is the same file: sq's checks (a regular file of
// ours, 0600) hold, and sq replaces a cache by renaming a new file over the name, which never changes the pool's.
// Pacing state and everything else stays the directory's own. Outside npm test (no SQ_TEST_RUN_DIR) it does nothing.
import { linkSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The pool's name in the run's directory (test/setup/temp-dirs.ts leaves it to the run's removal). */
export const POOL_NAME = 'code-cache-pool';
const CODE_CACHE = /^code-[^/]+\.bin$/;

function pool(): string | undefined {
  const run = process.env.SQ_TEST_RUN_DIR;
  if (!run) return undefined;
  const dir = join(run, POOL_NAME);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

function linkCaches(from: string, to: string): void {
  let names: string[];
  try {
    names = readdirSync(from);
  } catch {
    return; // no directory: nothing cached
  }
  for (const name of names) {
    if (!CODE_CACHE.test(name)) continue;
    try {
      linkSync(join(from, name), join(to, name));
    } catch {
      // already there (EEXIST), or gone since the listing: either way nothing to do
    }
  }
}

/** Links the run's code caches into `dir` (an existing, empty cache directory). */
export function fillFromPool(dir: string): void {
  const p = pool();
  if (p) linkCaches(p, dir);
}

/**
 * Adds the code caches sq wrote in `dir` to the run's pool (the first of each name stays). Only after a call without
 * --jq: bin/sq.js sets a V8 flag for jq (--liftoff-only) before it compiles the bundle, and V8 refuses a cache made
 * under other flags, so a cache a --jq call wrote would only cost the calls without it a rejected load.
 */
export function giveToPool(dir: string): void {
  const p = pool();
  if (p) linkCaches(dir, p);
}
