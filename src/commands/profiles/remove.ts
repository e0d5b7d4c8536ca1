import { defineVerb } from '../../cli/command.js';
import { NotFoundError } from '../../errors.js';
import { confirmOrCancel, preflightConfirm } from '../../cli/confirm.js';
import { dryRunLocal } from '../../cli/dry-run.js';

export default defineVerb({
  name: 'remove',
  writes: true,
  aliases: ['rm'],
  summary: 'Delete a stored profile and its key',
  description:
    'Asks for confirmation on a terminal; scripts pass --yes. --dry-run says what would be removed and removes nothing.',
  args: ['<profile>'],
  examples: ['sq profiles remove staging', 'sq profiles remove staging --yes', 'sq profiles remove staging --dry-run'],
  async run(ctx, [name]) {
    const store = await ctx.config();
    // An unknown name is exit 3 at once, before any question or the --yes a script would need for a real one.
    if (!store.get(name)) {
      const names = store.names();
      throw new NotFoundError(
        `no profile named "${name}"${names.length ? ` (profiles: ${names.join(', ')})` : ' (no profile is stored)'}`,
      );
    }
    await preflightConfirm(ctx);
    if (ctx.globals.dryRun) dryRunLocal(ctx, `remove profile "${name}" and its stored key`);
    else {
      await confirmOrCancel(ctx, `Remove profile "${name}" and its stored key?`);
      if (!(await store.remove(name))) throw new NotFoundError(`no profile named "${name}"`);
      ctx.out.success(`Removed profile "${name}"`);
    }
    // --json is one document on stdout for every verb, as the other deletes print theirs.
    if (ctx.out.spec.json)
      await ctx.out.record({
        profile: name,
        removed: !ctx.globals.dryRun,
        ...(ctx.globals.dryRun ? { dry_run: true } : {}),
      });
  },
});
