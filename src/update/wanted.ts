// Whether an update notice may be shown at all, with no file read and no module load: main.ts asks this before
// loading notice.ts. A terminal on stdout and stderr, not CI, not turned off by SQ_NO_UPDATE_NOTIFIER.
import { envFlag } from '../lib/env.js';

export function noticeWanted(
  io: { stdoutIsTTY: boolean; stderrIsTTY: boolean },
  env: Record<string, string | undefined>,
): boolean {
  return (
    io.stdoutIsTTY &&
    io.stderrIsTTY &&
    !envFlag(env.CI) &&
    !envFlag(env.GITHUB_ACTIONS) &&
    !envFlag(env.SQ_NO_UPDATE_NOTIFIER)
  );
}
