import { defineVerb } from '../../cli/command.js';
import { resolveAccount, resolveSquid } from '../../api/resolve.js';
import { getSquid, parseParams, updateSquid } from '../../api/squids.js';
import { getCrawlerParams, squidParamNames, unknownSquidParams } from '../../api/crawlers.js';
import { SQUID_DETAIL_COLUMNS } from './_shared/columns.js';
import { UsageError } from '../../errors.js';
import { intFlag, nameFlag, nonEmpty } from '../../validate/index.js';

export default defineVerb({
  name: 'update',
  writes: true,
  summary: 'Change a squid\'s name, concurrency or params (POST /v1/squids/{id}), then show it',
  description:
    'Only the given fields are sent. --param k=v is repeatable; a value stays text unless it is valid JSON ' +
    '(zip=01234 stays "01234", max_results=5 is a number, flag=true a boolean); functions.<name>=true|false ' +
    'switches a paid function. Each key is checked against the crawler\'s parameters first (GET requests only): a key ' +
    'the crawler does not declare is exit 2, with the closest names and the allowed ones. --account links platform ' +
    'accounts (id, id prefix or username; repeatable): the squid\'s runs use these, and the list replaces the linked ' +
    'ones; --no-accounts unlinks them all (runs then use any account of the crawler\'s type). The API answers with the ' +
    'touched fields only, so sq reads the squid back and shows all of it.',
  args: ['<squid>'],
  options: [
    { flags: '--name <name>', description: 'new name (at most 255 characters)' },
    { flags: '--concurrency <n>', description: 'parallel workers, 1-20 (also capped by the crawler and plan)' },
    { flags: '--param <key=value>', description: 'set a squid parameter (repeatable)', repeatable: true },
    { flags: '--account <account>', description: 'link this account, replacing the linked ones (repeatable)', repeatable: true , complete: 'account' },
    { flags: '--no-accounts', description: 'unlink every account' },
  ],
  examples: [
    'sq squids update "Paris restaurants" --concurrency 4',
    'sq squids update "Paris restaurants" --param max_results=200 --param ratings=4.0+',
    'sq squids update 3fa8 --param functions.extract_emails_from_website=true --dry-run',
    'sq squids update "Tech influencers" --account demo_scraper --account 7c2d9e4f',
  ],
  async run(ctx, [ref], opts) {
    const body: Record<string, unknown> = {};
    if (opts.name !== undefined) body.name = nameFlag('--name', opts.name);
    if (opts.concurrency !== undefined) body.concurrency = intFlag('--concurrency', opts.concurrency, 1, 20);
    const pairs = opts.param ?? [];
    if (pairs.length) body.params = parseParams(pairs);
    const accounts = (opts.account ?? []).map((a) => nonEmpty('--account', a).trim());
    if (accounts.length && opts.accounts === false) throw new UsageError('--account and --no-accounts cannot be used together');
    if (Object.keys(body).length === 0 && !accounts.length && opts.accounts !== false) {
      throw new UsageError('nothing to update: pass --name, --concurrency, --param key=value, --account or --no-accounts');
    }

    const http = await ctx.http();
    const { id } = await resolveSquid(http, ref);
    if (opts.accounts === false) body.accounts = [];
    // Every reference is looked up before the write: an unknown or ambiguous one sends nothing.
    else if (accounts.length) body.accounts = [...new Set(await Promise.all(accounts.map(async (a) => (await resolveAccount(http, a)).id)))];
    if (body.params) await refuseUnknownParams(http, id, body.params as Record<string, unknown>);
    await updateSquid(http, id, body);
    const s = await getSquid(http, id);
    ctx.out.success(`Updated ${Object.keys(body).join(', ')} of squid ${String(s?.name ?? id)}`);
    await ctx.out.record(s, { title: `Squid ${String(s?.name ?? id)}`, columns: SQUID_DETAIL_COLUMNS });
  },
});

/** A typo in a --param key would be stored silently: checked against what the squid's crawler declares. */
async function refuseUnknownParams(http: Parameters<typeof getSquid>[0], id: string, params: Record<string, unknown>): Promise<void> {
  const squid = await getSquid<Record<string, unknown>>(http, id);
  const crawler = typeof squid?.crawler === 'string' ? squid.crawler : '';
  if (!crawler) return;
  const declared = squidParamNames(await getCrawlerParams(http, crawler));
  if (!declared) return;
  const name = typeof squid.crawler_name === 'string' ? squid.crawler_name : crawler;
  const [first, ...rest] = unknownSquidParams(params, declared, (k) => `--param ${k}`, JSON.stringify(name));
  if (first) throw new UsageError(`${first}; nothing was sent`, { details: rest.map((p) => `  also: ${p}`) });
}
