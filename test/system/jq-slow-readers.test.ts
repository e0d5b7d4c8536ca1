// The full sweep of the slow-reader test of test/e2e/jq-runaway.test.ts (npm run test:system): twelve sq at once under
// a 1 MB output cap, each read only after a pause from 100 to 870 ms, so sq's last writes are still queued when the
// command ends: the exit code is still the cap's 1, never 0 (the launcher waited for a drain that never came).
// npm test runs four.
import { expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { OUTPUT_CAP_LINE, slowReaders } from '../helpers/slow-readers.js';

const emu = useEmulator();

it("twelve readers slower than sq: each exit code is the cap's 1, with the whole 1 MB", async () => {
  const results = await slowReaders(emu, 12);
  for (const r of results) expect(r).toEqual({ code: 1, stderr: OUTPUT_CAP_LINE, bytes: 1024 * 1024 });
}, 120_000);
