// "Run … set off Auto Billing Reset at 14:05 UTC (resets used 1 of 2)": what `sq runs get` and `sq runs credits` add
// on stderr when the run set off a reset still in the 24-hour window. The account's two reads go out beside the
// verb's own; a failure of theirs leaves the note out and never the verb's answer.
import type { HttpClient } from '../../../api/http.js';
import type { Run } from '../../../api/records.js';
import { getBalance } from '../../../api/user.js';
import { getAutoReset } from '../../../api/billing.js';
import { resetOfRun, resetText, windowResets } from '../../../billing/resets.js';

export function resetNote(http: HttpClient, runId: string, run: Promise<Run>, wanted: boolean): Promise<string | null> {
  // --json and -q read no line: nothing more is asked.
  if (!wanted) return Promise.resolve(null);
  const account = Promise.all([getAutoReset(http), getBalance<Record<string, unknown>>(http)]);
  return Promise.all([run, account]).then(
    ([r, [ar, bal]]) => {
      const hit = resetOfRun(windowResets(ar as Record<string, unknown>, bal), (r ?? {}) as Record<string, unknown>, http.serverNow());
      return hit ? `Run ${runId} ${resetText(hit)}.` : null;
    },
    () => null,
  );
}
