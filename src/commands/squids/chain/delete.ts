import { defineVerb } from '../../../cli/command.js';
import { deleteChain } from '../../../api/chains.js';
import { resolveSquid } from '../../../api/resolve.js';
import { confirmOrCancel, preflightConfirm } from '../../../cli/confirm.js';

export default defineVerb({
  name: 'delete',
  writes: true,
  aliases: ['rm'],
  summary: "Remove a squid's chain (DELETE /v1/squids/{id}/chain); the target squid stays",
  description:
    'Only the link goes: the target squid, its tasks, runs and results stay. A squid without a chain is exit 3. Asks ' +
    'for confirmation on a terminal; scripts pass --yes.',
  args: ['<squid>'],
  examples: ['sq squids chain delete "Paris restaurants"', 'sq squids chain delete 3fa8 --yes'],
  async run(ctx, [ref]) {
    await preflightConfirm(ctx);
    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    await confirmOrCancel(
      ctx,
      `Remove the chain of squid ${squid.name || squid.id}? Its target squid and its runs stay.`,
    );
    await deleteChain(http, squid.id);
    ctx.out.success(`Removed the chain of squid ${squid.name || squid.id}`);
    if (ctx.out.spec.json === 'document') await ctx.out.json({ squid: squid.id, object: 'chain', deleted: true });
  },
});
