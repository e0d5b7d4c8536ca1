import { defineVerb } from '../../cli/command.js';
import { resolveCrawler } from '../../api/resolve.js';
import { createSquid } from '../../api/squids.js';
import { nameFlag, required } from '../../validate/index.js';

export default defineVerb({
  name: 'create',
  writes: true,
  summary: 'Create a squid on a crawler (POST /v1/squids)',
  description:
    '--crawler takes an id, unique id prefix, exact name or slug. Without --name the platform names it "<Crawler> (N)". ' +
    'Set its parameters next with `sq squids update <squid> --param k=v`, then add tasks.',
  options: [
    { flags: '--crawler <crawler>', description: 'crawler id, prefix, name or slug (required)', complete: 'crawler' },
    { flags: '--name <name>', description: 'squid name (at most 255 characters)' },
  ],
  examples: ['sq squids create --crawler google-maps-search-export --name "Paris restaurants"', 'sq squids create --crawler google-maps-search-export --json --fields id'],
  async run(ctx, _args, opts) {
    const crawlerRef = required('--crawler', opts.crawler, 'see `sq crawlers list`');
    const name = opts.name === undefined ? undefined : nameFlag('--name', opts.name);
    const http = await ctx.http();
    const crawler = await resolveCrawler(http, crawlerRef);
    const body: Record<string, unknown> = { crawler: crawler.id };
    if (name !== undefined) body.name = name;
    const s = await createSquid(http, body);
    await ctx.out.record(s, {
      title: 'Squid created',
      columns: [{ key: 'id' }, { key: 'name' }, { key: 'crawler' }, { key: 'concurrency' }, { key: 'is_active', header: 'active' }, { key: 'params', format: (v) => JSON.stringify(v ?? {}) }],
    });
    // A hint for a person at a terminal table; a script reading --json, CSV or TSV gets a quiet stderr.
    if (ctx.out.spec.terminal) ctx.out.info(`Next: sq tasks add --squid ${String(s?.id ?? '<squid>')} <url>…`);
  },
});
