// New tasks on an active scheduled squid make every scheduled run cost more: under a cap (--max-credits,
// SQ_MAX_CREDITS, the profile's max-credits) the next run is estimated once they are in, and above the cap (or
// refused on a terminal) they are removed again, the message saying so. Without a cap nothing more is sent.
import type { Ctx } from '../../../cli/context.js';
import type { HttpClient } from '../../../api/http.js';
import { getSquid } from '../../../api/squids.js';
import { deleteTask } from '../../../api/tasks.js';
import { liveSchedule } from '../../../account/state.js';
import { guardCost, type GuardWords, type SpendPolicy } from '../../../billing/guard.js';
import { SqError } from '../../../errors.js';

const WORDS: GuardWords = {
  what: 'each scheduled run',
  notDone: 'the new tasks were removed again',
  question: 'Keep the new tasks?',
  never: 'tasks are never kept on a capped schedule without an estimate',
  always: true,
};

export async function capScheduledRuns(ctx: Ctx, http: HttpClient, squidId: string, ref: string, policy: SpendPolicy, created: Record<string, unknown>[]): Promise<void> {
  if (policy.cap === null || created.length === 0 || ctx.globals.dryRun) return;
  const squid = await getSquid(http, squidId);
  if (!squid || squid.is_active === false || !liveSchedule(squid)) return;
  try {
    await guardCost(ctx, http, squidId, policy, ref, WORDS);
  } catch (err) {
    if (!(err instanceof SqError)) throw err;
    const ids = created.map((t) => String(t.id ?? '')).filter(Boolean);
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
