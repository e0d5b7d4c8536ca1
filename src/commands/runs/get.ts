import { defineVerb } from '../../command.js';
import { getRun } from '../../api/runs.js';
import { nonEmpty } from '../../validate/index.js';

export default defineVerb({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one run (status, results, credits, export state)',
  args: ['<run>'],
  examples: ['sq runs get 5e1d0c7f9a2b4c6d8e0f1a2b3c4d5e6f', 'sq runs get <run> --fields status,export_done'],
  async run(ctx, [ref]) {
    const id = nonEmpty('<run>', ref);
    const http = await ctx.http();
    await ctx.out.record(await getRun(http, id), { title: `Run ${id}` });
  },
});
