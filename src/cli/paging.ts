// The paging flags every list verb shares (--limit, --page, --all), the records they select and the one
// "showing N of M" hint. One semantics everywhere, so a flag learnt on one list works the same on the next:
// --limit counts records (read 100 per request), --page reads exactly that API page with page size = --limit,
// --all reads every page as it arrives (--jq/--template run on each page, unless --slurp). Validation happens
// before any request.
import { defineOptions, type OptionsOf } from './command.js';
import type { Ctx } from './context.js';
import type { HttpClient } from '../api/http.js';
import { pages, MAX_PAGE_SIZE, type PageOptions } from '../api/pages.js';
import type { Page } from '../api/records.js';
import type { Column, RenderOptions } from '../output/types.js';
import { UsageError } from '../errors.js';
import { exclusive, limitFlag, pageFlag } from '../validate/index.js';
import { count } from '../io/count.js';

/** Like gh: a screenful by default, the same on a terminal and in a pipe so scripts see what users see. */
export const DEFAULT_LIMIT = 30;

/** The options of a list verb; defaultLimit is that verb's own screenful. */
export function pagingOptions(defaultLimit: number) {
  return defineOptions([
    {
      flags: '--limit <n>',
      description:
        'how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)',
      defaultText: String(defaultLimit),
    },
    { flags: '--page <n>', description: 'read this page only (1-1000000; page size = --limit)' },
    {
      flags: '--all',
      description: 'read every page, writing records as they arrive (--jq/--template run on each page)',
    },
    {
      flags: '--slurp',
      description:
        'with --all and --jq/--template: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)',
    },
  ]);
}

export interface Paging {
  /** What to hand to pages(). */
  request: Pick<PageOptions, 'startPage' | 'pageSize' | 'maxItems' | 'onePage'>;
  /** The --page given, if any. */
  page: number | undefined;
  all: boolean;
  /** --slurp: --jq/--template see the whole list at once rather than each page. */
  slurp: boolean;
}

export function pagingFlags(opts: OptionsOf<ReturnType<typeof pagingOptions>>, defaultLimit: number): Paging {
  exclusive(opts, [
    ['--all', '--limit'],
    ['--all', '--page'],
  ]);
  const slurp = opts.slurp === true;
  if (slurp && opts.all !== true)
    throw new UsageError('--slurp goes with --all: without it the filter already sees the whole list');
  const page = pageFlag(opts.page);
  if (page !== undefined) {
    // A page is what the API calls a page, so its size cannot pass the API's maximum.
    const size = limitFlag(opts.limit, MAX_PAGE_SIZE) ?? Math.min(defaultLimit, MAX_PAGE_SIZE);
    // Exactly that page, as the API answers it: a server serving fewer rows a page is not topped up from the next.
    return { request: { startPage: page, pageSize: size, maxItems: size, onePage: true }, page, all: false, slurp };
  }
  if (opts.all === true) return { request: { pageSize: MAX_PAGE_SIZE }, page: undefined, all: true, slurp };
  const limit = limitFlag(opts.limit) ?? defaultLimit;
  return { request: { pageSize: Math.min(limit, MAX_PAGE_SIZE), maxItems: limit }, page: undefined, all: false, slurp };
}

/**
 * How --jq/--template meet --all: on each page as one document (gh's --paginate --jq), so memory stays flat for any
 * size; with --slurp, once on the whole list. --slurp without a filter is exit 2. Call before the first request.
 */
export function pageFilter(ctx: Ctx, paging: Paging, seen: Tally): Pick<RenderOptions, 'pageOf'> {
  const s = ctx.outputSettings();
  if (paging.slurp && s.jq === null && s.template === null)
    throw new UsageError('--slurp goes with --jq or --template: it decides what one run of the filter sees');
  return paging.all && !paging.slurp ? { pageOf: () => seen.pages } : {};
}

/** What the API says exists and how many records went out, for the hint. */
export interface Tally {
  total: number | null;
  shown: number;
  /** Pages read so far (the one being handed out included). */
  pages: number;
  /** Records of that page still to be handed out after the current one (in memory: RenderOptions.buffered). */
  left?: number;
}

export function tally(): Tally {
  return { total: null, shown: 0, pages: 0 };
}

/** Records of the pages as they arrive, counting them into `seen`. */
export async function* records<T>(source: AsyncIterable<Page<T>>, seen: Tally): AsyncGenerator<T> {
  for await (const p of source) {
    seen.pages++;
    if (seen.total === null && typeof p.total_results === 'number') seen.total = p.total_results;
    for (let i = 0; i < p.data.length; i++) {
      seen.shown++;
      seen.left = p.data.length - 1 - i;
      yield p.data[i];
    }
  }
}

/** On stderr: which records were shown when more exist, or that --page went past the last page. */
export function pagingHint(ctx: Ctx, paging: Paging, seen: Tally, noun?: string): void {
  const total = seen.total;
  // The reader left early (`sq … | head`): what was shown is what it took, not a limit worth a hint.
  if (total === null || paging.all || ctx.out.closed) return;
  const what = noun ? ` ${noun}` : '';
  const offset = paging.page === undefined ? 0 : (paging.page - 1) * (paging.request.pageSize ?? MAX_PAGE_SIZE);
  if (seen.shown === 0 && offset > 0 && total > 0) {
    ctx.out.info(`Page ${paging.page} is past the end: there are ${count(total)}${noun ? what : ' records'}.`);
    return;
  }
  if (seen.shown === 0 || offset + seen.shown >= total) return;
  const range = offset === 0 ? count(seen.shown) : `${count(offset + 1)}-${count(offset + seen.shown)}`;
  ctx.out.info(`Showing ${range} of ${count(total)}${what} — use --all or --limit N to see more.`);
}

interface ListOptions {
  paging: Paging;
  query?: Record<string, string | number | boolean | undefined>;
  /** Plural noun for the hint: "squids". */
  noun: string;
  columns: Column[];
  /** Reshape each record before output (tolerant parsing of odd shapes). */
  map?: (r: Record<string, unknown>) => Record<string, unknown>;
  /** What a terminal shows on stderr when there is none: the noun and the next step (RenderOptions.empty). */
  empty: string;
}

/** The whole of a plain list verb: read the selected pages of `path`, print them, then the hint. */
export async function printList(ctx: Ctx, http: HttpClient, path: string, o: ListOptions): Promise<number> {
  const seen = tally();
  const filter = pageFilter(ctx, o.paging, seen);
  const source = pages<Record<string, unknown>>(http, path, {
    ...o.paging.request,
    query: o.query,
    onWarning: (w) => ctx.out.warn(w),
    onPage: ctx.onPage,
  });
  // Past the first page, "none" is said by pagingHint (the page is past the end), not as an empty account.
  const empty = o.paging.page === undefined || o.paging.page === 1 ? o.empty : undefined;
  const shown = await ctx.out.list(records(objects(source, o.map), seen), {
    columns: o.columns,
    empty,
    buffered: () => (seen.left ?? 0) > 0,
    ...filter,
  });
  pagingHint(ctx, o.paging, seen, o.noun);
  return shown;
}

async function* objects(
  source: AsyncIterable<Page<Record<string, unknown>>>,
  map: ListOptions['map'],
): AsyncGenerator<Page<Record<string, unknown>>> {
  for await (const p of source) {
    const data = p.data.filter((r) => r && typeof r === 'object');
    yield { ...p, data: map ? data.map(map) : data };
  }
}
