import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// npm run test:system: the tests of what only the system can bring (test/system/). Its global setup fails at once,
// naming the Debian packages, when a tool is missing; as root it starts the private OpenSSH server.
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/system/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/setup/system.ts'],
  },
});
