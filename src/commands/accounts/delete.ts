import { defineVerb } from '../../cli/command.js';
import { resolveAccount } from '../../api/resolve.js';
import { nonEmpty } from '../../validate/index.js';
import { confirmOrCancel, preflightConfirm } from '../../cli/confirm.js';
import { deleteAccount } from '../../api/accounts.js';

export default defineVerb({
  name: 'delete',
  writes: true,
  aliases: ['rm'],
  summary: 'Delete an account (DELETE /v1/accounts/{id}); squids using it will then fail',
  description:
    'The account is named by its id, a unique id prefix (4+ characters) or its exact username. Asks for confirmation ' +
    'on a terminal; scripts pass --yes.',
  args: ['<account>'],
  examples: ['sq accounts delete 7c2d9e4f0a1b4c3d8e5f6a7b8c9d0e1f', 'sq accounts delete demo_scraper --yes'],
  async run(ctx, [ref]) {
    const given = nonEmpty('<account>', ref).trim();
    await preflightConfirm(ctx);
    const http = await ctx.http();
    const { id, name } = await resolveAccount(http, given);
    const label = name && name !== id ? `${name} (${id})` : id;
    await confirmOrCancel(
      ctx,
      `Delete account ${label}? Squids that use it will fail until another account is linked.`,
    );
    const res = await deleteAccount(http, id);
    ctx.out.success(`Deleted account ${label}`);
    await ctx.out.record(res ?? { id, object: 'account', deleted: true }, { title: 'Account deleted' });
  },
});
