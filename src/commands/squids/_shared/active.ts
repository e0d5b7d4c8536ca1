// `sq squids activate|deactivate`: one field of the update (is_active), then the squid as it is now. Activating a
// squid with a schedule makes the platform start its runs, each charged: the cost of one run and the next run time
// are said first, with the cap and the question of `runs start` (src/billing/guard.ts).
import type { Ctx } from '../../../cli/context.js';
import { resolveSquid } from '../../../api/resolve.js';
import { getSquid, updateSquid } from '../../../api/squids.js';
import { liveSchedule } from '../../../account/state.js';
import { guardSchedule, type SpendPolicy } from '../../../billing/guard.js';
import { SQUID_DETAIL_COLUMNS } from './columns.js';
import { isTerminal, listRunPages, runStatus } from '../../../api/runs.js';
import { confirmOrCancel } from '../../../cli/confirm.js';
import type { HttpClient } from '../../../api/http.js';

/**
 * Deactivating stops the squid's running run, as `sq runs abort` does: the same yes (a question on a terminal, --yes
 * in a script, exit 2 without it). A squid with no run in progress is deactivated without asking.
 */
async function confirmStop(ctx: Ctx, http: HttpClient, id: string, name: string): Promise<void> {
  if (ctx.globals.yes || ctx.globals.dryRun) return;
  const first = await listRunPages(http, id, { pageSize: 10, maxItems: 10 }).next();
  const run = (first.done ? [] : first.value.data).find((r) => typeof r.id === 'string' && !isTerminal(runStatus(r)));
  if (!run) return;
  await confirmOrCancel(
    ctx,
    `Deactivate squid ${name}? Its run ${String(run.id)} (${runStatus(run)}) is stopped; results collected so far are still exported and billed.`,
    'not deactivated: nothing was changed',
  );
}

export async function setActive(ctx: Ctx, ref: string, active: boolean, policy?: SpendPolicy): Promise<void> {
  const http = await ctx.http();
  const { id, record } = await resolveSquid(http, ref);
  if (active && policy) {
    // Its schedule and state before the write: a scheduled squid that was inactive starts running on its schedule.
    // A name or prefix was resolved from the list, whose record says both when it carries a schedule object (the
    // list may leave fields out, so one without is read again).
    const listed =
      typeof record.is_active === 'boolean' && record.schedule !== null && typeof record.schedule === 'object';
    const before = listed ? record : await getSquid(http, id);
    const schedule = before ? liveSchedule(before) : null;
    if (schedule && before?.is_active !== true) await guardSchedule(ctx, http, id, policy, schedule, ref);
  }
  if (!active) await confirmStop(ctx, http, id, String(record.name ?? ref));
  await updateSquid(http, id, { is_active: active });
  const s = await getSquid(http, id);
  const name = String(s?.name ?? id);
  ctx.out.success(
    active
      ? `Activated squid ${name}: runs can start (and its schedule, if any, fires)`
      : `Deactivated squid ${name}: no run starts (schedule included) and a running run is stopped`,
  );
  await ctx.out.record(s, { title: `Squid ${name}`, columns: SQUID_DETAIL_COLUMNS });
}
