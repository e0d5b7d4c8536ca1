import { defineVerb } from '../../command.js';
import { printPlanned } from '../../io/dry-run.js';
import { nonEmpty } from '../../validate/index.js';
import { confirmOrCancel, preflightConfirm } from '../../io/confirm.js';

export default defineVerb({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete an account (DELETE /v1/accounts/{id}); squids using it will then fail',
  description: 'Asks for confirmation on a terminal; scripts pass --yes.',
  args: ['<account>'],
  examples: ['sq accounts delete 7c2d9e4f0a1b4c3d8e5f6a7b8c9d0e1f', 'sq accounts delete 7c2d9e4f0a1b4c3d8e5f6a7b8c9d0e1f --yes'],
  async run(ctx, [ref]) {
    const id = nonEmpty('<account>', ref).trim();
    await preflightConfirm(ctx);
    const path = `/v1/accounts/${encodeURIComponent(id)}`;
    if (ctx.globals.dryRun) {
      printPlanned(ctx, [{ method: 'DELETE', path }]);
      return;
    }
    await confirmOrCancel(ctx, `Delete account ${id}? Squids that use it will fail until another account is linked.`);
    const http = await ctx.http();
    const res = await http.delete(path);
    ctx.out.success(`Deleted account ${id}`);
    await ctx.out.record(res ?? { id, object: 'account', deleted: true }, { title: 'Account deleted' });
  },
});
