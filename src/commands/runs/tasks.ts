import { defineVerb } from '../../cli/command.js';
import { runTaskPages } from '../../api/runs.js';
import { idOf, PREFIX_NOTE, RUN_SQUID_OPTION } from '../_shared/ref.js';
import { RUN_TASK_COLUMNS } from './_shared/columns.js';
import { pageFilter, pagingFlags, pagingHint, pagingOptions, records, tally } from '../../cli/paging.js';

const DEFAULT_LIMIT = 100;

export default defineVerb({
  name: 'tasks',
  summary: 'List the tasks of a run with their status and result counts',
  description:
    'List the tasks of a run (GET /v1/runs/{run}/tasks; falls back to GET /v1/runtasks?run= when the first answers 404). ' +
    `Without --limit, --page or --all, shows the first 100. <run> ${PREFIX_NOTE}.`,
  args: ['<run>'],
  options: [RUN_SQUID_OPTION, ...pagingOptions(DEFAULT_LIMIT)],
  examples: ['sq runs tasks <run>', 'sq runs tasks <run> --all --format csv'],
  async run(ctx, [ref], opts) {
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    const seen = tally();
    const filter = pageFilter(ctx, paging, seen);
    const id = await idOf(ctx, 'run', ref, opts);
    const http = await ctx.http();
    const pages = runTaskPages(http, id, { ...paging.request, onWarning: (m) => ctx.out.warn(m) });
    const empty =
      paging.page === undefined || paging.page === 1
        ? `No tasks in run ${ref.trim()}: the run has not started any (its squid's tasks: sq tasks list --squid SQUID)`
        : undefined;
    await ctx.out.list(records(pages, seen), { columns: RUN_TASK_COLUMNS, empty, ...filter });
    pagingHint(ctx, paging, seen, 'tasks');
  },
});
