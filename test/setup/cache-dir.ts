// Runs before each test file (setupFiles): a cache dir of the file's own, so files running at once in parallel
// workers never share code caches or pacing state (a pause one file's test provokes must not slow another's sq).
// Tests of the cache dir itself set SQ_CACHE_DIR, XDG_CACHE_HOME or HOME of their own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.SQ_CACHE_DIR = mkdtempSync(join(process.env.SQ_TEST_CACHE_DIR ?? tmpdir(), 'file-'));
