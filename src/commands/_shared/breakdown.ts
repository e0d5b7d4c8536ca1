// A credit breakdown (`sq runs credits`, `sq credits modules`): JSON formats print the API's document whole (with
// --fields, --jq and --template as for any record); tables and CSV/TSV print one row per function, and the total
// goes to stderr with the hints.
import type { Ctx } from '../../cli/context.js';
import type { Column } from '../../output/index.js';
import type { Rec } from '../../lib/guards.js';
import { amount } from '../../io/count.js';

export async function printBreakdown(
  ctx: Ctx,
  doc: Rec,
  rows: Rec[],
  o: { title: string; columns: Column[]; total: string },
): Promise<void> {
  // --jq and --template imply --json.
  if (ctx.out.spec.json) {
    await ctx.out.record(doc, { title: o.title });
    return;
  }
  await ctx.out.list(rows, { columns: o.columns });
  ctx.out.info(o.total);
}

/** "1,234.5": credits as the API counts them (fractional rates exist), without float noise. */
export function credits(v: unknown): string {
  const n = Number(v);
  return v === null || v === undefined || !Number.isFinite(n) ? '' : amount(n);
}
