import { defineVerb } from '../../command.js';
import { getRunStats } from '../../api/runs.js';
import { nonEmpty } from '../../validate/index.js';

export default defineVerb({
  name: 'stats',
  summary: 'Show a run\'s progress: percent done, tasks done/left, results, ETA',
  description: 'Show a run\'s progress (GET /v1/runs/{run}/stats). percent_done is the API\'s "NN%" text; eta is "∞" while unknown.',
  args: ['<run>'],
  examples: ['sq runs stats <run>', 'sq runs stats <run> --fields percent_done,eta,total_results'],
  async run(ctx, [ref]) {
    const id = nonEmpty('<run>', ref);
    const http = await ctx.http();
    await ctx.out.record(await getRunStats(http, id), { title: `Run ${id} stats` });
  },
});
