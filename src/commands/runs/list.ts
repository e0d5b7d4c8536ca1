import { defineVerb } from '../../command.js';
import { resolveSquid } from '../../api/resolve.js';
import { requireFlag } from '../../validate/index.js';
import { RUN_COLUMNS } from './columns.js';
import { pagingFlags, pagingOptions, printList } from '../../io/paging.js';

const DEFAULT_LIMIT = 20;

export default defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the runs of a squid, newest first',
  description: 'List the runs of a squid, newest first. Without --limit, --page or --all, shows the 20 most recent.',
  options: [{ flags: '--squid <squid>', description: 'squid id, id prefix or exact name (required)' }, ...pagingOptions(DEFAULT_LIMIT)],
  examples: ['sq runs list --squid "Paris restaurants"', 'sq runs list --squid 3f2a --all --json'],
  async run(ctx, _args, opts) {
    const ref = requireFlag(opts, '--squid', 'the squid whose runs to list');
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    await printList(ctx, http, '/v1/runs', { paging, query: { squid: squid.id }, noun: 'runs', columns: RUN_COLUMNS });
  },
});
