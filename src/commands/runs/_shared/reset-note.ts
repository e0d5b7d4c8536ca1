// "Run … set off Auto Billing Reset at 14:05 UTC (resets used 1 of 2)": what `sq runs get` and `sq runs credits` add
// on stderr when the run set off a reset still in the 24-hour window. Read after the verb's answer, only for a person
// (not --json, not -q) and only for a run recent enough to have one; a failure leaves the note out, never the answer.
import type { HttpClient } from '../../../api/http.js';
import type { Run } from '../../../api/records.js';
import { getBalance } from '../../../api/user.js';
import { getAutoReset } from '../../../api/billing.js';
import { parseApiTime } from '../../../lib/api-time.js';
import { CHECK_SLACK_MS, resetOfRun, resetText, windowResets } from '../../../billing/resets.js';

const WINDOW_MS = 86_400_000;

export async function resetNote(http: HttpClient, runId: string, run: Run | Promise<Run>): Promise<string | null> {
  try {
    const r = ((await run) ?? {}) as Record<string, unknown>;
    const ended = parseApiTime(r.ended_at);
    // A reset leaves the window 24 h after it fired: a run that ended before then has none to name.
    if (ended !== null && ended + CHECK_SLACK_MS + WINDOW_MS < http.serverNow()) return null;
    const [ar, bal] = await Promise.all([getAutoReset(http), getBalance<Record<string, unknown>>(http)]);
    const hit = resetOfRun(windowResets(ar as Record<string, unknown>, bal), r, http.serverNow());
    return hit ? `Run ${runId} ${resetText(hit)}.` : null;
  } catch {
    return null;
  }
}
