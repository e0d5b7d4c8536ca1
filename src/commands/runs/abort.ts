import { defineVerb } from '../../cli/command.js';
import { abortRun } from '../../api/runs.js';
import { confirmOrCancel } from '../../cli/confirm.js';
import { idOf, PREFIX_NOTE, RUN_SQUID_OPTION } from '../_shared/ref.js';
import { RUN_COLUMNS } from './_shared/columns.js';

export default defineVerb({
  name: 'abort',
  writes: true,
  aliases: ['stop'],
  summary: 'Stop a running run (results collected so far are still exported and billed)',
  description:
    'Stop a run (POST /v1/runs/{run}/abort). The run goes to "uploading" and then "aborted"; the results collected so far ' +
    'are still exported, and billed. Asks for confirmation on a terminal; pass --yes in scripts. ' +
    `<run> ${PREFIX_NOTE}; nothing is sent for an ambiguous prefix.`,
  args: ['<run>'],
  options: [RUN_SQUID_OPTION],
  examples: ['sq runs abort <run>', 'sq runs abort <run> --yes --json'],
  async run(ctx, [ref], opts) {
    const id = await idOf(ctx, 'run', ref, opts);
    await confirmOrCancel(
      ctx,
      `Abort run ${id}? Results collected so far are still exported and billed.`,
      'not aborted',
    );
    const http = await ctx.http();
    const run = await abortRun(http, id);
    await ctx.out.record(run, { title: `Run ${id}`, columns: RUN_COLUMNS });
    ctx.out.success(`Run ${id} aborted; results collected so far are being exported`);
  },
});
