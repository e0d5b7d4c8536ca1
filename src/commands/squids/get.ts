import { defineVerb } from '../../cli/command.js';
import { resolveSquid } from '../../api/resolve.js';
import { SQUID_DETAIL_COLUMNS } from './_shared/columns.js';
import { getSquid } from '../../api/squids.js';
import { openWeb, WEB_OPTION } from '../../cli/browser.js';

export default defineVerb({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one squid: crawler, params, schedule, last run (GET /v1/squids/{id})',
  description:
    '<squid> is an id, a unique id prefix (4+ characters) or an exact name. --json prints the ' +
    "whole record (secrets masked). --web opens the squid's page in the dashboard instead.",
  args: ['<squid>'],
  options: [WEB_OPTION],
  examples: [
    'sq squids get "Paris restaurants"',
    'sq squids get 3fa8 --json',
    'sq squids get "Paris restaurants" --fields id,params.max_results',
    'sq squids get "Paris restaurants" --web',
  ],
  async run(ctx, [ref], opts) {
    const http = await ctx.http();
    const { id } = await resolveSquid(http, ref);
    if (opts.web) return void (await openWeb(ctx, { kind: 'squid', id }));
    const s = await getSquid(http, id);
    await ctx.out.record(s, { title: `Squid ${String(s?.name ?? id)}`, columns: SQUID_DETAIL_COLUMNS });
  },
});
