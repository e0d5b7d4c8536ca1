import { defineVerb } from '../../cli/command.js';
import type { HttpClient } from '../../api/http.js';
import { resolveSquid } from '../../api/resolve.js';
import { getSquid } from '../../api/squids.js';
import { getCrawlerParams } from '../../api/crawlers.js';
import { spendEstimate } from '../../billing/spend.js';
import { fmtCredits, paidFunctionLines, summaryLines } from '../../billing/describe.js';
import { isRecord } from '../../lib/guards.js';
import { shellWord } from '../../io/shell.js';

export default defineVerb({
  name: 'estimate',
  summary:
    'Show what a run of a squid would cost before it starts: credits per service, time, balance after, auto-reset charges',
  description:
    '<squid> is an id, a unique id prefix (4+ characters) or an exact name; it must have at least one task. Asks the API ' +
    '(POST /v1/squid/estimate) and reads the balance and the Auto Billing Reset settings beside it. Nothing is started ' +
    'or charged.\n\n' +
    'The table has one row per service: "base" (the crawler\'s per-row charge) and every paid function the squid has on, ' +
    'with its results and credits. On stderr: the total, the time range, the balance now and after the run, how many ' +
    'Auto Billing Resets (each a charge on the card on file) the run would set off, and one line per paid function ' +
    "with the command that turns it off. The API's total leaves out per-row result filters and e-mail verification.\n\n" +
    "A reset fires at the platform's periodic check, so the balance after is a range when a reset is in play (said as " +
    'such), and a run the balance and the resets left cannot cover is said to pause, after how many tasks, and when it ' +
    'could go on. The charge is named: the plan renewed and its allowance, the price (or the price id alone, with ' +
    '`sq billing auto-reset --web`), the renewal date before and after.\n\n' +
    "--json prints the API's object plus `balance_after` and `balance_after_max` (the low and high end of the credits " +
    'left after the run; equal when exact), `resets` and `resets_max`, `renewed_credits` (what each reset renews; 0 without ' +
    "one), `covered` (true, false, or null when it depends on the check's timing or is unknown), `pauses_after_tasks` and " +
    '`pauses_after_tasks_max`, `resumes_at`, `charge` ({plan, allowance, price, price_id, renews_before, renews_after}, ' +
    "null without a reset) and `auto_reset_charges` (the most resets; null when the API's settings leave it unknown, with " +
    '`auto_reset_unknown` naming the fields it left out: a missing field is never read as off or 0), and `auto_reset_price` ' +
    'when the balance gives a numeric `price`.',
  args: ['<squid>'],
  examples: [
    'sq squids estimate "Berlin cafés"',
    'sq squids estimate 3fa8 --json',
    'sq squids estimate "Berlin cafés" --json --jq .total_credits',
  ],
  async run(ctx, [ref]) {
    const http = await ctx.http();
    const { id } = await resolveSquid(http, ref);
    const json = ctx.out.spec.json;
    // The human view says which paid functions are on without having been asked for: the crawler's defaults.
    const [c, defaults] = await Promise.all([
      spendEstimate(http, id),
      json ? Promise.resolve(undefined) : functionDefaults(http, id),
    ]);
    if (json) {
      await ctx.out.record(c.estimate, { title: `Estimate for squid ${id}` });
      return;
    }
    const rows = c.estimate.services.map((s) => ({ service: s.name, results: s.results, credits: s.credits }));
    await ctx.out.list(rows, {
      columns: [{ key: 'service' }, { key: 'results' }, { key: 'credits', format: (v) => fmtCredits(Number(v)) }],
    });
    for (const line of [...summaryLines(c), ...paidFunctionLines(c, shellWord(ref), defaults)]) ctx.out.info(line);
  },
});

/** Paid functions the squid's crawler turns on by default; undefined when that cannot be read (the view goes on). */
async function functionDefaults(http: HttpClient, squidId: string): Promise<Set<string> | undefined> {
  try {
    const squid = await getSquid(http, squidId);
    if (!isRecord(squid) || typeof squid.crawler !== 'string') return undefined;
    const params = await getCrawlerParams(http, squid.crawler);
    const fns =
      isRecord(params) && isRecord(params.squid) && isRecord(params.squid.functions) ? params.squid.functions : {};
    return new Set(
      Object.entries(fns)
        .filter(([, f]) => isRecord(f) && f.default === true)
        .map(([name]) => name),
    );
  } catch {
    return undefined;
  }
}
