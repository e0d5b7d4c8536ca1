// The words of an estimate, for every place that shows one before spending (`sq squids estimate`, the guard of
// `runs start` and `go` on stderr and in its question, `apply`, `squids chain set`): no requests, no output here.
import type { ChainCost, SpendContext } from '../api/estimate.js';
import { creditsBeforeReset, resetsLeft, type AutoResetFacts, type BalanceFacts } from './charges.js';
import { describeCron, nextRun, parseCron } from '../api/cron.js';

/** "1,234.5": credits without float noise. */
export function fmtCredits(v: number): string {
  return v.toLocaleString('en-US', { maximumFractionDigits: 4 });
}

/** The paid functions a run would charge (every service but the base scrape), each with how to turn it off. */
export function paidFunctionLines(c: SpendContext, squidRef: string, onByDefault?: ReadonlySet<string>): string[] {
  return c.estimate.services
    .filter((s) => s.name !== 'base' && s.credits > 0)
    .map((s) => {
      const why = onByDefault?.has(s.name) ? 'on by default' : 'on';
      return `Paid function ${s.name} is ${why}: ${fmtCredits(s.credits)} credits of this run. Turn it off: sq squids update ${squidRef} --param functions.${s.name}=false`;
    });
}

/** "threshold_pct and max_resets_per_24h": the fields the API left out. */
const fieldsOf = (names: readonly string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);
const leftText = (n: number | null) => (n === null ? 'an unknown number' : String(n));

/** What the run's Auto Billing Resets mean, in one line; what the API did not say is said to be unknown. */
export function autoResetLine(c: SpendContext): string {
  const ar = c.autoReset;
  if (ar.enabled === false) return 'Auto Billing Reset: off (nothing is charged to the card automatically).';
  const n = c.estimate.auto_reset_charges;
  if (ar.enabled === null) {
    return `Auto Billing Reset: UNKNOWN whether it is on (the API's settings did not say): this run may charge the card on file; \`sq billing auto-reset\` shows the settings.`;
  }
  if (n === null) {
    return `Auto Billing Reset: on, but the API did not give ${fieldsOf(ar.unknown)}: whether this run sets off a reset (a charge on the card on file) is UNKNOWN.`;
  }
  const plan = typeof c.balance.name === 'string' && c.balance.name ? ` (a renewal of plan ${c.balance.name})` : '';
  if (n === 0) {
    const before = creditsBeforeReset(c.balance, ar);
    return `Auto Billing Reset: on at ${ar.threshold_pct}%; this run sets off none (${before === null ? 'unknown' : fmtCredits(before)} credits before the next one, ${leftText(resetsLeft(ar))} left in the 24-hour window).`;
  }
  return `Auto Billing Reset: this run would set off ${n} reset${n === 1 ? '' : 's'}, each charging the card on file${plan} (threshold ${ar.threshold_pct}%, ${leftText(resetsLeft(ar))} left in the 24-hour window).`;
}

/** The summary under the services table: total, time, balance now and after, auto-reset. */
export function summaryLines(c: SpendContext): string[] {
  const e = c.estimate;
  const lines = [`Total: ${fmtCredits(e.total_credits)} credits for ${e.tasks.count} task${e.tasks.count === 1 ? '' : 's'}${e.max_results !== null ? ` (max_results ${e.max_results})` : ''}.`];
  if (e.estimated_time) lines.push(`Time: ${e.estimated_time}.`);
  lines.push(
    `Balance: ${fmtCredits(c.creditsLeft)} credits now, ${fmtCredits(e.balance_after)} after the run${e.balance_after < 0 ? ' (NOT covered: the run pauses when credits run out)' : ''}.`,
  );
  const plan = e.recommended_upgrade_plan;
  if (plan && typeof plan === 'object' && typeof (plan as { name?: unknown }).name === 'string') lines.push(`Recommended upgrade: plan ${(plan as { name: string }).name}.`);
  lines.push(autoResetLine(c));
  return lines;
}

/** One paragraph for stderr before a run starts or is refused (the guard, apply, chains). */
export function estimateParagraph(c: SpendContext, squidRef: string): string[] {
  const services = c.estimate.services.map((s) => `${s.name} ${fmtCredits(s.credits)}`).join(', ');
  return [`Estimate: ${fmtCredits(c.estimate.total_credits)} credits (${services}).`, ...summaryLines(c).slice(1), ...paidFunctionLines(c, squidRef)];
}

/**
 * What `sq billing auto-reset` adds under the settings: the allowance and usage, the credits left before the next
 * reset fires and what it charges, and the resets left in the rolling 24 hours.
 */
export function autoResetStatusLines(balance: BalanceFacts & { name?: unknown }, ar: AutoResetFacts): string[] {
  const plan = typeof balance.name === 'string' && balance.name ? `plan ${balance.name}` : 'the plan';
  const pct = balance.available > 0 ? ` (${fmtCredits(Math.round((balance.consumed / balance.available) * 10_000) / 100)}%)` : '';
  const lines = [`Allowance: ${fmtCredits(balance.available)} credits (${plan}); used now: ${fmtCredits(balance.consumed)}${pct}.`];
  if (ar.enabled === false) lines.push('Automatic reset is off: no reset fires and nothing is charged automatically.');
  else if (ar.enabled === null) lines.push('Whether automatic reset is on is UNKNOWN (the API did not say): a reset may fire and charge the card on file.');
  else if (ar.current_usage_pct === null) lines.push('No active subscription: no reset can fire.');
  else {
    const left = resetsLeft(ar);
    const before = creditsBeforeReset(balance, ar);
    lines.push(
      left === 0
        ? `No reset left in the 24-hour window: none fires until it frees up, even above ${ar.threshold_pct}%.`
        : before === null
          ? `The threshold is UNKNOWN (the API did not give threshold_pct): when the next reset fires, charging the card on file for a renewal of ${plan}, cannot be told.`
          : before === 0
            ? `Usage is above ${ar.threshold_pct}%: the next check fires a reset, which charges the card on file for a renewal of ${plan}.`
            : `The next reset fires after ${fmtCredits(before)} more credits (usage above ${ar.threshold_pct}%) and charges the card on file for a renewal of ${plan}.`,
    );
  }
  const left = resetsLeft(ar);
  lines.push(
    left === null
      ? `Resets left in the 24-hour window: UNKNOWN (the API did not give ${fieldsOf(ar.unknown.filter((f) => f === 'max_resets_per_24h' || f === 'resets_used_in_window'))}).`
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
  else if (c.ratePerRow !== null) lines.push(`Its cost is not known before it has tasks: ${c.crawlerName} charges ${fmtCredits(c.ratePerRow)} credits a row, plus its paid functions on by default; then see \`sq squids estimate\` on it.`);
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
export function scheduleCostLines(r: GuardResult, schedule: { cron: string; timezone: string }, now: number, squidRef: string): string[] {
  const lines = [scheduleLine(schedule, now)];
  if (r.total === null) {
    lines.push(
      r.none === 'no-tasks'
        ? `Each scheduled run is charged for the results of the squid's tasks; it has none yet, so there is no estimate: after adding tasks, \`sq squids estimate ${squidRef}\` shows a run's cost.`
        : `Each scheduled run is charged; its cost could not be estimated now: \`sq squids estimate ${squidRef}\` shows it.`,
    );
    return lines;
  }
  if (r.asked) {
    lines.push(`Each scheduled run is charged about ${fmtCredits(r.total)} credits (the estimate above, accepted).`);
    return lines;
  }
  if (r.context) {
    const [first, ...rest] = estimateParagraph(r.context, squidRef);
    lines.push(`Each scheduled run is charged: ${first}`, ...rest);
    return lines;
  }
  lines.push(
    `Each scheduled run is charged: Estimate: ${fmtCredits(r.total)} credits (${r.services.map((s) => `${s.name} ${fmtCredits(s.credits)}`).join(', ')}), as the squid is now.`,
    `Auto Billing Reset: not read (no cap asked for it, and no terminal); \`sq squids estimate ${squidRef}\` says whether a run would set one off on the current balance.`,
  );
  return lines;
}
