// Prints one plain closing line, "Tests: N passed, N failed", that any CI log reader understands.
import type { Reporter } from 'vitest/reporters';

interface TaskLike {
  type: string;
  mode?: string;
  result?: { state?: string };
  tasks?: TaskLike[];
}

export default class SummaryReporter implements Reporter {
  onFinished(files: TaskLike[] = []): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const walk = (t: TaskLike) => {
      if (t.tasks) t.tasks.forEach(walk);
      if (t.type !== 'test') return;
      if (t.mode === 'skip' || t.mode === 'todo') skipped++;
      else if (t.result?.state === 'pass') passed++;
      else if (t.result?.state === 'fail') failed++;
    };
    files.forEach(walk);
    // A file that failed to load has no tests but did fail.
    failed += files.filter((f) => f.result?.state === 'fail' && !(f.tasks ?? []).length).length;
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
