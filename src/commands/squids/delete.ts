import { defineVerb } from '../../cli/command.js';
import { resolveSquid } from '../../api/resolve.js';
import { confirmOrCancel, preflightConfirm } from '../../cli/confirm.js';
import { squidLabel } from './_shared/label.js';
import { deleteSquid } from '../../api/squids.js';

export default defineVerb({
  name: 'delete',
  writes: true,
  aliases: ['rm'],
  summary: 'Delete a squid with its tasks, runs and results (DELETE /v1/squids/{id}; irreversible)',
  description:
    'Stops an active run. Credits already spent stay spent. Asks for confirmation on a terminal; scripts pass --yes.',
  args: ['<squid>'],
  examples: ['sq squids delete "Paris restaurants"', 'sq squids delete 3fa8 --yes'],
  async run(ctx, [ref]) {
    await preflightConfirm(ctx);
    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    await confirmOrCancel(
      ctx,
      async () =>
        `Delete squid ${await squidLabel(ctx, http, squid)} with all its tasks, runs and results? This cannot be undone.`,
    );
    const res = await deleteSquid(http, squid.id);
    ctx.out.success(`Deleted squid ${squid.name || squid.id}`);
    await ctx.out.record(res ?? { id: squid.id, object: 'squid', deleted: true }, { title: 'Squid deleted' });
  },
});
