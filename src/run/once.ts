// Starting a run at most once per job, whatever interrupts sq: the caller keeps a RunMark (io/go-record.ts) and this
// module never sends POST /v1/runs while the mark names a run that exists. The window between sending the POST and
// learning the run's id is covered by marking "starting" (with the API's time) first: a rerun that finds a mark
// without an id looks for the squid's runs created since before starting another.
import { ApiError, NotFoundError, SqError, UsageError } from '../errors.js';
import { AmbiguousWriteError } from '../api/http-errors.js';
import { readIdempotency, saveIdempotency, type RunMark } from '../io/go-record.js';
import type { HttpClient } from '../api/http.js';
import { getRun, listRunPages, startRun } from '../api/runs.js';
import type { Run } from '../api/records.js';
import { parseApiTime } from '../lib/api-time.js';

/** Runs looked at (for the one a cut-short POST started, or one in progress): the newest, as the API lists them. */
const RECENT_RUNS = 10;

/** The squid's newest runs: the first page of its listing, up to RECENT_RUNS. */
export async function recentRuns(http: HttpClient, squidId: string): Promise<Run[]> {
  const first = await listRunPages(http, squidId, { pageSize: RECENT_RUNS, maxItems: RECENT_RUNS }).next();
  return first.done ? [] : first.value.data;
}
/** The Date header has whole seconds and the clocks may disagree by as much: a run created this much before counts. */
const SLACK_MS = 2000;

export type RunOnce = { run: Run; how: 'recorded' | 'found' | 'started' };

/**
 * The run of `mark` if it exists ("recorded"), else the squid's run created since a "starting" mark ("found"), else a
 * new run ("started"), with `save` called with the "starting" mark before the POST and with the id after it (or with
 * the mark as it was, null for none, when the API refused the start).
 */
export async function startRunOnce(
  http: HttpClient,
  squidId: string,
  mark: RunMark | null,
  save: (m: RunMark | null) => Promise<void>,
  beforeStart?: () => Promise<unknown>,
): Promise<RunOnce> {
  if (mark?.id) {
    try {
      return { run: await getRun(http, mark.id), how: 'recorded' };
    } catch (err) {
      // Deleted (or never of this key): nothing recorded exists, so a new run is no second one.
      if (!(err instanceof NotFoundError)) throw err;
    }
  } else if (mark) {
    const found = await runCreatedSince(http, squidId, mark.since);
    if (found) {
      await save({ since: mark.since, id: String(found.id) });
      return { run: found, how: 'found' };
    }
  }
  // Only a run about to be started is estimated and capped (`beforeStart`): a recorded or found one costs nothing more.
  await beforeStart?.();
  const since = new Date(http.serverNow()).toISOString();
  await save({ since, id: null });
  let run: Run;
  try {
    run = await startRun(http, squidId);
  } catch (err) {
    // A definite refusal (SquidInactive, RunInProgress: a 4xx answer) started nothing: the "starting" mark goes, or
    // a retry would take another run created since as its own. Only a lost or unknown answer leaves it.
    if (refused(err)) await save(mark?.id ? mark : null);
    throw err;
  }
  await save({ since, id: String(run.id) });
  return { run, how: 'started' };
}

/** The API answered the start with a refusal: certainly no run was made. */
function refused(err: unknown): boolean {
  return (
    err instanceof SqError &&
    !(err instanceof AmbiguousWriteError) &&
    err.status !== null &&
    err.status >= 400 &&
    err.status < 500
  );
}

/** The oldest of the squid's recent runs created at or after `since` (less the slack); null when none is listed. */
export async function runCreatedSince(http: HttpClient, squidId: string, since: string): Promise<Run | null> {
  const after = Date.parse(since) - SLACK_MS;
  const timed = (await recentRuns(http, squidId))
    .filter((r) => typeof r.id === 'string' && r.id !== '')
    .map((r) => ({ r, t: parseApiTime(r.created_at) ?? parseApiTime(r.started_at) }));
  // A run without a time could be the one the cut-short start made: starting another might pay twice, so stop here.
  const untimed = timed.filter((x) => x.t === null).map((x) => String(x.r.id));
  if (untimed.length) {
    throw new ApiError(
      `a start of squid ${squidId} was cut short, and its runs ${untimed.join(', ')} carry no creation ` +
        `time: sq cannot tell whether one of them is that run, so it starts none`,
      {
        details: [
          `Check with \`sq runs list --squid ${squidId}\`; follow a run with \`sq runs watch RUN\`, or start one with \`sq runs start --squid ${squidId}\`.`,
        ],
      },
    );
  }
  const since_ = timed
    .filter((x): x is { r: Run; t: number } => x.t !== null && x.t >= after)
    .sort((a, b) => a.t - b.t);
  return since_[0]?.r ?? null;
}

/**
 * `runs start --idempotency-key KEY`: the run KEY started in the last 24 hours (per key and API, in `file`), or the
 * one its cut-short start made, or a new one recorded under KEY. A KEY used for another squid is exit 2.
 */
export async function startRunWithKey(
  http: HttpClient,
  squidId: string,
  o: { key: string; file: string; now: number; beforeStart?: () => Promise<unknown> },
): Promise<RunOnce> {
  const known = (await readIdempotency(o.file, o.now))[o.key];
  if (known && known.squid !== squidId) {
    throw new UsageError(
      `--idempotency-key ${JSON.stringify(o.key)} started a run of squid ${known.squid} (at ${known.at}), not of ${squidId}: use another key for this squid`,
    );
  }
  const at = known?.at ?? new Date(o.now).toISOString();
  return startRunOnce(
    http,
    squidId,
    known ?? null,
    (m) => saveIdempotency(o.file, o.key, m && { ...m, squid: squidId, at }, o.now),
    o.beforeStart,
  );
}
