import { defineVerb } from '../../cli/command.js';
import { isFullHash, resolveCrawler } from '../../api/resolve.js';
import { attributeRows, getCrawlerAttributes } from '../../api/crawlers.js';

export default defineVerb({
  name: 'attributes',
  aliases: ['attrs'],
  summary: 'List the result columns a crawler produces (GET /v1/crawlers/{id}/attributes, public)',
  description:
    'Columns with is_main=false only appear when their function is enabled on the squid. The endpoint is public: ' +
    'with a full crawler id no API key is needed.',
  args: ['<crawler>'],
  examples: [
    'sq crawlers attributes google-maps-search-export',
    'sq crawlers attributes google-maps-search-export --fields name,type',
  ],
  async run(ctx, [ref]) {
    const anonymous = isFullHash(ref.trim());
    const http = await ctx.http({ auth: !anonymous });
    const { id } = await resolveCrawler(http, ref);
    const body = await getCrawlerAttributes(http, id);
    await ctx.out.list(attributeRows(body), {
      columns: [
        { key: 'name' },
        { key: 'type' },
        { key: 'is_main', header: 'MAIN' },
        { key: 'function' },
        { key: 'example', maxWidth: 40 },
        { key: 'description', maxWidth: 60 },
      ],
    });
  },
});
