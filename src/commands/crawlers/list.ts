import { defineVerb } from '../../cli/command.js';
import { CRAWLERS_PATH, crawlerMatches } from '../../api/crawlers.js';
import { items } from '../../api/pages.js';
import type { Crawler } from '../../api/records.js';
import { DEFAULT_LIMIT, pagingFlags, pagingOptions, printList } from '../../cli/paging.js';
import type { Column } from '../../output/types.js';
import { UsageError } from '../../errors.js';
import { nonEmpty } from '../../validate/index.js';

const COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'name', maxWidth: 40 },
  { key: 'slug', whole: true },
  { key: 'credits_per_row', header: 'CREDITS/ROW' },
  { key: 'max_concurrency', header: 'MAX CONC' },
  { key: 'account.type', header: 'ACCOUNT' },
  { key: 'is_premium', header: 'PREMIUM' },
  { key: 'has_issues', header: 'ISSUES' },
];

export default defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the crawlers squids can be built on (GET /v1/crawlers)',
  description:
    'List crawlers with their id (what `sq squids create --crawler` takes; names and slugs work too), slug and credits per result row. ' +
    '--search TEXT keeps the crawlers whose name, slug or description contains TEXT, case-insensitively ("-" and "_" ' +
    'count as spaces, so "maps search" finds google-maps-search-export); the API has no search, so every page is read and ' +
    '--limit counts matches.',
  options: [
    { flags: '--search <text>', description: 'only crawlers whose name, slug or description contains this text' },
    ...pagingOptions(DEFAULT_LIMIT),
  ],
  examples: [
    'sq crawlers list',
    'sq crawlers list --search "google maps"',
    'sq crawlers list --all --format csv',
    'sq crawlers list --fields id,slug --all',
  ],
  async run(ctx, _args, opts) {
    const search = opts.search === undefined ? undefined : nonEmpty('--search', opts.search);
    if (search !== undefined && opts.page !== undefined)
      throw new UsageError('--search reads every page itself: use --limit or --all, not --page');
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    const http = await ctx.http();
    if (search === undefined) {
      await printList(ctx, http, CRAWLERS_PATH, {
        paging,
        noun: 'crawlers',
        columns: COLUMNS,
        empty: 'No crawlers: the service lists none for this account (check the base URL: sq auth status)',
      });
      return;
    }
    const max = paging.all ? Infinity : (paging.request.maxItems ?? DEFAULT_LIMIT);
    let found = 0;
    let more = false;
    async function* matches() {
      for await (const c of items<Crawler>(http, CRAWLERS_PATH, { pageSize: 100, onWarning: (w) => ctx.out.warn(w) })) {
        if (!c || typeof c !== 'object' || !crawlerMatches(c, search!)) continue;
        if (found >= max) {
          more = true;
          return;
        }
        found++;
        yield c;
      }
    }
    const none = `No crawler's name, slug or description contains "${search}". List them all: sq crawlers list`;
    await ctx.out.list(matches(), { columns: COLUMNS, empty: none });
    // A table says it itself (empty); piped, a search that found nothing still says so on stderr.
    if (found === 0 && !ctx.out.spec.terminal) ctx.out.info(none);
    else if (more)
      ctx.out.info(
        `Showing the first ${found === 1 ? 'match' : `${found} matches`} — use --all or --limit N to see more.`,
      );
  },
});
