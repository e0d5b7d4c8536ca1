// Lazy iteration over the pagination envelope, whose counters disagree with the data in places (api-reference §15).
// A listing never ends early in silence: an answer that is not a page, a short page while the envelope says more
// follow, or a full page whose signals disagree past where reading may go, is a BadPageError. Bad counters never loop.
import { RetryBudget, MAX_RETRIES, type HttpClient, type HttpResponse, type RequestOptions } from './http.js';
import { InterruptedError, SqError } from '../errors.js';
import { BadPageError } from './http-errors.js';
import { errorMessage } from './messages.js';
import { finiteNumber, type Rec } from '../lib/guards.js';
import type { Page } from './records.js';

export interface PageOptions {
  query?: RequestOptions['query'];
  /** Extra request headers (sq api -H). */
  headers?: Record<string, string>;
  /** Records per request, 1-100. */
  pageSize?: number;
  /** First page to read (1-based). */
  startPage?: number;
  /** Records of the pages before startPage that the caller already has (a resumed export), counted as read. */
  earlier?: number;
  /** Stop after this many records in total (undefined = all pages). */
  maxItems?: number;
  /** Called once with the free-plan warning a page carries, or when a whole listing ends below its total_results. */
  onWarning?: (warning: string) => void;
  /** Called with every envelope as it arrives (for "showing N of M" hints). */
  onPage?: (page: Page<unknown>) => void;
  /** Read exactly the one page startPage names (`--page N`), a short one included, never the next to fill it up. */
  onePage?: boolean;
}

export const MAX_PAGE_SIZE = 100;

/** The envelope, or a bare array (the quickstart treats /crawlers as one); null for anything else. */
function asEnvelope<T>(body: unknown): Page<T> | null {
  if (Array.isArray(body)) return { data: body as T[], total_results: body.length, page: 1, total_pages: 1 };
  if (body && typeof body === 'object' && Array.isArray((body as Page<T>).data)) return body as Page<T>;
  return null;
}

export async function* pages<T = Rec>(http: HttpClient, path: string, opts: PageOptions = {}): AsyncGenerator<Page<T>> {
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, opts.pageSize ?? MAX_PAGE_SIZE));
  let page = Math.max(1, opts.startPage ?? 1);
  let delivered = 0;
  // The latest total_results: a listing that grows while it is read (a run still adding results) says so on later pages.
  let total: number | null = null;
  let warned = false;
  let requests = 0;

  for (;;) {
    requests++;
    // The first page spends the client's retry budget, shared with every other call; each later page gets its own, so
    // a long export survives a bad minute.
    const retryBudget = requests === 1 ? undefined : new RetryBudget(MAX_RETRIES);
    const stopping = () =>
      `stopping after ${delivered}${total !== null ? ` of ${total}` : ''} record${delivered === 1 && total === null ? '' : 's'}`;
    const res = await fetchPage(http, path, opts, { page, size, retryBudget, delivered, stopping });
    const fail = (what: string) =>
      new BadPageError(`GET ${path.split('?')[0]} page ${page} (HTTP ${res.status}): ${what} — ${stopping()}`, {
        status: res.status,
      });
    const env = asEnvelope<T>(res.data);
    if (!env) throw fail(`expected a page of records, got ${shapeOf(res.data)}`);
    total = finiteNumber(env.total_results) ?? total;
    if (env.warning && !warned) {
      warned = true;
      opts.onWarning?.(env.warning);
    }
    opts.onPage?.(env as Page<unknown>);
    let data = env.data;
    if (opts.maxItems !== undefined && delivered + data.length > opts.maxItems)
      data = data.slice(0, opts.maxItems - delivered);
    if (opts.onePage) {
      // The page asked for, as it came: whether more follow is the envelope's to say (onPage), not this page's length.
      yield { ...env, data };
      return;
    }

    const maxed = opts.maxItems !== undefined && delivered + data.length >= opts.maxItems;
    const { last, conflict } = maxed ? { last: true, conflict: null } : endOfListing(env, page, size, fail);
    delivered += data.length;
    yield { ...env, data };
    if (conflict) throw fail(conflict);
    if (last) {
      if (!warned) warnIfShort(path, opts, env, page, delivered, total);
      return;
    }
    page++;
  }
}

/** One page of the listing, as the API answered it (checked by the caller). */
async function fetchPage(
  http: HttpClient,
  path: string,
  opts: PageOptions,
  at: { page: number; size: number; retryBudget: RetryBudget | undefined; delivered: number; stopping: () => string },
): Promise<HttpResponse<unknown>> {
  try {
    // expect 'any': a page is checked below, with the page's number in the message.
    return await http.request<unknown>('GET', path, {
      query: { ...opts.query, page: at.page, limit: at.size },
      headers: opts.headers,
      retryBudget: at.retryBudget,
      expect: 'any',
    });
  } catch (err) {
    // Records already went out (to stdout; a -o file is dropped): say where the listing broke off. A stop signal is
    // the user's own doing, not a broken listing.
    if (at.delivered > 0 && err instanceof SqError && !(err instanceof InterruptedError))
      err.message = `${err.message} — page ${at.page}, ${at.stopping()}`;
    throw err;
  }
}

/** Whether the listing ends with this page, by its own signals; `conflict`: where they disagree, raised once this
 * page is out, so the pages read so far are kept. A short page that more is said to follow is thrown at once. */
function endOfListing<T>(
  env: Page<T>,
  page: number,
  size: number,
  fail: (what: string) => Error,
): { last: boolean; conflict: string | null } {
  // A server may serve smaller pages than asked for (its own maximum); its `limit` says so.
  const served = Math.min(size, positive(env.limit) ?? size);
  if (env.data.length < served) {
    // A short page after which next: null or total_pages says the listing ends is its last page, whatever
    // total_results says (the documented samples overstate it); otherwise more must not be said to follow.
    const said = endedByLinks(env, page) ? null : moreByEnvelope(env, page, (page - 1) * served + env.data.length);
    const more = said?.more ? said.by : null;
    // The free plan's documented cap: pages stop short of total_results, and the warning (already reported) says so.
    if (more && !env.warning) {
      throw fail(
        env.data.length === 0
          ? `the page is empty, but ${more}`
          : `${env.data.length} records on a page of ${served}, but ${more}`,
      );
    }
    return { last: true, conflict: null };
  }
  // A full page is never the end while any of next, total_pages or total_results says more.
  const s = signals(env, page, served);
  if (s.more.length === 0) return { last: s.end.length > 0, conflict: null };
  if (page > s.bound) {
    return {
      last: false,
      conflict: `the page is full and ${s.more.join(' and ')}, but ${s.end.join(' and ')}: the listing's signals disagree`,
    };
  }
  return { last: false, conflict: null };
}

/** A short last page is allowed, but a whole listing that ends below its own total is never silent. */
function warnIfShort<T>(
  path: string,
  opts: PageOptions,
  env: Page<T>,
  page: number,
  delivered: number,
  total: number | null,
): void {
  const whole = opts.startPage === undefined || opts.earlier !== undefined;
  if (!whole || opts.maxItems !== undefined) return;
  const totalPages = finiteNumber(env.total_pages);
  const arrived = delivered + (opts.earlier ?? 0);
  if (total !== null && arrived < total) {
    opts.onWarning?.(
      `GET ${path.split('?')[0]}: total_results said ${total} but ${arrived} records arrived (the API's counters are not always exact)`,
    );
  } else if (totalPages !== null && totalPages > page) {
    // next: null ended it (as documented samples do) while total_pages said more.
    opts.onWarning?.(
      `GET ${path.split('?')[0]}: total_pages said ${totalPages} but the listing ended at page ${page} (the API's counters are not always exact)`,
    );
  }
}

/** Records one by one, across pages, as they arrive. */
export async function* items<T = Rec>(http: HttpClient, path: string, opts: PageOptions = {}): AsyncGenerator<T> {
  for await (const p of pages<T>(http, path, opts)) yield* p.data;
}

/** `next: null` or `page >= total_pages`: what ends a listing at a short page (the list-crawlers sample has both). */
function endedByLinks(env: Page<unknown>, page: number): boolean {
  if ('next' in env && (env.next === null || env.next === undefined)) return true;
  const totalPages = finiteNumber(env.total_pages);
  return totalPages !== null && page >= totalPages;
}

/**
 * What each of the envelope's paging signals says about the pages after this full one: `more` and `end` name them.
 * Past page `bound` (one page past every counter while the next link leads on, else past the first counter that says
 * the listing has ended), a full page whose signals still say more is a conflict, never an endless loop.
 */
function signals(env: Page<unknown>, page: number, size: number): { more: string[]; end: string[]; bound: number } {
  const more: string[] = [];
  const end: string[] = [];
  const bounds: number[] = [];
  const next = typeof env.next === 'string' && env.next !== '';
  if (next) more.push('its next link points to another page');
  else if ('next' in env) end.push('next is null');
  const totalPages = finiteNumber(env.total_pages);
  if (totalPages !== null) {
    (page < totalPages ? more : end).push(`total_pages says ${totalPages}`);
    bounds.push(totalPages);
  }
  const totalResults = finiteNumber(env.total_results);
  if (totalResults !== null) {
    (totalResults > (page - 1) * size + env.data.length ? more : end).push(`total_results says ${totalResults}`);
    bounds.push(Math.ceil(totalResults / size));
  }
  const bound = bounds.length === 0 ? Number.POSITIVE_INFINITY : next ? Math.max(...bounds) : Math.min(...bounds);
  return { more, end, bound };
}

/** The envelope itself says another page follows: a next link, or page < total_pages (for callers that stop early). */
export function saysMoreFollow(p: Page<unknown>): boolean {
  if (typeof p.next === 'string' && p.next !== '') return true;
  return typeof p.page === 'number' && typeof p.total_pages === 'number' && p.page < p.total_pages;
}

/** Whether more records follow page `page` (ending at record `upTo`) by the envelope's first signal (next,
 * total_pages, total_results), and that signal in words. Null: it carries none. */
export function moreByEnvelope(env: Page<unknown>, page: number, upTo: number): { more: boolean; by: string } | null {
  if (typeof env.next === 'string' && env.next !== '')
    return { more: true, by: 'its next link points to another page' };
  if (env.next === null) return { more: false, by: 'next is null' };
  const totalPages = finiteNumber(env.total_pages);
  if (totalPages !== null) return { more: page < totalPages, by: `total_pages says ${totalPages}` };
  const totalResults = finiteNumber(env.total_results);
  if (totalResults !== null) return { more: upTo < totalResults, by: `total_results says ${totalResults}` };
  return null;
}

function shapeOf(body: unknown): string {
  if (body === null) return 'null';
  if (typeof body !== 'object') return `a ${typeof body}`;
  if (!('data' in body)) {
    const msg = errorMessage(body);
    return `an object without data${msg ? ` (${JSON.stringify(msg)})` : ''}`;
  }
  const data = (body as { data: unknown }).data;
  return `data that is ${data === null ? 'null' : `a ${typeof data}`}, not a list`;
}

function positive(v: unknown): number | null {
  const n = finiteNumber(v);
  return n !== null && n >= 1 ? Math.floor(n) : null;
}
