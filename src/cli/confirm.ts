// Confirmation for destructive verbs. The "needs --yes" usage error must come before any request (exit 2, nothing
// sent), so it is checked up front; the real question, naming the resource, is asked once it is resolved.
import type { Ctx } from './context.js';
import { CancelledError } from '../errors.js';

export async function preflightConfirm(ctx: Ctx): Promise<void> {
  if (ctx.globals.yes || ctx.globals.dryRun || ctx.canPrompt()) return;
  // Throws the UsageError naming --yes.
  await (await ctx.prompter()).confirm('', { default: false, flag: '--yes' });
}

/**
 * Asks unless --yes; a "no" ends the verb with exit 11 (cancelled) and `cancelled` as the message. A function message is built
 * only when the question is asked (it may need a request).
 */
export async function confirmOrCancel(
  ctx: Ctx,
  message: string | (() => Promise<string>),
  cancelled = 'cancelled: nothing was changed',
): Promise<void> {
  // A dry run sends no write, so there is nothing to confirm.
  if (ctx.globals.yes || ctx.globals.dryRun) return;
  const ok = await (await ctx.prompter()).confirm(typeof message === 'string' ? message : await message(), {
    default: false,
    flag: '--yes',
  });
  if (!ok) throw new CancelledError(cancelled);
}
