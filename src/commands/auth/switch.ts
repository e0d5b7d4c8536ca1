import { defineVerb } from '../../cli/command.js';
import { NotFoundError } from '../../errors.js';
import { dryRunLocal } from '../../cli/dry-run.js';

export default defineVerb({
  name: 'switch',
  writes: true,
  summary: 'Make a stored profile the active one',
  args: ['<profile>'],
  examples: ['sq auth switch staging', 'sq auth switch default'],
  async run(ctx, [name]) {
    const store = await ctx.config();
    if (ctx.globals.dryRun ? !store.get(name) : !(await store.setActive(name))) {
      const known = store.names();
      throw new NotFoundError(
        `no profile named "${name}"${known.length ? ` (known: ${known.join(', ')})` : ''}; create it with \`sq auth login --profile ${name}\``,
      );
    }
    if (ctx.globals.dryRun) dryRunLocal(ctx, `make "${name}" the active profile`);
    else ctx.out.success(`Active profile: ${name}`);
    // --json is one document on stdout for every verb: what is now active (with --dry-run, what would be).
    if (ctx.out.spec.json)
      await ctx.out.record({
        profile: name,
        active: !ctx.globals.dryRun,
        ...(ctx.globals.dryRun ? { dry_run: true } : {}),
      });
  },
});
