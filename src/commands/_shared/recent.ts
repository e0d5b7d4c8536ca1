// Recent runs across squids. GET /v1/runs needs ?squid=, so the squid list (which carries each squid's last_run_at)
// decides which squids to read, newest activity first, and reading stops as soon as no further squid can hold a run
// newer than the ones already found. Every read is bounded: squid pages and run lists are capped.
import { parseApiTime } from '../../lib/api-time.js';
import type { HttpClient } from '../../api/http.js';
import { items, pages, saysMoreFollow } from '../../api/pages.js';
import { recordId } from '../../api/resolve.js';
import { RUNS_PATH } from '../../api/runs.js';
import type { Run, Squid } from '../../api/records.js';
import { SQUIDS_PATH } from '../../api/squids.js';

/** Squid pages of 100 read at most (300 squids); more is reported as partial. */
export const MAX_SQUID_PAGES = 3;
/** Squids whose runs are read at most. */
export const MAX_SQUID_READS = 10;
/** The most --limit can ask for across squids. */
export const MAX_RECENT = 100;

interface RecentRuns {
  /** Newest first, each with `squid_name` added. */
  runs: Run[];
  squids: Squid[];
  /** Why the answer may miss runs ('' when it is complete). */
  partial: string;
}

/** ms since the epoch (any of the API's forms), or -Infinity when the value is not a time (it then sorts last). */
function timeOf(v: unknown): number {
  return parseApiTime(v) ?? Number.NEGATIVE_INFINITY;
}

export const byNewest = (a: Run, b: Run): number => timeOf(b.created_at) - timeOf(a.created_at);

export async function listSquids(http: HttpClient): Promise<{ squids: Squid[]; partial: string }> {
  const squids: Squid[] = [];
  let read = 0;
  for await (const p of pages<Squid>(http, SQUIDS_PATH, { pageSize: 100 })) {
    squids.push(...p.data.filter((s) => s && typeof s === 'object'));
    const more = saysMoreFollow(p);
    if (++read >= MAX_SQUID_PAGES && more) {
      return {
        squids,
        partial: `only the first ${squids.length} squids were looked at${p.total_results ? ` (of ${p.total_results})` : ''}`,
      };
    }
  }
  return { squids, partial: '' };
}

/** The `limit` most recent runs across squids; runs of squids that never ran are not asked for. */
export async function recentRuns(
  http: HttpClient,
  limit: number,
  known?: { squids: Squid[]; partial: string },
): Promise<RecentRuns> {
  const { squids, partial: squidsPartial } = known ?? (await listSquids(http));
  const ordered = squids
    .filter((s) => s.total_runs !== 0 && s.last_run_at !== null)
    .sort((a, b) => timeOf(b.last_run_at) - timeOf(a.last_run_at));
  let found: Run[] = [];
  let reads = 0;
  let partial = squidsPartial;
  for (const s of ordered) {
    if (found.length >= limit && timeOf(s.last_run_at) <= timeOf(found[limit - 1].created_at)) break;
    if (reads >= MAX_SQUID_READS) {
      partial ||= `only the runs of the ${MAX_SQUID_READS} most recently active squids were read`;
      break;
    }
    reads++;
    const squid = recordId(s);
    for await (const r of items<Run>(http, RUNS_PATH, {
      pageSize: Math.min(limit, 100),
      maxItems: limit,
      query: { squid },
    })) {
      // A run listed twice (a list that shifted between reads) is shown once.
      if (r && typeof r === 'object' && !found.some((f) => f.id === r.id)) {
        found.push({ ...r, squid: r.squid ?? squid, squid_name: typeof s.name === 'string' ? s.name : '' });
      }
    }
    found = found.sort(byNewest);
  }
  return { runs: found.slice(0, limit), squids, partial };
}
