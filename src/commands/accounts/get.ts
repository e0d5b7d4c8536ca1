import { defineVerb } from '../../cli/command.js';
import { firstAccount, getAccount } from '../../api/accounts.js';
import { resolveAccount } from '../../api/resolve.js';
import { nonEmpty } from '../../validate/index.js';
import { ACCOUNT_DETAIL_COLUMNS } from './_shared/columns.js';

export default defineVerb({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one account with its limits and linked squids (GET /v1/accounts/{id})',
  args: ['<account>'],
  description: 'The account is named by its id, a unique id prefix (4+ characters) or its exact username.',
  examples: ['sq accounts get 7c2d9e4f0a1b4c3d8e5f6a7b8c9d0e1f', 'sq accounts get demo_scraper --json'],
  async run(ctx, [ref]) {
    const http = await ctx.http();
    const { id } = await resolveAccount(http, nonEmpty('<account>', ref));
    const a = firstAccount(await getAccount(http, id), id);
    await ctx.out.record(a, { title: `Account ${String(a.username ?? id)}`, columns: ACCOUNT_DETAIL_COLUMNS });
  },
});
