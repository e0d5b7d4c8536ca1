import { defineVerb } from '../../cli/command.js';
import { breakdownRows, getModuleCredits } from '../../api/credits.js';
import { isRecord } from '../../lib/guards.js';
import { intFlag } from '../../validate/index.js';
import { credits, printBreakdown } from '../_shared/breakdown.js';

export default defineVerb({
  name: 'modules',
  summary: 'Show credits spent per crawler and function over completed runs (GET /v1/credits/modules)',
  description:
    'One row per crawler ("module") and function: credits, attempts, and the crawler\'s results and runs; the total goes ' +
    'to stderr. --days N counts only runs completed in the last N days (default: all of them). --json prints the ' +
    "API's document whole.",
  options: [{ flags: '--days <n>', description: 'only runs completed in the last N days, 1-3650', defaultText: 'all' }],
  examples: ['sq credits modules', 'sq credits modules --days 7', 'sq credits modules --json --jq .total_credits'],
  async run(ctx, _args, opts) {
    const days = opts.days === undefined ? undefined : intFlag('--days', opts.days, 1, 3650);
    const http = await ctx.http();
    const doc = await getModuleCredits(http, days);
    const modules = Array.isArray(doc.data) ? doc.data.filter(isRecord) : [];
    const rows = modules.flatMap((m) =>
      breakdownRows(m).map((b) => ({
        module: m.module ?? null,
        name: m.name ?? null,
        slug: m.slug ?? null,
        total_results: m.total_results ?? null,
        total_runs: m.total_runs ?? null,
        ...b,
      })),
    );
    await printBreakdown(ctx, doc, rows, {
      title: 'Credits per crawler',
      columns: [
        { key: 'name', header: 'CRAWLER', maxWidth: 40 },
        { key: 'slug', whole: true },
        { key: 'function' },
        { key: 'credits', format: credits },
        { key: 'attempts' },
        { key: 'total_results', header: 'RESULTS' },
        { key: 'total_runs', header: 'RUNS' },
      ],
      total:
        `Total: ${credits(doc.total_credits)} credits over ${modules.length} crawler${modules.length === 1 ? '' : 's'}` +
        `${days === undefined ? '' : ` in the last ${days} day${days === 1 ? '' : 's'}`}.`,
    });
  },
});
