// Which records a list command reads: one API page (--page), the first N records (--limit, paged at 100
// internally), or everything (--all). Shared by runs and results listings.
import type { Ctx } from '../../context.js';
import type { Envelope, PageOptions } from '../../api/pages.js';
import { MAX_PAGE_SIZE } from '../../api/pages.js';
import { exclusive, limitFlag, pageFlag } from '../../validate/index.js';
import { count } from '../../io/progress.js';

export const WINDOW_OPTIONS = [
  { flags: '--page <n>', description: 'read this page only (1-based; page size = --limit, at most 100)' },
  { flags: '--limit <n>', description: 'how many records to show (read 100 per request)' },
  { flags: '--all', description: 'read every page, writing records as they arrive' },
];

export interface ListWindow {
  /** PageOptions for pages(). */
  paging: PageOptions;
  all: boolean;
  /** Shown in the "showing N of M" hint. */
  hint: boolean;
}

export function listWindow(opts: Record<string, unknown>, defaultLimit: number): ListWindow {
  exclusive(opts, [
    ['--all', '--limit'],
    ['--all', '--page'],
  ]);
  const page = pageFlag(opts.page);
  if (page !== undefined) {
    const limit = limitFlag(opts.limit, MAX_PAGE_SIZE) ?? Math.min(defaultLimit, MAX_PAGE_SIZE);
    return { paging: { startPage: page, pageSize: limit, maxItems: limit }, all: false, hint: false };
  }
  if (opts.all === true) return { paging: { pageSize: MAX_PAGE_SIZE }, all: true, hint: false };
  const limit = limitFlag(opts.limit) ?? defaultLimit;
  return { paging: { pageSize: Math.min(limit, MAX_PAGE_SIZE), maxItems: limit }, all: false, hint: true };
}

/** Records of the pages, counting what the API says exists, so the command can say "showing N of M". */
export async function* records<T>(source: AsyncIterable<Envelope<T>>, seen: { total: number | null; shown: number }): AsyncGenerator<T> {
  for await (const p of source) {
    if (seen.total === null && typeof p.total_results === 'number') seen.total = p.total_results;
    for (const r of p.data) {
      seen.shown++;
      yield r;
    }
  }
}

export function showingHint(ctx: Ctx, w: ListWindow, seen: { total: number | null; shown: number }): void {
  if (!w.hint || seen.total === null || seen.total <= seen.shown) return;
  ctx.out.info(`Showing ${count(seen.shown)} of ${count(seen.total)}: use --limit N or --all for more`);
}
