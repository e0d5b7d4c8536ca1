import { defineVerb } from '../../cli/command.js';
import { breakdownRows, getRunCredits } from '../../api/credits.js';
import { credits, printBreakdown } from '../_shared/breakdown.js';
import { idOf, PREFIX_NOTE, RUN_SQUID_OPTION } from '../_shared/ref.js';
import { getRun } from '../../api/runs.js';
import { resetNote } from './_shared/reset-note.js';

export default defineVerb({
  name: 'credits',
  summary:
    'Show what a run cost: total credits, the breakdown per function, and the rates (GET /v1/runs/{run}/credits)',
  description:
    'The table has one row per function ("base" is the per-row charge of the crawler; enrichments such as contact ' +
    'details follow) with its credits, attempts and rate (credits per row); the total goes to stderr. --json prints the ' +
    `API's document whole: total_credits, total_results, breakdown, rates, filter_breakdown. <run> ${PREFIX_NOTE}.`,
  args: ['<run>'],
  options: [RUN_SQUID_OPTION],
  examples: [
    'sq runs credits <run>',
    'sq runs credits 5e1d0c7f --json',
    'sq runs credits <run> --json --jq .total_credits',
  ],
  async run(ctx, [ref], opts) {
    const id = await idOf(ctx, 'run', ref, opts);
    const http = await ctx.http();
    const doc = await getRunCredits(http, id);
    await printBreakdown(ctx, doc, breakdownRows(doc, doc.rates), {
      title: `Run ${id} credits`,
      columns: [
        { key: 'function' },
        { key: 'credits', format: credits },
        { key: 'attempts' },
        { key: 'rate', header: 'RATE/ROW', format: credits },
      ],
      total: `Total: ${credits(doc.total_credits)} credits for ${credits(doc.total_results)} results.`,
    });
    const line = ctx.out.spec.json || ctx.outputSettings().quiet ? null : await resetNote(http, id, getRun(http, id));
    if (line) ctx.out.info(line);
  },
});
