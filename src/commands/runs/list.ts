import { defineVerb } from '../../cli/command.js';
import { resolveSquid } from '../../api/resolve.js';
import { UsageError } from '../../errors.js';
import { nonEmpty } from '../../validate/index.js';
import { shellWord } from '../../io/shell.js';
import { RUN_COLUMNS } from './_shared/columns.js';
import { RUNS_PATH } from '../../api/runs.js';
import { pagingFlags, pagingOptions, printList } from '../../cli/paging.js';
import { MAX_RECENT, MAX_SQUID_PAGES, MAX_SQUID_READS, recentRuns } from '../_shared/recent.js';

const DEFAULT_LIMIT = 20;

export default defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: "List runs newest first: a squid's, or the most recent across squids",
  description:
    'List the runs of a squid, newest first. Without --limit, --page or --all, shows the 20 most recent. Without --squid, ' +
    `shows the most recent runs across squids (at most ${MAX_RECENT}; --page and --all need --squid), each with a squid_name ` +
    `field added: the API lists runs per squid only, so sq reads the squid list (at most ${MAX_SQUID_PAGES} pages of 100) and ` +
    `the runs of the squids with the newest last_run_at (at most ${MAX_SQUID_READS}), stopping once no other squid can hold a newer run.`,
  options: [
    {
      flags: '--squid <squid>',
      description: 'squid id, id prefix or exact name',
      defaultText: 'every squid',
      complete: 'squid',
    },
    ...pagingOptions(DEFAULT_LIMIT),
  ],
  examples: ['sq runs list', 'sq runs list --squid "Paris restaurants"', 'sq runs list --squid 3f2a --all --json'],
  async run(ctx, _args, opts) {
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    if (opts.squid === undefined) {
      for (const f of ['page', 'all'] as const)
        if (opts[f] !== undefined)
          throw new UsageError(`--${f} needs --squid (across squids, runs list shows the --limit most recent runs)`);
      const limit = paging.request.maxItems ?? DEFAULT_LIMIT;
      if (limit > MAX_RECENT)
        throw new UsageError(
          `--limit must be at most ${MAX_RECENT} without --squid (got ${limit}); pass --squid for more`,
        );
      const http = await ctx.http();
      const recent = await recentRuns(http, limit);
      await ctx.out.list(recent.runs, {
        columns: [RUN_COLUMNS[0], { key: 'squid_name', header: 'SQUID' }, ...RUN_COLUMNS.slice(1)],
        empty: 'No runs. Start one: sq runs start --squid SQUID (squids: sq squids list)',
      });
      if (recent.partial)
        ctx.out.warn(
          `${recent.partial}: newer runs of other squids may be missing; pass --squid to list one squid's runs`,
        );
      return;
    }
    const ref = nonEmpty('--squid', opts.squid);
    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    const empty = `No runs of squid ${JSON.stringify(squid.name || squid.id)}. Start one: sq runs start --squid ${shellWord(ref)}`;
    await printList(ctx, http, RUNS_PATH, {
      paging,
      query: { squid: squid.id },
      noun: 'runs',
      columns: RUN_COLUMNS,
      empty,
    });
  },
});
