// New tasks on an active scheduled squid make every scheduled run cost more: under a cap (--max-credits,
// SQ_MAX_CREDITS, the profile's max-credits) the next run is estimated once they are in, and above the cap (or
// refused on a terminal) they are removed again, the message saying so. Without a cap nothing more is sent.
// `tasks upload` first checks the squid as it is (above the cap already: nothing is uploaded), then, its tasks in,
// the same way as `tasks add`; the new tasks are those listed after the upload and not before it.
import type { Ctx } from '../../../cli/context.js';
import type { HttpClient } from '../../../api/http.js';
import { getSquid } from '../../../api/squids.js';
import { deleteTask } from '../../../api/tasks.js';
import { getEstimate } from '../../../api/estimate.js';
import { liveSchedule, squidTasks } from '../../../account/state.js';
import { fmtCredits } from '../../../billing/describe.js';
import { guardCost, type GuardWords, type SpendPolicy } from '../../../billing/guard.js';
import { ApiError, OverBudgetError, SqError } from '../../../errors.js';

const WORDS: GuardWords = {
  what: 'each scheduled run',
  notDone: 'the new tasks were removed again',
  question: 'Keep the new tasks?',
  never: 'tasks are never kept on a capped schedule without an estimate',
  always: true,
};

/** Whether new tasks of this squid are held to the cap: one is set, and the squid runs on a schedule. */
export async function heldToCap(ctx: Ctx, http: HttpClient, squidId: string, policy: SpendPolicy): Promise<boolean> {
  if (policy.cap === null || ctx.globals.dryRun) return false;
  const squid = await getSquid(http, squidId);
  return !!squid && squid.is_active !== false && !!liveSchedule(squid);
}

export async function capScheduledRuns(
  ctx: Ctx,
  http: HttpClient,
  squidId: string,
  ref: string,
  policy: SpendPolicy,
  created: Record<string, unknown>[],
): Promise<void> {
  if (created.length === 0 || !(await heldToCap(ctx, http, squidId, policy))) return;
  await guardNewTasks(ctx, http, squidId, ref, policy, created.map((t) => String(t.id ?? '')).filter(Boolean));
}

/** The next scheduled run, the new tasks in, against the cap and the question; refused, the new tasks are removed. */
export async function guardNewTasks(
  ctx: Ctx,
  http: HttpClient,
  squidId: string,
  ref: string,
  policy: SpendPolicy,
  ids: string[],
): Promise<void> {
  try {
    await guardCost(ctx, http, squidId, policy, ref, WORDS);
  } catch (err) {
    if (!(err instanceof SqError)) throw err;
    const failed: string[] = [];
    for (const id of ids) await deleteTask(http, id).catch(() => failed.push(id));
    err.details.push(
      failed.length
        ? `${ids.length - failed.length} of the ${ids.length} new tasks were removed; ${failed.join(', ')} could NOT be: \`sq tasks delete\` them.`
        : `The ${ids.length} new task${ids.length === 1 ? ' was' : 's were'} removed: the squid's tasks are as they were.`,
    );
    throw err;
  }
}

/**
 * Before an upload to a squid held to the cap: its next scheduled run as it is, without the file's tasks, already
 * above the cap is exit 9 with nothing uploaded (tasks only add to it). No estimate yet (no tasks, or none to be
 * had) leaves the decision to the check after the upload.
 */
export async function refuseAboveCapBeforeUpload(
  http: HttpClient,
  squidId: string,
  policy: SpendPolicy,
): Promise<void> {
  const est = await getEstimate(http, squidId).catch((e: unknown) => {
    if (e instanceof ApiError) return null;
    throw e;
  });
  if (!est || policy.cap === null || !(est.total_credits > policy.cap)) return;
  throw new OverBudgetError(
    `over budget: each scheduled run is already estimated at ${fmtCredits(est.total_credits)} ` +
      `credits, above the cap of ${fmtCredits(policy.cap)} (${policy.capFrom}), and new tasks only ` +
      `add to it; the file was not uploaded`,
    {
      details: [
        `Raise the cap (--max-credits ${Math.ceil(est.total_credits)} or more), or lower each run's cost first (fewer tasks, max_results, paid functions off).`,
      ],
    },
  );
}

/**
 * The ids of the squid's tasks, every page (account/state's listing: a listing the API caps is an error, so a task
 * that was there before the upload is never taken for a new one and removed).
 */
export async function taskIds(http: HttpClient, squidId: string): Promise<Set<string>> {
  return new Set((await squidTasks(http, squidId)).flatMap((t) => (t.id === undefined ? [] : [String(t.id)])));
}
