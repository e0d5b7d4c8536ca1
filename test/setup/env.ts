// Runs before each test file (setupFiles), after cache-dir.ts: the file's process.env as it starts, put back once its
// tests are done. A worker runs file after file in one process (isolate: false in vitest.config.ts), so a variable
// a test file sets or removes and forgets (TZ, SQ_*) must not leak into the next file.
import { afterAll } from 'vitest';

const start = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in start)) delete process.env[key];
  for (const [key, value] of Object.entries(start)) if (process.env[key] !== value) process.env[key] = value;
});
