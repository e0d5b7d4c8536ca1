import { defineVerb } from '../../cli/command.js';
import { profileName } from '../../config/resolve.js';
import { confirmOrCancel, preflightConfirm } from '../../cli/confirm.js';
import { dryRunLocal } from '../../cli/dry-run.js';

export default defineVerb({
  name: 'logout',
  writes: true,
  summary: 'Remove the stored key of a profile (the profile and its base URL stay)',
  description:
    'Asks for confirmation on a terminal; scripts pass --yes. --dry-run says what would be removed and removes nothing.',
  examples: ['sq auth logout', 'sq auth logout --profile staging --yes', 'sq auth logout --profile staging --dry-run'],
  async run(ctx) {
    const store = await ctx.config();
    const name = profileName(ctx.globals.profile, ctx.env, store);
    await preflightConfirm(ctx);
    let removed = false;
    if (!store.get(name)?.token) ctx.out.info(`Profile "${name}" has no stored key.`);
    else if (ctx.globals.dryRun) dryRunLocal(ctx, `remove the stored key of profile "${name}"`);
    else {
      await confirmOrCancel(ctx, `Remove the stored key of profile "${name}"?`);
      removed = await store.forgetKey(name);
      if (removed) ctx.out.success(`Logged out of profile "${name}"`);
      else ctx.out.info(`Profile "${name}" has no stored key.`);
    }
    if (ctx.env.SQ_TOKEN) ctx.out.warn('SQ_TOKEN is still set in this environment: commands keep using it.');
    // --json is one document on stdout for every verb: whether a key was removed (none stored: false).
    if (ctx.out.spec.json) {
      await ctx.out.record({
        profile: name,
        key_removed: removed,
        env_token_set: !!ctx.env.SQ_TOKEN,
        ...(ctx.globals.dryRun ? { dry_run: true } : {}),
      });
    }
  },
});
