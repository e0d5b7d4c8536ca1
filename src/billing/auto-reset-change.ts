// Before a write of the Auto Billing Reset settings (`sq billing auto-reset`, a raw `sq api` POST of them): a warning
// when usage is already above the new threshold (a reset, and a card charge, fires as soon as it is saved), and the yes
// a change that can charge more than today's setting needs.
import type { Ctx } from '../cli/context.js';
import { confirmOrCancel } from '../cli/confirm.js';
import { raisesCharges, type AutoReset, type AutoResetUpdate } from '../api/billing.js';
import { UsageError } from '../errors.js';

/** A share as the settings show it: "80%", "25.08%". */
export const pct = (v: unknown) => (typeof v === 'number' ? `${Number.isInteger(v) ? v : v.toFixed(2)}%` : 'n/a');

export interface ChangeWords {
  /** The question on a terminal, given whether a reset fires at once. */
  question: (firesNow: boolean) => string;
  /** Off a terminal without --yes: the refusal (exit 2), or undefined for the prompter's own, naming --yes. */
  refusal?: (firesNow: boolean) => string;
}

/** The warning and, when the change can charge more, the yes; whether a reset fires as soon as `after` is saved. */
export async function confirmAutoResetChange(
  ctx: Ctx,
  before: AutoReset,
  after: Required<AutoResetUpdate>,
  words: ChangeWords,
): Promise<boolean> {
  const usage = before.current_usage_pct;
  const firesNow = after.enabled && typeof usage === 'number' && usage > after.threshold_pct;
  if (firesNow)
    ctx.out.warn(
      `current usage is ${pct(usage)}, above the ${pct(after.threshold_pct)} threshold: a reset fires as soon as ` +
        'this is saved, and the card on file is charged for a plan renewal right away.',
    );
  if (!raisesCharges(before, after)) return firesNow;
  if (words.refusal && !ctx.globals.yes && !ctx.globals.dryRun && !ctx.canPrompt())
    throw new UsageError(words.refusal(firesNow));
  await confirmOrCancel(ctx, words.question(firesNow), 'cancelled: nothing was sent, the setting is unchanged');
  return firesNow;
}
