// The words of an estimate, for every place that shows one before spending (`sq squids estimate`, the guard of
// `runs start` and `go` on stderr and in its question, `apply`, `squids chain set`): no requests, no output here.
import type { SpendContext } from '../api/estimate.js';
import { creditsBeforeReset, resetsLeft } from './charges.js';

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

/** What the run's Auto Billing Resets mean, in one line (empty when auto-reset is off). */
export function autoResetLine(c: SpendContext): string {
  const ar = c.autoReset;
  if (!ar.enabled) return 'Auto Billing Reset: off (nothing is charged to the card automatically).';
  const n = c.estimate.auto_reset_charges;
  const plan = typeof c.balance.name === 'string' && c.balance.name ? ` (a renewal of plan ${c.balance.name})` : '';
  if (n === 0) {
    return `Auto Billing Reset: on at ${ar.threshold_pct}%; this run sets off none (${fmtCredits(creditsBeforeReset(c.balance, ar))} credits before the next one, ${resetsLeft(ar)} left in the 24-hour window).`;
  }
  return `Auto Billing Reset: this run would set off ${n} reset${n === 1 ? '' : 's'}, each charging the card on file${plan} (threshold ${ar.threshold_pct}%, ${resetsLeft(ar)} left in the 24-hour window).`;
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
