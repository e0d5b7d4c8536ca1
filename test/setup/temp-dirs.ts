// The global teardown of npm test, test:e2e and test:system: the run's temp directory (vitest.config.ts) must hold
// nothing once every test file has removed its own (vitest's own project directory and the run's code cache pool,
// test/helpers/code-cache-pool.ts, excepted), and the system's temp dir nothing new under a name the tests or sq use.
// Anything left fails the run, named; the run's directory is then removed whole. What is in the system's temp dir is
// not: on a shared machine it may be another run's (SQ_TEST_SHARED_TMP=1 leaves that half of the check out there:
// parallel runs each check their own directory).
import { readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { POOL_NAME } from '../helpers/code-cache-pool.js';

/** Names the tests, their helpers and sq give what they make in a temp dir (prefixes). */
const OURS = /^(sq-|file-)/;

export function setup(project?: { tmpDir?: string }): () => void {
  const runDir = process.env.SQ_TEST_RUN_DIR!;
  const systemTmp = process.env.SQ_TEST_SYSTEM_TMP!;
  const vitestOwn = project?.tmpDir ? basename(project.tmpDir) : undefined;
  const started = Date.now();
  const before = new Set(readdirSync(systemTmp));
  return () => {
    const left = readdirSync(runDir).filter((n) => n !== vitestOwn && n !== POOL_NAME);
    const outside =
      process.env.SQ_TEST_SHARED_TMP === '1'
        ? []
        : readdirSync(systemTmp).filter((n) => {
            if (before.has(n) || !OURS.test(n) || n.startsWith('sq-test-run-')) return false;
            try {
              return statSync(join(systemTmp, n)).mtimeMs >= started - 1000;
            } catch {
              return false;
            }
          });
    // The whole directory, vitest's own included (vitest's later removal of it ignores that it is gone).
    rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
    if (left.length || outside.length) {
      throw new Error(
        `npm test left files in the temp directory (each test must remove its own): ${[
          ...left.map((n) => join(runDir, n)),
          ...outside.map((n) => join(systemTmp, n)),
        ].join(', ')}`,
      );
    }
  };
}
