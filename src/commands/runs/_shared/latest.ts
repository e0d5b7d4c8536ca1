// `sq runs watch` with no <run>: the runs in progress (pending, running, paused, uploading) of --squid, or of the
// account. The account's are found through the squid list, whose last_run_status says which squids have a run in
// progress (a squid runs one at a time, and it is its newest): one read of a page of runs per such squid, capped.
import type { Ctx } from '../../../cli/context.js';
import type { HttpClient } from '../../../api/http.js';
import { items } from '../../../api/pages.js';
import { recordId, resolveSquid } from '../../../api/resolve.js';
import { RUNS_PATH } from '../../../api/runs.js';
import type { Run } from '../../../api/records.js';
import { NotFoundError, UsageError } from '../../../errors.js';
import { byNewest, listSquids } from '../../_shared/recent.js';
import { nonEmpty } from '../../../validate/index.js';
import type { Rec } from '../../../lib/guards.js';

export const IN_PROGRESS = ['pending', 'running', 'paused', 'uploading'];
/** Squids with a run in progress whose runs are read at most; more are named as not looked at. */
const MAX_SQUIDS = 10;
/** Runs of one squid looked at (newest first). */
const RUNS_PER_SQUID = 10;

const status = (r: Rec) => String(r.status ?? '').toLowerCase();

async function inProgressOf(http: HttpClient, squid: string, name: string, max: number): Promise<Run[]> {
  const found: Run[] = [];
  for await (const r of items<Run>(http, RUNS_PATH, { pageSize: max, maxItems: max, query: { squid } })) {
    if (r && typeof r === 'object' && IN_PROGRESS.includes(status(r)))
      found.push({ ...r, squid: r.squid ?? squid, squid_name: name });
  }
  return found;
}

/** The runs in progress, newest first, and a note when not every squid was looked at. */
export async function runsInProgress(
  http: HttpClient,
  squidRef: string | undefined,
): Promise<{ runs: Run[]; partial: string }> {
  if (squidRef !== undefined) {
    const s = await resolveSquid(http, nonEmpty('--squid', squidRef));
    return { runs: (await inProgressOf(http, s.id, s.name, RUNS_PER_SQUID)).sort(byNewest), partial: '' };
  }
  const { squids, partial } = await listSquids(http);
  const busy = squids.filter((s) => IN_PROGRESS.includes(status({ status: s.last_run_status })));
  const runs: Run[] = [];
  for (const s of busy.slice(0, MAX_SQUIDS))
    runs.push(...(await inProgressOf(http, recordId(s), typeof s.name === 'string' ? s.name : '', 1)));
  const more =
    busy.length > MAX_SQUIDS
      ? `only the ${MAX_SQUIDS} first squids with a run in progress were looked at (of ${busy.length})`
      : '';
  return { runs: runs.sort(byNewest), partial: [partial, more].filter(Boolean).join('; ') };
}

function line(r: Run): string {
  return `${r.id}  ${status(r)}  ${String(r.squid_name || r.squid)}  ${String(r.created_at ?? '')}`.trimEnd();
}

/**
 * The run to watch when none is named: the only one in progress; with several, a choice on a terminal, and in a
 * script exit 2 listing them (ids to pass). None is exit 3.
 */
export async function pickRunInProgress(ctx: Ctx, http: HttpClient, squidRef: string | undefined): Promise<string> {
  const { runs, partial } = await runsInProgress(http, squidRef);
  const where = squidRef === undefined ? 'in the account' : `of squid "${squidRef}"`;
  if (partial) ctx.out.warn(`${partial}: a run in progress may be missing`);
  if (runs.length === 0)
    throw new NotFoundError(
      `no run in progress ${where} (pending, running, paused or uploading); name one: sq runs watch <run>`,
    );
  if (runs.length === 1) {
    ctx.out.info(
      `Watching run ${runs[0].id} (${String(runs[0].squid_name || runs[0].squid)}), the one in progress ${where}.`,
    );
    return String(runs[0].id);
  }
  if (!ctx.canPrompt()) {
    throw new UsageError(
      `${runs.length} runs are in progress ${where}: name the one to watch (sq runs watch <run>), or narrow with --squid`,
      {
        details: runs.map(line),
      },
    );
  }
  const prompter = await ctx.prompter();
  return prompter.select(`${runs.length} runs are in progress ${where}; which one to watch?`, {
    choices: runs.map((r) => ({ name: line(r), value: String(r.id) })),
    flag: '<run>',
  });
}
