import { defineVerb } from '../../command.js';
import { NotFoundError } from '../../errors.js';

export default defineVerb({
  name: 'remove',
  aliases: ['rm'],
  summary: 'Delete a stored profile and its key',
  args: ['<name>'],
  examples: ['sq profiles remove staging'],
  async run(ctx, [name]) {
    const store = await ctx.config();
    if (!(await store.remove(name))) throw new NotFoundError(`no profile named "${name}"`);
    ctx.out.success(`Removed profile "${name}"`);
  },
});
