import { defineVerb } from '../../command.js';
import { SQUID_LIST_COLUMNS } from '../../api/squids.js';
import { nonEmpty } from '../../validate/index.js';
import { PAGING_OPTIONS, pagingFlags, printList } from './listing.js';

export default defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List squids, newest first (GET /v1/squids)',
  options: [{ flags: '--name <text>', description: 'only squids whose name contains this text (case-insensitive)' }, ...PAGING_OPTIONS],
  examples: ['sq squids list', 'sq squids list --name paris', 'sq squids list --all --fields id,name --format csv'],
  async run(ctx, _args, opts) {
    const paging = pagingFlags(opts);
    const name = opts.name === undefined ? undefined : nonEmpty('--name', opts.name);
    const http = await ctx.http();
    await printList(ctx, http, '/v1/squids', { paging, query: { name }, noun: 'squids', columns: SQUID_LIST_COLUMNS });
  },
});
