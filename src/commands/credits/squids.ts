import { defineVerb } from '../../cli/command.js';
import { CREDIT_SQUIDS_PATH } from '../../api/credits.js';
import { DEFAULT_LIMIT, pagingFlags, pagingOptions, printList } from '../../cli/paging.js';
import { credits } from '../_shared/breakdown.js';

export default defineVerb({
  name: 'squids',
  summary: 'Show credits spent per squid, deleted squids included for 30 days (GET /v1/credits/squids)',
  description:
    'One row per squid: credits, results and runs. A squid deleted in the last 30 days is still listed, with DELETED ' +
    'true and when; `sq squids credits <squid>` shows the runs of one squid.',
  options: pagingOptions(DEFAULT_LIMIT),
  examples: ['sq credits squids', "sq credits squids --all --json --jq '.[] | select(.is_deleted)'"],
  async run(ctx, _args, opts) {
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    const http = await ctx.http();
    await printList(ctx, http, CREDIT_SQUIDS_PATH, {
      paging,
      noun: 'squids',
      empty: 'No squids have spent credits in the last 30 days. Start a run: sq runs start --squid SQUID',
      columns: [
        { key: 'id' },
        { key: 'name', maxWidth: 40 },
        { key: 'crawler_name', header: 'CRAWLER', maxWidth: 30 },
        { key: 'total_credits', header: 'CREDITS', format: credits },
        { key: 'total_results', header: 'RESULTS' },
        { key: 'total_runs', header: 'RUNS' },
        { key: 'is_deleted', header: 'DELETED' },
        { key: 'deleted_at', kind: 'time' },
      ],
    });
  },
});
