import { defineVerb } from '../../cli/command.js';
import { getRunStats } from '../../api/runs.js';
import { idOf, PREFIX_NOTE, RUN_SQUID_OPTION } from '../_shared/ref.js';

export default defineVerb({
  name: 'stats',
  summary: "Show a run's progress: percent done, tasks done/left, results, ETA",
  description:
    'Show a run\'s progress (GET /v1/runs/{run}/stats). percent_done is the API\'s "NN%" text; eta is "∞" while unknown. ' +
    `<run> ${PREFIX_NOTE}.`,
  args: ['<run>'],
  options: [RUN_SQUID_OPTION],
  examples: ['sq runs stats <run>', 'sq runs stats <run> --fields percent_done,eta,total_results'],
  async run(ctx, [ref], opts) {
    const id = await idOf(ctx, 'run', ref, opts);
    const http = await ctx.http();
    await ctx.out.record(await getRunStats(http, id), { title: `Run ${id} stats` });
  },
});
