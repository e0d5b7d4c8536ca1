// Runs before each test file (setupFiles): a temp directory of the file's own, removed when the file ends, so that
// no test leaves anything behind (issue 33 item 8: every npm test left ~530 directories, 60 MB). TMPDIR points into
// it while the file runs: every mkdtemp of the tests and their helpers (tempDir, tempConfigDir, the SFTP server's
// root), and every process started with the environment passed on, writes there. The file's sq processes keep their
// code cache and pacing state in it too (SQ_CACHE_DIR), so files running at once in parallel workers never share
// pacing state (a pause one file's test provokes must not slow another's sq). Tests of the cache dir itself set
// SQ_CACHE_DIR, XDG_CACHE_HOME or HOME of their own.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { writersUnder } from '../helpers/proc.js';
import { fillFromPool } from '../helpers/code-cache-pool.js';

const before = { TMPDIR: process.env.TMPDIR, SQ_CACHE_DIR: process.env.SQ_CACHE_DIR };
const fileTmp = mkdtempSync(join(process.env.SQ_TEST_RUN_DIR ?? tmpdir(), 'file-'));
process.env.TMPDIR = fileTmp;
process.env.SQ_CACHE_DIR = join(fileTmp, 'sq-cache');
mkdirSync(process.env.SQ_CACHE_DIR, { mode: 0o700 });
// The run's code caches (test/helpers/code-cache-pool.ts): the file's first `sq <word>` starts warm.
fillFromPool(process.env.SQ_CACHE_DIR);

// Registered first, so it runs after the file's own afterAll hooks (servers stopped, emulators closed).
afterAll(async () => {
  for (const [k, v] of Object.entries(before)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  // Waits for the processes still writing there (test/helpers/proc.ts: /proc on Linux, the completion refreshes'
  // locks elsewhere). A generous bound: a process a test left hanging must not hold the run (the teardown then names
  // what it left).
  for (const end = Date.now() + 20_000; writersUnder(fileTmp) > 0 && Date.now() < end; )
    await new Promise((r) => setTimeout(r, 100));
  rmSync(fileTmp, { recursive: true, force: true, maxRetries: 3 });
}, 30_000);
