import { defineVerb } from '../../cli/command.js';
import { getRun } from '../../api/runs.js';
import { idOf, PREFIX_NOTE, RUN_SQUID_OPTION } from '../_shared/ref.js';
import { openWeb, WEB_OPTION } from '../../cli/browser.js';
import { resetNote } from './_shared/reset-note.js';

export default defineVerb({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one run (status, results, credits, export state)',
  description: `Show one run (GET /v1/runs/{run}). <run> ${PREFIX_NOTE}. --web opens the run's page in the dashboard instead.`,
  args: ['<run>'],
  options: [RUN_SQUID_OPTION, WEB_OPTION],
  examples: [
    'sq runs get 5e1d0c7f9a2b4c6d8e0f1a2b3c4d5e6f',
    'sq runs get 5e1d0c7f',
    'sq runs get <run> --fields status,export_done',
    'sq runs get <run> --web',
  ],
  async run(ctx, [ref], opts) {
    const id = await idOf(ctx, 'run', ref, opts);
    if (opts.web) return void (await openWeb(ctx, { kind: 'run', id }));
    const http = await ctx.http();
    const run = await getRun(http, id);
    await ctx.out.record(run, { title: `Run ${id}` });
    const line = ctx.out.spec.json || ctx.outputSettings().quiet ? null : await resetNote(http, id, run);
    if (line) ctx.out.info(line);
  },
});
