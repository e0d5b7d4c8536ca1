// The full matrix of test/e2e/stop-reads.test.ts (npm run test:system): every read that waits for data (stdin open
// and empty, a FIFO nobody writes to) under SIGTERM (exit 143) and under SIGINT (exit 130); npm test runs each read
// under one of the two (test/helpers/stop-reads.ts).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/fs.js';
import { stopReadTests } from '../helpers/stop-reads.js';
import { SLOW } from '../helpers/timeouts.js';

const emu = useEmulator({ each: 'clear' });
const fifo = join(tempDir('sq-reads-'), 'in.fifo');
execFileSync('mkfifo', [fifo]);

describe('a stop signal ends a read that waits for data, under both signals', SLOW, () => {
  stopReadTests(emu, fifo, () => true);
});
