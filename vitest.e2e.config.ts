import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// npm run test:e2e: the built bin/sq.js as processes (test/e2e/): signals and exit codes, the launcher and its code
// caches, pipes, files, processes racing each other, the package. Needs only Node and npm, as npm test does, with its
// setup (each file's temp dir, the write check, the temp-dir teardown). .ci/run runs it on the machine's Node and
// on 22 and 24 (.ci/other-nodes.sh).
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/e2e/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
  },
});
