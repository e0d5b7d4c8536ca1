// What starting a run needs: its estimate, the confirmation above --confirm-above, the start (and capped wait), and
// idempotency keys that make a retry answer the first call's run.
import { rec, str, ToolError, waitOf, type Shape, type ToolArgs, type ToolEnv, type Z } from './kit.js';
import type { Rec } from '../../lib/guards.js';

// ---- runs: estimates, confirmation, waiting

/** The estimate of a squid's next run (`sq squids estimate --json`), or null when this sq cannot estimate. */
export async function estimate(t: ToolEnv, squid: string): Promise<Rec | null> {
  try {
    const { data } = await t.verb(['squids', 'estimate', '--', squid]);
    return rec(data);
  } catch (e) {
    // A CLI without the verb (an unknown command, exit 2 naming it): no estimate to give.
    if (e instanceof ToolError && e.code === 2 && /unknown command|too many arguments/.test(e.message)) return null;
    throw e;
  }
}
const creditsOf = (e: Rec | null) => (e && typeof e.total_credits === 'number' ? e.total_credits : null);

/** Above --confirm-above, without confirm: true, the answer is the estimate and nothing starts. */
export async function confirmation(t: ToolEnv, a: ToolArgs, squid: string, again: string): Promise<Rec | null> {
  if (a.confirm === true) return null;
  const est = await estimate(t, squid);
  const credits = creditsOf(est);
  // A card charge asks whatever the credits, as the CLI's guard does; no estimate at all asks too (a cost unknown is
  // no cost below the threshold).
  // Not a number (null, dropped by compact): the API's auto-reset settings left it unknown (auto_reset_unknown names
  // the fields). An unknown card charge asks, never reads as none.
  const unknownResets = est !== null && credits !== null && typeof est.auto_reset_charges !== 'number';
  const resets = Math.max(0, Number(est?.auto_reset_charges) || 0);
  if (credits !== null && credits <= t.confirmAbove && resets === 0 && !unknownResets) return null;
  const why =
    credits === null
      ? 'no estimate could be had for this run'
      : unknownResets
        ? `the run is estimated at ${credits} credits, and whether it sets off an Auto Billing Reset ` +
          `(a card charge) is unknown: the API's settings left out ` +
          (Array.isArray(est?.auto_reset_unknown) ? est.auto_reset_unknown.join(', ') : 'some fields')
        : resets > 0
          ? `the run is estimated at ${credits} credits and would set off ${resets} Auto Billing Reset${resets === 1 ? '' : 's'} (a card charge each)`
          : `the run is estimated at ${credits} credits, above this server's --confirm-above ${t.confirmAbove}`;
  // A reset already due fires whether or not the run starts: said apart, never counted as the run's.
  const due =
    est?.pending_reset === true
      ? " (1 Auto Billing Reset is already due and fires at the next check whether or not the run starts: not this run's doing)"
      : '';
  return {
    needs_confirmation: true,
    squid,
    ...(est ? { estimate: est } : {}),
    message: `${why}${due}: nothing was started. Ask the user; to run it, call ${again} with confirm: true`,
  };
}

/**
 * `runs start` (and wait, capped): the run, with still_running when the wait ended first. `runKey`: the verb's
 * --idempotency-key, which keeps the run in the cache directory, so a restarted server's retry gets the same run.
 */
export async function startRun(t: ToolEnv, a: ToolArgs, squid: string, runKey?: string): Promise<Rec> {
  const { seconds: wait, note } = waitOf(a);
  const keyFlag = runKey !== undefined ? [`--idempotency-key=${runKey}`] : [];
  const { code, data } = await t.verb(
    ['runs', 'start', `--squid=${squid}`, ...keyFlag, ...(wait ? ['--wait', `--timeout=${wait}s`] : [])],
    { write: true, ok: [6, 7] },
  );
  return { ...runAnswer(data, code), ...(note ? { note } : {}) };
}
export function runAnswer(data: unknown, code: number): Rec {
  const run = rec(data);
  // exit 7: the wait gave up, the run goes on; 6: it ended in error or was aborted (the run says so).
  return code === 7 ? { ...run, still_running: true } : run;
}
export const runOutput = (z: Z): Shape => ({
  id: z.string().optional(),
  status: z.string().optional(),
  still_running: z.boolean().optional().describe('the wait ended before the run: call runs_wait again'),
  note: z.string().optional().describe('what was done other than asked, e.g. a wait_seconds above 50 capped'),
  needs_confirmation: z.boolean().optional().describe('nothing was started: the estimate is above --confirm-above'),
  estimate: z.record(z.string(), z.unknown()).optional(),
  dry_run: z.boolean().optional(),
});

/** Whether the squid exists (a 404 is exit 3); any other failure is the tool's error. */
export async function squidExists(t: ToolEnv, id: string): Promise<boolean> {
  try {
    await t.verb(['squids', 'get', '--', id]);
    return true;
  } catch (e) {
    if (e instanceof ToolError && e.code === 3) return false;
    throw e;
  }
}

/** An idempotency_key's run: the first call's answer for every retry while this server runs. */
export async function once(t: ToolEnv, a: ToolArgs, tool: string, work: () => Promise<Rec>): Promise<Rec> {
  const key = str(a, 'idempotency_key');
  if (!key || t.dryRun) return work();
  const k = `${tool}\u0000${key}`;
  const seen = t.keys.get(k);
  if (seen) return { ...(await seen), replayed: true };
  const p = work();
  t.keys.set(k, p);
  try {
    const r = await p;
    // An answer that started nothing is not kept: the confirmed call must still run.
    if (r.needs_confirmation || r.dry_run) t.keys.delete(k);
    return r;
  } catch (e) {
    // A write that certainly was not sent may be tried again under the same key; an unknown one may not.
    if (!(e instanceof ToolError && e.requestState === 'unknown')) t.keys.delete(k);
    throw e;
  }
}
