// The order files start in. vitest's own order runs the longest first when its results cache (node_modules/.vite)
// knows the durations, and the largest first when it does not, as on a fresh clone, where a short file that waits
// on the real clock can then start last and hold the run open alone. The files below take the longest (syncs killed
// and rerun, runaway filters stopped by signals, interrupted exports, 8 processes sharing a real 2-per-second budget,
// 84 processes racing for a lock file, a property of 8 emulators, the docs' blocks and the demo and README tours'
// sequential steps): they start first, so their waits overlap the rest. One list for npm test and test:e2e (each
// suite's files are in it; the other's never match).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const FIRST = [
  // The longest file (a fresh clone's size order started it among the last).
  'test/e2e/results-sync-kill.test.ts',
  'test/e2e/jq-runaway.test.ts',
  'test/e2e/results-resume.test.ts',
  'test/e2e/pacing-shared.test.ts',
  'test/e2e/profiles-concurrency.test.ts',
  'test/property/secrets.test.ts',
  'test/e2e/mcp.test.ts',
  'test/demo/tour.test.ts',
  'test/readme/docs-blocks.test.ts',
  // Small files that wait long, which the size order started last (the README's tours run their steps one after
  // the other; stop signals): on 2026-11-27 readme/tour started 152 s into a 163 s run.
  'test/e2e/stop-reads.test.ts',
  'test/e2e/apply-interrupted.test.ts',
  'test/readme/tour.test.ts',
  'test/readme/everyday.test.ts',
];

export default class WaitersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = FIRST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i < 0 ? FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
