// With SQ_TEST_CPU_LOG=FILE (a measuring aid, off by default): one NDJSON line per test file with the CPU seconds
// its worker and the processes it waited for (the built sq, shells) spent on it, its wall time and when it started
// (ms since the epoch, to see which files overlap and which run alone at the end), so the costly files can be found
// on a busy machine where wall times mean little. Linux only (/proc/self/stat). Vite's transforms run in vitest's
// main process and are not counted here.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll } from 'vitest';
import { cpuTimes } from '../helpers/proc.js';

const log = process.env.SQ_TEST_CPU_LOG;

if (log) {
  // From here, before the test file is imported: its imports count too.
  const start = cpuTimes('self') ?? [0, 0, 0, 0];
  const t0 = Date.now();
  afterAll((suite) => {
    const [u, s, cu, cs] = (cpuTimes('self') ?? start).map((v, i) => v - start[i]);
    const file = relative(process.cwd(), (suite as { filepath?: string }).filepath ?? '?');
    appendFileSync(
      log,
      `${JSON.stringify({
        file,
        cpu: +(u + s + cu + cs).toFixed(2),
        self: +(u + s).toFixed(2),
        children: +(cu + cs).toFixed(2),
        wall: (Date.now() - t0) / 1000,
        start: t0,
      })}\n`,
    );
  });
}
