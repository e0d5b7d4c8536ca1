import { defineVerb } from '../../command.js';
import { CRAWLERS_PATH } from '../../api/crawlers.js';
import { DEFAULT_LIMIT, pagingFlags, pagingOptions, printList } from '../../io/paging.js';

export default defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the crawlers squids can be built on (GET /v1/crawlers)',
  description:
    'List crawlers with their id (what `sq squids create --crawler` takes; names and slugs work too), slug and credits per result row.',
  options: pagingOptions(DEFAULT_LIMIT),
  examples: ['sq crawlers list', 'sq crawlers list --all --format csv', 'sq crawlers list --fields id,slug --all'],
  async run(ctx, _args, opts) {
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    const http = await ctx.http();
    await printList(ctx, http, CRAWLERS_PATH, {
      paging,
      noun: 'crawlers',
      columns: [
        { key: 'id' },
        { key: 'name', maxWidth: 40 },
        { key: 'slug', whole: true },
        { key: 'credits_per_row', header: 'CREDITS/ROW' },
        { key: 'max_concurrency', header: 'MAX CONC' },
        { key: 'account.type', header: 'ACCOUNT' },
        { key: 'is_premium', header: 'PREMIUM' },
        { key: 'has_issues', header: 'ISSUES' },
      ],
    });
  },
});
