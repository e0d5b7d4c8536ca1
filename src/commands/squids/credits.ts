import { defineVerb } from '../../cli/command.js';
import { resolveSquid } from '../../api/resolve.js';
import { squidCreditsPath } from '../../api/credits.js';
import { DEFAULT_LIMIT, pagingFlags, pagingOptions, printList } from '../../cli/paging.js';
import { credits } from '../_shared/breakdown.js';
import { shellWord } from '../../io/shell.js';

export default defineVerb({
  name: 'credits',
  summary: 'Show what each finished run of a squid cost, with its final status (GET /v1/squids/{id}/credits)',
  description:
    '<squid> is an id, a unique id prefix (4+ characters) or an exact name. One row per finished run, newest first; ' +
    "`sq runs credits <run>` breaks one down per function. --json keeps each row's breakdown.",
  args: ['<squid>'],
  options: pagingOptions(DEFAULT_LIMIT),
  examples: ['sq squids credits "Paris restaurants"', 'sq squids credits 3fa8 --all --json'],
  async run(ctx, [ref], opts) {
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    const http = await ctx.http();
    const { id, name } = await resolveSquid(http, ref);
    await printList(ctx, http, squidCreditsPath(id), {
      paging,
      noun: 'runs',
      empty: `No finished runs of squid ${JSON.stringify(name || id)}. Start one: sq runs start --squid ${shellWord(ref)}`,
      columns: [
        { key: 'run', kind: 'id' },
        { key: 'status', kind: 'status' },
        { key: 'started_at', kind: 'time' },
        { key: 'ended_at', kind: 'time' },
        { key: 'total_credits', header: 'CREDITS', format: credits },
        { key: 'total_results', header: 'RESULTS' },
      ],
    });
  },
});
