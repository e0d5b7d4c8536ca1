// Nothing spends by surprise: before a run starts (`runs start`, `go`) or a write makes the platform start runs later
// (a schedule, a chain), the cap and the confirmation, per run.
// - A cap (--max-credits, SQ_MAX_CREDITS, the profile's max-credits) needs the estimate: above it, exit 9 with the
//   estimate on stderr, nothing started or written. An estimate refused (400, 404) is that error; one not to be had
//   (5xx, network) is exit 9 under a cap, and with Auto Billing Reset on (or unknown) needs --yes or a terminal's yes.
// - On a terminal, a run above confirm-above, or one that would (or may) set off an Auto Billing Reset, asks y/N;
//   --yes skips the question, --no-input without --yes is exit 2. Off a terminal, a possible card charge needs --yes.
// - Every time: the estimate, the balance and the auto-reset settings (prefetchAccount), so a run start prints its
//   estimate line and a schedule says what each run costs. A dry run of a run start without a cap sends nothing more.
import type { Ctx } from '../cli/context.js';
import type { HttpClient } from '../api/http.js';
import { getEstimate, type Estimate } from '../api/estimate.js';
import { resetCanFire } from './charges.js';
import { accountFacts, spendContext, type AccountFacts, type ChainCost, type SpendContext } from './spend.js';
import { ApiError, CancelledError, InterruptedError, OverBudgetError, SqError } from '../errors.js';
import { InterruptedWriteError } from '../api/http-errors.js';
import { creditsValue, resolveSetting } from '../config/settings.js';
import { profileName } from '../config/resolve.js';
import {
  chainCostLines,
  estimateParagraph,
  fmtCredits,
  scheduleCostLines,
  startLine,
  type GuardResult,
} from './describe.js';
import { shellWord } from '../io/shell.js';

export interface SpendPolicy {
  /** The cap in credits, or null. */
  cap: number | null;
  /** Where the cap came from, for the message: "--max-credits", "SQ_MAX_CREDITS", "the profile's max-credits". */
  capFrom: string;
  confirmAbove: number;
}

export { MAX_CREDITS_OPTION } from './cap-option.js';

/** The cap and the confirmation threshold, read before any request: a bad value is exit 2 naming where it came from. */
export async function spendPolicy(ctx: Ctx, maxCredits: string | undefined): Promise<SpendPolicy> {
  const store = await ctx.config();
  const profile = profileName(ctx.globals.profile, ctx.env, store);
  const where = { profile, file: store.file };
  const confirmAbove = Number(
    resolveSetting('confirm-above', store.setting(profile, 'confirm-above'), ctx.env, where).value,
  );
  if (maxCredits !== undefined)
    return { cap: Number(creditsValue('--max-credits', maxCredits)), capFrom: '--max-credits', confirmAbove };
  const r = resolveSetting('max-credits', store.setting(profile, 'max-credits'), ctx.env, where);
  if (r.value === undefined) return { cap: null, capFrom: '', confirmAbove };
  return {
    cap: Number(r.value),
    capFrom: r.source === 'env' ? 'SQ_MAX_CREDITS' : `max-credits of profile "${profile}" (sq config)`,
    confirmAbove,
  };
}

/** Whether to ask: a terminal a person answers on, and neither --yes nor a dry run (which starts nothing). */
function asking(ctx: Ctx): boolean {
  return ctx.io.stdinIsTTY && ctx.io.stderrIsTTY && !ctx.globals.yes && !ctx.globals.dryRun;
}

/** Call just before the request that starts a run of `squidId`: guardCost, with the estimate and the account's side
 * when they were read. */
export async function guardSpend(
  ctx: Ctx,
  http: HttpClient,
  squidId: string,
  policy: SpendPolicy,
  squidRef = squidId,
  pre?: Prefetched,
): Promise<SpendContext | null> {
  const r = await guardCost(ctx, http, squidId, policy, squidRef, RUN_WORDS, pre);
  return r.context;
}

/** What the guard reads, asked for early beside the caller's own reads (prefetchSpend); each failure kept for the guard. */
export interface Prefetched {
  account: Promise<AccountFacts>;
  estimate?: Promise<Estimate>;
}

/** How the guard speaks of what it guards: a run about to start, or the runs a schedule or a chain will start. */
export interface GuardWords {
  /** "the run", "each scheduled run": the subject of "is estimated at N credits". */
  what: string;
  /** What did not happen on a refusal: "no run was started". */
  notDone: string;
  /** The question's verb phrase: "Start the run?". */
  question: string;
  /** The rule a cap keeps when no estimate could be had: "a run is never started without an estimate". */
  never: string;
  /** Ask for the estimate even without a cap or a terminal, to say what each later run costs (schedules, chains). */
  always?: boolean;
  /** A squid without tasks has no estimate (400): true when that is no error (a schedule or chain set up first). */
  tasksLater?: boolean;
  /** Print the one estimate line of a run start on stderr (-q silences it). */
  startLine?: boolean;
}

/** The balance and the auto-reset settings, asked for early beside the caller's own reads; a failure is kept for the
 * guard to meet. */
function prefetchAccount(http: HttpClient): Promise<AccountFacts> {
  const p = accountFacts(http);
  p.catch(() => undefined);
  return p;
}

/** The account's side and, once the squid's id is known, its estimate, asked for beside the caller's own reads: the
 * guard then adds no round trip. A dry run without a cap sends neither. */
export function prefetchSpend(
  ctx: Ctx,
  http: HttpClient,
  policy: SpendPolicy,
  squidId?: string,
): Prefetched | undefined {
  if (ctx.globals.dryRun && policy.cap === null) return undefined;
  const estimate = squidId === undefined ? undefined : getEstimate(http, squidId);
  estimate?.catch(() => undefined);
  return { account: prefetchAccount(http), estimate };
}

const RUN_WORDS: GuardWords = {
  what: 'the run',
  notDone: 'no run was started',
  question: 'Start the run?',
  never: 'a run is never started without an estimate',
  startLine: true,
};

/**
 * The cap and the question before something that spends (a run now, or runs later: a schedule, a chain): the
 * estimate of one run of `squidId` against the policy. Throws OverBudgetError (exit 9), CancelledError (exit 11) or
 * the UsageError naming --yes (exit 2) so that the caller sends nothing.
 */
export async function guardCost(
  ctx: Ctx,
  http: HttpClient,
  squidId: string,
  policy: SpendPolicy,
  squidRef: string,
  words: GuardWords,
  pre?: Prefetched,
): Promise<GuardResult> {
  // A dry run starts nothing: the cap is still checked (a script can test it), no question is asked.
  const ask = asking(ctx);
  const result: GuardResult = { context: null, total: null, services: [] };
  // A dry run of a run start without a cap sends nothing more: nothing starts, nothing is charged.
  if (ctx.globals.dryRun && policy.cap === null && !words.always) return result;
  let c: SpendContext;
  const facts = pre?.account ?? prefetchAccount(http);
  try {
    const [est, f] = await Promise.all([pre?.estimate ?? getEstimate(http, squidId), facts]);
    c = spendContext(est, f, http.serverNow());
  } catch (err) {
    // A stop signal while the estimate was in flight: it changes nothing, so nothing was started or written.
    if (err instanceof InterruptedWriteError) throw stoppedEstimating(ctx, words);
    // A squid without tasks has no estimate: a schedule or a chain set up first says so; a run's start answers it.
    if (
      (words.tasksLater || policy.cap === null) &&
      err instanceof ApiError &&
      err.status === 400 &&
      /task/i.test(err.message)
    )
      return { ...result, none: 'no-tasks' };
    // A service that cannot give an estimate (5xx, network): the cap, the card charge and the question decide. A 400
    // or 404 is the error it is.
    if (err instanceof ApiError && (err.status === null || err.status >= 500)) {
      await unestimated(ctx, err, policy, words, ask, facts);
      return { ...result, none: 'unavailable' };
    }
    if (err instanceof SqError && policy.cap !== null)
      err.details.push(`${upper(words.notDone)}: with a cap (${policy.capFrom}) set, ${words.never}.`);
    throw err;
  }
  result.total = c.estimate.total_credits;
  result.services = c.estimate.services;
  result.context = c;
  result.asked = await decide(ctx, c, policy, squidRef, words, ask);
  // A refusal carries the line in its details; a run that goes ahead says it here.
  if (words.startLine) ctx.out.info(startLine(c));
  return result;
}

/**
 * No estimate could be had (5xx, network). A cap can never be met without one: exit 9. With Auto Billing Reset on
 * (or unknown: its settings could not be read either), the run may charge the card: off a terminal exit 9 unless
 * --yes, on a terminal the question (default no). With it off, a warning and the caller goes on.
 */
async function unestimated(
  ctx: Ctx,
  err: ApiError,
  policy: SpendPolicy,
  words: GuardWords,
  ask: boolean,
  facts: Promise<AccountFacts>,
): Promise<void> {
  const what = `the cost of ${words.what} could not be estimated (${err.message})`;
  const proceed = words.question.replace(/\?$/, '').toLowerCase();
  if (policy.cap !== null) {
    throw new OverBudgetError(
      `${what}; ${words.notDone}: the cap of ${fmtCredits(policy.cap)} credits (${policy.capFrom}) can only be met by an estimate, and ${words.never}`,
      {
        details: [`Try again once the estimate answers (\`sq squids estimate\` shows it); --yes does not lift a cap.`],
      },
    );
  }
  const ar = await facts.then(
    (f) => f.autoReset,
    () => null,
  );
  const charges = ar === null || resetCanFire(ar);
  if (!charges || ctx.globals.dryRun) {
    const why = charges ? 'dry run: nothing is started' : 'Auto Billing Reset is off: nothing is charged to the card';
    ctx.out.warn(`${what}; going on without an estimate (${why})`);
    return;
  }
  const risk = ar === null ? 'whether Auto Billing Reset is on could not be read either' : 'Auto Billing Reset is on';
  if (ctx.globals.yes) {
    ctx.out.warn(`${what} and ${risk}, so it may charge the card; going on without an estimate (--yes)`);
    return;
  }
  if (!ask)
    throw new OverBudgetError(
      `${upper(what)} and ${risk}, so it may charge the card; ${words.notDone}: pass --yes to ${proceed} anyway`,
    );
  const ok = await (await ctx.prompter()).confirm(
    `${words.question} ${upper(what)} and ${risk}: it may charge the card.`,
    { default: false, flag: '--yes' },
  );
  if (!ok) throw new CancelledError(`cancelled: ${words.notDone}`);
}

/** The cap and the question on an estimate in hand; true when a person was asked and said yes. */
async function decide(
  ctx: Ctx,
  c: SpendContext,
  policy: SpendPolicy,
  squidRef: string,
  words: GuardWords,
  ask: boolean,
): Promise<boolean> {
  const total = c.estimate.total_credits;
  const lines = estimateParagraph(c, shellWord(squidRef));
  if (policy.cap !== null && total > policy.cap) throw overBudget(total, policy, lines, words);
  // Resets the API's settings leave unknown are asked about as resets: a card charge nobody can rule out.
  const resets = c.estimate.auto_reset_charges;
  const charges = resets === null || resets > 0;
  // Off a terminal (or with the question turned off), a card charge needs --yes: refused, never started in silence.
  if (charges && !ask && !ctx.globals.yes && !ctx.globals.dryRun) throw cardCharge(c, lines, words);
  if (!ask || !(total > policy.confirmAbove || charges)) return false;
  for (const line of lines) ctx.out.info(line, { force: true });
  const why =
    resets === null
      ? ' and may set off an Auto Billing Reset (a card charge: the API did not say enough to tell)'
      : resets > 0
        ? ` and set off ${resets} Auto Billing Reset${resets === 1 ? '' : 's'} (card charges)`
        : '';
  const ok = await (await ctx.prompter()).confirm(
    `${words.question} ${upper(words.what)} is estimated at ${fmtCredits(total)} credits${why}.`,
    { default: false, flag: '--yes' },
  );
  if (!ok) throw new CancelledError(`cancelled: ${words.notDone}`);
  return true;
}

const CHAIN_WORDS: GuardWords = {
  what: 'each run of the chained squid',
  notDone: 'the chain was not written',
  question: 'Write the chain?',
  never: 'a chain is never written without an estimate',
};

/**
 * Before `squids chain set` writes a chain whose target starts runs by itself (autostart): the cost of the target's
 * runs against the cap and the question. A target with no estimate yet cannot be held to a cap, and that is said.
 */
export async function guardChain(ctx: Ctx, cost: ChainCost, policy: SpendPolicy, sourceLabel: string): Promise<void> {
  const lines = chainCostLines(cost, sourceLabel);
  for (const line of lines) ctx.out.info(line, { force: true });
  if (!cost.autostart) return;
  if (!cost.estimate) {
    if (policy.cap !== null)
      ctx.out.warn(
        `the cap (${policy.capFrom}, ${fmtCredits(policy.cap)} credits) cannot be checked against ` +
          `the chained squid's runs: they have no estimate before the squid has tasks; its rate above ` +
          `is what each row costs`,
      );
    return;
  }
  await decide(ctx, cost.estimate, policy, cost.target?.id ?? '', CHAIN_WORDS, asking(ctx));
}

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function stoppedEstimating(ctx: Ctx, words: GuardWords): InterruptedError {
  const stop = ctx.signal.reason instanceof InterruptedError ? ctx.signal.reason : new InterruptedError();
  const e = new InterruptedError(stop.signal);
  e.message = `${stop.message} while ${words.what} was being estimated (a request that changes nothing): ${words.notDone}`;
  return e;
}

/** Exit 9: what would charge the card was not accepted with --yes; the forecast goes with it. */
function cardCharge(c: SpendContext, lines: string[], words: GuardWords): OverBudgetError {
  const n = c.estimate.auto_reset_charges;
  const what =
    n === null
      ? 'may set off an Auto Billing Reset (a card charge: the API did not say enough to tell)'
      : `would set off ${n === 1 ? 'an Auto Billing Reset' : `up to ${n} Auto Billing Resets`} (a card charge${n === 1 ? '' : ' each'})`;
  return new OverBudgetError(`${upper(words.what)} ${what}; ${words.notDone}: pass --yes to accept the charge`, {
    details: [...(words.startLine ? [startLine(c)] : []), ...lines],
  });
}

function overBudget(total: number, policy: SpendPolicy, lines: string[], words: GuardWords): OverBudgetError {
  return new OverBudgetError(
    `over budget: ${words.what} is estimated at ${fmtCredits(total)} credits, above the cap of ${fmtCredits(policy.cap ?? 0)} ` +
      `(${policy.capFrom}); ${words.notDone}`,
    {
      details: [
        ...lines,
        `Raise the cap (--max-credits ${Math.ceil(total)}), or lower the cost (fewer tasks, max_results, paid functions off).`,
      ],
    },
  );
}

/** A schedule as the API takes it (cron_expression, timezone). */
export interface ScheduleSpec {
  cron: string;
  timezone: string;
}

/** Before a write that makes the platform start runs on a schedule (squids activate, squids update --schedule, apply):
 * what each scheduled run costs, on stderr, with the cap and the question of `runs start`. */
export async function guardSchedule(
  ctx: Ctx,
  http: HttpClient,
  squidId: string,
  policy: SpendPolicy,
  schedule: ScheduleSpec,
  squidRef: string,
): Promise<GuardResult> {
  const r = await guardCost(ctx, http, squidId, policy, squidRef, SCHEDULE_WORDS);
  for (const line of scheduleCostLines(r, schedule, ctx.now(), shellWord(squidRef)))
    ctx.out.info(line, { force: true });
  if (r.none === 'no-tasks' && policy.cap !== null) {
    ctx.out.warn(
      `the cap (${policy.capFrom}, ${fmtCredits(policy.cap)} credits) cannot be checked against the scheduled runs: the squid has no tasks, so no estimate; ` +
        `tasks added later are charged on every scheduled run: \`sq squids estimate ${shellWord(squidRef)}\` shows a run's cost once they are in`,
    );
  }
  return r;
}

export const SCHEDULE_WORDS: GuardWords = {
  what: 'each scheduled run',
  notDone: 'the schedule was not turned on',
  question: 'Turn the schedule on?',
  never: 'a schedule is never turned on without an estimate',
  always: true,
  tasksLater: true,
};
