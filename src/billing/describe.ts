// The words of an estimate, for every place that shows one before spending (`sq squids estimate`, the guard of
// `runs start` and `go` on stderr and in its question, `apply`, `squids chain set`): no requests, no output here.
import type { ChainCost, ResetCharge, SpendContext } from './spend.js';
import { creditsBeforeReset, resetsLeft, type AutoResetFacts, type BalanceFacts } from './charges.js';
import { describeCron, nextRun, parseCron } from '../api/cron.js';
import { amount } from '../io/count.js';

/** "1,234.5": credits without float noise. */
export function fmtCredits(v: number): string {
  return amount(v);
}

/** The paid functions a run would charge (every service but the base scrape), each with how to turn it off. */
export function paidFunctionLines(c: SpendContext, squidRef: string, onByDefault?: ReadonlySet<string>): string[] {
  return c.estimate.services
    .filter((s) => s.name !== 'base' && s.credits > 0)
    .map((s) => {
      const why = onByDefault?.has(s.name) ? 'on by default' : 'on';
      return (
        `Paid function ${s.name} is ${why}: ${fmtCredits(s.credits)} credits of this run. Turn it ` +
        `off: sq squids update ${squidRef} --param functions.${s.name}=false`
      );
    });
}

/** "threshold_pct and max_resets_per_24h": the fields the API left out. */
const fieldsOf = (names: readonly string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
const leftText = (n: number | null) => (n === null ? 'an unknown number' : String(n));

/** "1 reset", "1 to 2 resets". */
function resetsText(min: number, max: number): string {
  return `${min === max ? max : `${min} to ${max}`} reset${max === 1 ? '' : 's'}`;
}

/** The charge of one reset in words: the plan renewed and its allowance, the price (or the price id alone), the renewal date. */
export function chargeText(ch: ResetCharge | null): string {
  if (!ch) return 'each charges the card on file for a renewal of the plan';
  const plan = ch.plan ? `plan ${ch.plan}` : 'the plan';
  const price =
    ch.price !== null
      ? `${fmtCredits(ch.price)} (the plan's price)`
      : `a price the API gives as an id only (${ch.price_id ?? 'none given'}): \`sq billing auto-reset --web\` shows it`;
  const date = ch.renews_before
    ? `; the renewal date moves from ${ch.renews_before} to about ${ch.renews_after}`
    : `; the plan then renews about ${ch.renews_after}`;
  return `each renews ${plan} (${fmtCredits(ch.allowance)} credits) and charges the card on file ${price}${date}`;
}

/** What the run's Auto Billing Resets mean, in one line; what the API did not say is said to be unknown. */
export function autoResetLine(c: SpendContext): string {
  const ar = c.autoReset;
  const e = c.estimate;
  if (ar.enabled === false) return 'Auto Billing Reset: off (nothing is charged to the card automatically).';
  const n = e.auto_reset_charges;
  if (ar.enabled === null) {
    return (
      `Auto Billing Reset: UNKNOWN whether it is on (the API's settings did not say): this run may ` +
      `charge the card on file; \`sq billing auto-reset\` shows the settings.`
    );
  }
  if (n === null) {
    return (
      `Auto Billing Reset: on, but the API did not give ${fieldsOf(ar.unknown)}: whether this run ` +
      `sets off a reset (a charge on the card on file) is UNKNOWN.`
    );
  }
  if (e.pending_reset === true) return pendingResetLine(c);
  if (n === 0) {
    const before = creditsBeforeReset(c.balance, ar);
    return (
      `Auto Billing Reset: on at ${ar.threshold_pct}%; this run sets off none (${before === null ? 'unknown' : fmtCredits(before)} ` +
      `credits before the next one, ${leftText(resetsLeft(ar))} left in the 24-hour window).`
    );
  }
  const min = e.resets ?? n;
  return (
    `Auto Billing Reset: this run sets off ${resetsText(min, n)} (threshold ${ar.threshold_pct}%, ${leftText(resetsLeft(ar))} ` +
    `of ${ar.max_resets_per_24h ?? 'an unknown number'} left in the 24-hour window); ` +
    `${chargeText(e.charge)}.`
  );
}

/** Usage above the threshold before the run: a reset is due whether or not the run starts, said apart from its own. */
function pendingResetLine(c: SpendContext): string {
  const ar = c.autoReset;
  const e = c.estimate;
  const n = e.auto_reset_charges ?? 0;
  const own =
    n === 0 ? 'this run sets off none of its own' : `this run sets off ${resetsText(e.resets ?? n, n)} more of its own`;
  return (
    `Auto Billing Reset: 1 reset is already due (usage is above the ${ar.threshold_pct}% threshold before the run) and fires at the platform's next check ` +
    `whether or not this run starts, so it is not this run's doing; ${own} (${leftText(resetsLeft(ar))} of ${ar.max_resets_per_24h ?? 'an unknown number'} ` +
    `left in the 24-hour window, the due one included); ${chargeText(e.charge)}.`
  );
}

/** The start line's words for a reset already due: it fires anyway. */
const PENDING_WORDS = "1 already due fires at the next check anyway, not this run's doing";

/** "2026-12-02 14:05 UTC". */
const utcText = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The balance after the run: exact, or the range the periodic check makes; whether it is covered, where it pauses. */
export function balanceLine(c: SpendContext): string {
  const e = c.estimate;
  const lo = e.balance_after;
  const hi = e.balance_after_max ?? lo;
  const after =
    lo === hi
      ? `${fmtCredits(lo)} after the run`
      : `between ${fmtCredits(lo)} and ${fmtCredits(hi)} after the run (a range: a reset fires at ` +
        `the platform's periodic check, and when that falls in the run is not known)`;
  const head = `Balance: ${fmtCredits(c.creditsLeft)} credits now, ${after}`;
  if (e.covered === true || (e.covered === null && e.pauses_after_tasks === null && lo >= 0)) return `${head}.`;
  const tasks = e.tasks.count;
  const lo2 = e.pauses_after_tasks;
  const hi2 = e.pauses_after_tasks_max ?? lo2;
  const where =
    lo2 === null
      ? 'when credits run out'
      : `after ${lo2 === hi2 ? lo2 : `${lo2} to ${hi2}`} of its ${tasks} task${tasks === 1 ? '' : 's'}`;
  const resume = e.resumes_at
    ? ` It could go on at ${utcText(e.resumes_at)}` +
      ((e.auto_reset_charges ?? 0) > 0 || c.autoReset.enabled === true
        ? ', when the 24-hour window frees a reset (which charges the card again).'
        : ', when the plan renews.')
    : '';
  if (e.covered === false) return `${head}. NOT covered: the run pauses out of credits ${where}.${resume}`;
  return (
    `${head}. MAY NOT be covered: depending on when the platform's periodic check fires the resets, ` +
    `the run pauses out of credits ${where} or finishes.${resume}`
  );
}

/** The summary under the services table: total, time, balance now and after, auto-reset. */
export function summaryLines(c: SpendContext): string[] {
  const e = c.estimate;
  const lines = [
    `Total: ${fmtCredits(e.total_credits)} credits for ${e.tasks.count} task${e.tasks.count === 1 ? '' : 's'}` +
      `${e.max_results !== null ? ` (max_results ${e.max_results})` : ''}.`,
  ];
  if (e.estimated_time) lines.push(`Time: ${e.estimated_time}.`);
  lines.push(balanceLine(c));
  const plan = e.recommended_upgrade_plan;
  if (plan && typeof plan === 'object' && typeof (plan as { name?: unknown }).name === 'string')
    lines.push(`Recommended upgrade: plan ${(plan as { name: string }).name}.`);
  lines.push(autoResetLine(c));
  return lines;
}

/** The one line every run start prints on stderr: "estimated 132 credits (base 100, …), sets off no reset". */
export function startLine(c: SpendContext): string {
  const e = c.estimate;
  const services = e.services.map((s) => `${s.name} ${fmtCredits(s.credits)}`).join(', ');
  const n = e.auto_reset_charges;
  const min = e.resets ?? n;
  const resets =
    n === null
      ? 'may set off an Auto Billing Reset (charges the card; the API did not say enough to tell)'
      : n === 0
        ? 'sets off no reset'
        : `sets off ${resetsText(min ?? n, n).replace(/resets?$/, (w) => `Auto Billing ${w.charAt(0).toUpperCase()}${w.slice(1)}`)} (charges the card)`;
  const pending =
    e.pending_reset === true
      ? n === 0
        ? ` (${PENDING_WORDS})`
        : `, besides ${PENDING_WORDS.replace(' fires', ', which fires')}`
      : '';
  const covered =
    e.covered === false
      ? '; NOT covered: it pauses out of credits'
      : e.covered === null && e.pauses_after_tasks !== null
        ? '; may pause out of credits'
        : '';
  return `estimated ${fmtCredits(e.total_credits)} credits (${services}), ${resets}${pending}${covered}`;
}

/** One paragraph for stderr before a run starts or is refused (the guard, apply, chains). */
export function estimateParagraph(c: SpendContext, squidRef: string): string[] {
  const services = c.estimate.services.map((s) => `${s.name} ${fmtCredits(s.credits)}`).join(', ');
  return [
    `Estimate: ${fmtCredits(c.estimate.total_credits)} credits (${services}).`,
    ...summaryLines(c).slice(1),
    ...paidFunctionLines(c, squidRef),
  ];
}

/** What `sq billing auto-reset` adds under the settings: allowance and usage, credits left before the next reset and
 * what it charges, and the resets left in the rolling 24 hours. */
export function autoResetStatusLines(balance: BalanceFacts & { name?: unknown }, ar: AutoResetFacts): string[] {
  const plan = typeof balance.name === 'string' && balance.name ? `plan ${balance.name}` : 'the plan';
  const pct =
    balance.available > 0 ? ` (${fmtCredits(Math.round((balance.consumed / balance.available) * 10_000) / 100)}%)` : '';
  const lines = [
    `Allowance: ${fmtCredits(balance.available)} credits (${plan}); used now: ${fmtCredits(balance.consumed)}${pct}.`,
  ];
  if (ar.enabled === false) lines.push('Automatic reset is off: no reset fires and nothing is charged automatically.');
  else if (ar.enabled === null)
    lines.push(
      'Whether automatic reset is on is UNKNOWN (the API did not say): a reset may fire and charge the card on file.',
    );
  else if (ar.current_usage_pct === null) lines.push('No active subscription: no reset can fire.');
  else {
    const left = resetsLeft(ar);
    const before = creditsBeforeReset(balance, ar);
    lines.push(
      left === 0
        ? `No reset left in the 24-hour window: none fires until it frees up, even above ${ar.threshold_pct}%.`
        : before === null
          ? `The threshold is UNKNOWN (the API did not give threshold_pct): when the next reset fires, ` +
            `charging the card on file for a renewal of ${plan}, cannot be told.`
          : before === 0
            ? `Usage is above ${ar.threshold_pct}%: the next check fires a reset, which charges the card on file for a renewal of ${plan}.`
            : `The next reset fires after ${fmtCredits(before)} more credits (usage above ${ar.threshold_pct}%) ` +
              `and charges the card on file for a renewal of ${plan}.`,
    );
  }
  const left = resetsLeft(ar);
  lines.push(
    left === null
      ? `Resets left in the 24-hour window: UNKNOWN (the API did not give ${fieldsOf(
          ar.unknown.filter((f) => f === 'max_resets_per_24h' || f === 'resets_used_in_window'),
        )}).`
      : `Resets left in the 24-hour window: ${left} of ${ar.max_resets_per_24h}.`,
  );
  return lines;
}

/** `sq squids chain set`: the downstream squid's runs cost too, with its estimate when it has one. */
export function chainCostLines(c: ChainCost, sourceLabel: string): string[] {
  const who = c.target ? `squid ${c.target.name}` : `the target squid (${c.crawlerName}, made on the first done run)`;
  const lines = [
    c.autostart
      ? `Costs too: each done run of ${sourceLabel} adds its results as tasks of ${who} and starts a run of it, which is charged.`
      : `Costs too: each done run of ${sourceLabel} adds its results as tasks of ${who}, in a paused run: nothing is charged until it is resumed.`,
  ];
  if (c.estimate) lines.push(`Its run now: ${estimateParagraph(c.estimate, c.target?.id ?? '').join(' ')}`);
  else if (c.ratePerRow !== null)
    lines.push(
      `Its cost is not known before it has tasks: ${c.crawlerName} charges ${fmtCredits(c.ratePerRow)} ` +
        `credits a row, plus its paid functions on by default; then see \`sq squids estimate\` on it.`,
    );
  return lines;
}

/** What guardCost (guard.ts) found: the estimate and the account's side when read, or the credits alone, or why there is none. */
export interface GuardResult {
  context: SpendContext | null;
  /** The estimated credits of one run, when an estimate was had. */
  total: number | null;
  /** The estimate's services, when an estimate was had. */
  services: { name: string; credits: number }[];
  /** Why there is no estimate: the squid has no tasks yet (tasksLater), or the service could not give one. */
  none?: 'no-tasks' | 'unavailable';
  /** A person was asked and said yes. */
  asked?: boolean;
}

/** When a schedule fires next, in words and as a UTC time ("Mondays at 09:00 Europe/Paris; next run 2026-11-30T08:00Z"). */
export function scheduleLine(schedule: { cron: string; timezone: string }, now: number): string {
  let words = `cron "${schedule.cron}" ${schedule.timezone}`;
  let next: number | null = null;
  try {
    const cron = parseCron(schedule.cron);
    words = describeCron(cron, schedule.timezone);
    next = nextRun(cron, schedule.timezone, now);
  } catch {
    // the words stay the expression's own
  }
  return `Schedule: ${words}; next run ${next === null ? 'none within 5 years' : `${new Date(next).toISOString().replace(/:00\.000Z$/, 'Z')} (UTC)`}.`;
}

/**
 * The cost of the runs a schedule starts, for stderr before it is turned on: the schedule and its next run, one
 * run's estimate, and what it means for the balance and Auto Billing Reset when those were read.
 */
export function scheduleCostLines(
  r: GuardResult,
  schedule: { cron: string; timezone: string },
  now: number,
  squidRef: string,
): string[] {
  const lines = [scheduleLine(schedule, now)];
  if (r.total === null) {
    lines.push(
      r.none === 'no-tasks'
        ? `Each scheduled run is charged for the results of the squid's tasks; it has none yet, so there ` +
            `is no estimate: after adding tasks, \`sq squids estimate ${squidRef}\` shows a run's cost.`
        : `Each scheduled run is charged; its cost could not be estimated now: \`sq squids estimate ${squidRef}\` shows it.`,
    );
    return lines;
  }
  const services = `${r.services.map((s) => `${s.name} ${fmtCredits(s.credits)}`).join(', ')}`;
  lines.push(
    `Each scheduled run is estimated at ${fmtCredits(r.total)} credits (${services}), as the squid ` +
      `is now${r.asked ? '; the estimate above was accepted' : ''}.`,
  );
  if (r.context && !r.asked) lines.push(...estimateParagraph(r.context, squidRef).slice(1));
  return lines;
}
