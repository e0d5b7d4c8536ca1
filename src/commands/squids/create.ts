import { defineVerb } from '../../cli/command.js';
import { resolveCrawler } from '../../api/resolve.js';
import { createSquid, updateSquid } from '../../api/squids.js';
import { nameFlag, nonEmpty, required } from '../../validate/index.js';
import { pickAccount } from '../../run/pick-account.js';

export default defineVerb({
  name: 'create',
  writes: true,
  summary: 'Create a squid on a crawler (POST /v1/squids)',
  description:
    '--crawler takes an id, unique id prefix, exact name or slug. Without --name the platform names it "<Crawler> (N)". ' +
    'Set its parameters next with `sq squids update <squid> --param k=v`, then add tasks. On a crawler that needs a ' +
    'platform account (sq crawlers get shows its account type), the squid is linked to --account, else to the one ' +
    'healthy, unlocked account of that type; with several, a terminal asks and a script passes --account (exit 2).',
  options: [
    { flags: '--crawler <crawler>', description: 'crawler id, prefix, name or slug (required)', complete: 'crawler' },
    { flags: '--name <name>', description: 'squid name (at most 255 characters)' },
    {
      flags: '--account <account>',
      description: 'platform account for an account crawler (id, prefix or username)',
      complete: 'account',
    },
  ],
  examples: [
    'sq squids create --crawler google-maps-search-export --name "Paris restaurants"',
    'sq squids create --crawler google-maps-search-export --json --fields id',
  ],
  async run(ctx, _args, opts) {
    const crawlerRef = required('--crawler', opts.crawler, 'see `sq crawlers list`');
    const name = opts.name === undefined ? undefined : nameFlag('--name', opts.name);
    const http = await ctx.http();
    const crawler = await resolveCrawler(http, crawlerRef);
    const body: Record<string, unknown> = { crawler: crawler.id };
    if (name !== undefined) body.name = name;
    const given = opts.account === undefined ? undefined : nonEmpty('--account', opts.account);
    // A dry run shows the create; the account (a lookup, and a question when several fit) is picked for real only.
    const account =
      ctx.globals.dryRun && given === undefined
        ? null
        : await pickAccount(ctx, http, crawler.id, crawler.record, given);
    const s = await createSquid(http, body);
    if (account && typeof s?.id === 'string') {
      await updateSquid(http, s.id, { accounts: [account] });
      s.account = [account];
    }
    await ctx.out.record(s, {
      title: 'Squid created',
      columns: [
        { key: 'id' },
        { key: 'name' },
        { key: 'crawler' },
        { key: 'concurrency' },
        { key: 'is_active', header: 'active' },
        { key: 'params', format: (v) => JSON.stringify(v ?? {}) },
      ],
    });
    // A hint for a person at a terminal table; a script reading --json, CSV or TSV gets a quiet stderr.
    if (ctx.out.spec.terminal) ctx.out.info(`Next: sq tasks add --squid ${String(s?.id ?? '<squid>')} <url>…`);
  },
});
