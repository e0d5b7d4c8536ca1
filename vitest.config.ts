import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests never write into the machine's ~/.cache: every sq the tests run (in-process, or the built bin with the
// environment passed on) keeps its code cache and shared pacing state in one temp dir for the whole run. Tests of
// the cache dir itself set SQ_CACHE_DIR, XDG_CACHE_HOME or HOME of their own.
const cacheDir = process.env.SQ_TEST_CACHE_DIR ?? mkdtempSync(join(tmpdir(), 'sq-test-cache-'));
process.env.SQ_TEST_CACHE_DIR = cacheDir;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/system.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: { SQ_CACHE_DIR: cacheDir },
    reporters: ['default', './test/setup/summary-reporter.ts'],
  },
});
