import { defineVerb } from '../../command.js';
import { NotFoundError } from '../../errors.js';

export default defineVerb({
  name: 'switch',
  summary: 'Make a stored profile the active one',
  args: ['<profile>'],
  examples: ['sq auth switch staging', 'sq auth switch default'],
  async run(ctx, [name]) {
    const store = await ctx.config();
    if (!(await store.setActive(name))) {
      const known = store.names();
      throw new NotFoundError(`no profile named "${name}"${known.length ? ` (known: ${known.join(', ')})` : ''}; create it with \`sq auth login --profile ${name}\``);
    }
    ctx.out.success(`Active profile: ${name}`);
  },
});
