import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// npm run test:system: the tests of what only the system can bring (test/system/). Its global setup fails at once,
// naming the Debian packages, when a tool is missing; as root it starts the private OpenSSH server.
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/system/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    // The temp-dir check of npm test (test/setup/temp-dirs.ts) too: it also removes the run's temp dir.
    globalSetup: ['test/setup/temp-dirs.ts', 'test/setup/system.ts'],
  },
});
