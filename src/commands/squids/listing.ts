// The paging flags every list verb of sq shares (--page, --limit, --all) and the "showing N of M" hint.
// Shared by crawlers/squids/tasks/accounts lists; validation happens before any request.
import type { OptionSpec } from '../../command.js';
import type { Ctx } from '../../context.js';
import type { HttpClient } from '../../api/http.js';
import { pages, MAX_PAGE_SIZE, type Envelope } from '../../api/pages.js';
import type { Column } from '../../output/types.js';
import { exclusive, limitFlag, pageFlag } from '../../validate/index.js';

/** Like gh: a screenful by default, the same on a terminal and in a pipe so scripts see what users see. */
export const DEFAULT_LIMIT = 30;

export const PAGING_OPTIONS: OptionSpec[] = [
  { flags: '--limit <n>', description: 'how many records to show (fetched up to 100 per request)', defaultText: String(DEFAULT_LIMIT) },
  { flags: '--page <n>', description: 'start at page N, where a page holds --limit records (100 with --all)', defaultText: '1' },
  { flags: '--all', description: 'every record, printed page by page as it arrives' },
];

export interface Paging {
  startPage: number;
  pageSize: number;
  maxItems: number | undefined;
  all: boolean;
}

export function pagingFlags(opts: Record<string, unknown>): Paging {
  exclusive(opts, [['--all', '--limit']]);
  const page = pageFlag(opts.page) ?? 1;
  const limit = limitFlag(opts.limit);
  if (opts.all === true) return { startPage: page, pageSize: MAX_PAGE_SIZE, maxItems: undefined, all: true };
  const n = limit ?? DEFAULT_LIMIT;
  return { startPage: page, pageSize: Math.min(n, MAX_PAGE_SIZE), maxItems: n, all: false };
}

export interface ListOptions {
  paging: Paging;
  query?: Record<string, string | number | boolean | undefined>;
  /** Plural noun for the hint: "squids". */
  noun: string;
  columns: Column[];
  /** Reshape each record before output (tolerant parsing of odd shapes). */
  map?: (r: Record<string, unknown>) => Record<string, unknown>;
}

export async function printList(ctx: Ctx, http: HttpClient, path: string, o: ListOptions): Promise<number> {
  let first: Envelope<unknown> | undefined;
  const { paging } = o;
  async function* records() {
    const it = pages<Record<string, unknown>>(http, path, {
      query: o.query,
      pageSize: paging.pageSize,
      startPage: paging.startPage,
      maxItems: paging.maxItems,
      onWarning: (w) => ctx.out.warn(w),
      onPage: (e) => {
        first ??= e;
      },
    });
    for await (const p of it) {
      for (const r of p.data) {
        if (r && typeof r === 'object') yield o.map ? o.map(r) : r;
      }
    }
  }
  const shown = await ctx.out.list(records(), { columns: o.columns });
  hint(ctx, first, shown, o);
  return shown;
}

function hint(ctx: Ctx, first: Envelope<unknown> | undefined, shown: number, o: ListOptions) {
  const total = typeof first?.total_results === 'number' ? first.total_results : null;
  if (total === null || o.paging.all) return;
  const offset = (o.paging.startPage - 1) * o.paging.pageSize;
  if (shown === 0 && offset > 0 && total > 0) {
    ctx.out.info(`Page ${o.paging.startPage} is past the end: there are ${fmt(total)} ${o.noun}.`);
    return;
  }
  if (offset + shown >= total || shown === 0) return;
  const range = offset === 0 ? fmt(shown) : `${fmt(offset + 1)}-${fmt(offset + shown)}`;
  ctx.out.info(`Showing ${range} of ${fmt(total)} ${o.noun} — use --all or --limit N to see more.`);
}

export function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

/** Compact JSON for table cells (params objects); keeps TSV lines single-line. */
export function compact(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v) ?? '';
}
