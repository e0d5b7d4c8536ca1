import { defineVerb } from '../../cli/command.js';
import { resolveCrawler } from '../../api/resolve.js';
import { getCrawler } from '../../api/crawlers.js';
import { isRecord } from '../../lib/guards.js';
import { crawlerAccountType } from '../../api/account-links.js';

export default defineVerb({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one crawler: inputs, result columns, credits, account type (GET /v1/crawlers/{id})',
  description: '<crawler> is an id, a unique id prefix (4+ characters), an exact name or a slug.',
  args: ['<crawler>'],
  examples: [
    'sq crawlers get google-maps-search-export',
    'sq crawlers get "Google Maps Search Export" --json',
    'sq crawlers get 4734 --fields id,name,result',
  ],
  async run(ctx, [ref]) {
    const http = await ctx.http();
    const { id } = await resolveCrawler(http, ref);
    const c = await getCrawler(http, id);
    const names = (v: unknown) =>
      Array.isArray(v)
        ? v
            .map((x) => (isRecord(x) ? String(x.name ?? '') : String(x)))
            .filter(Boolean)
            .join(', ')
        : '';
    await ctx.out.record(c, {
      title: `Crawler ${String(c.name ?? id)}`,
      columns: [
        { key: 'id' },
        { key: 'name' },
        { key: 'slug' },
        { key: 'credits_per_row', header: 'credits per row' },
        { key: 'max_concurrency', header: 'max concurrency' },
        { key: 'is_available', header: 'available' },
        { key: 'is_premium', header: 'premium' },
        { key: 'has_issues', header: 'has issues' },
        // account_type (changelog, the vendor's SDK); the docs samples give it as account.type.
        {
          key: 'account_type',
          header: 'account type',
          format: (_v, r) => crawlerAccountType(r) ?? 'none (no login needed)',
        },
        { key: 'input', header: 'inputs', format: names },
        { key: 'result', header: 'result columns', format: names },
      ],
    });
    ctx.out.info(`Parameters: sq crawlers params ${String(c.slug ?? id)}`);
  },
});
