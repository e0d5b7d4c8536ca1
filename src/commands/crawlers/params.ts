import { defineVerb } from '../../cli/command.js';
import { resolveCrawler } from '../../api/resolve.js';
import { getCrawlerParams, paramRows } from '../../api/crawlers.js';

export default defineVerb({
  name: 'params',
  summary: "List a crawler's task and squid parameters and its paid functions (GET /v1/crawlers/{id}/params)",
  description:
    'One row per parameter: level "task" (a key of each task, e.g. url), "squid" (set with `sq squids update --param`) ' +
    'or "function" (a paid add-on, set with --param functions=\'{"name":true}\').',
  args: ['<crawler>'],
  examples: ['sq crawlers params google-maps-search-export', 'sq crawlers params google-maps-search-export --json'],
  async run(ctx, [ref]) {
    const http = await ctx.http();
    const { id } = await resolveCrawler(http, ref);
    const body = await getCrawlerParams(http, id);
    await ctx.out.list(paramRows(body), {
      columns: [
        { key: 'level' },
        { key: 'name' },
        { key: 'type' },
        { key: 'required' },
        { key: 'default' },
        { key: 'group' },
        { key: 'allowed' },
        { key: 'credits_per_function', header: 'CREDITS' },
      ],
    });
  },
});
