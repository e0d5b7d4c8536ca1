// Lazy iteration over the pagination envelope. The documented counters disagree with the data in places
// (api-reference §15), so paging stops on whichever signal comes first and never loops on bad counters.
import type { HttpClient, RequestOptions } from './http.js';

export interface Envelope<T = Record<string, unknown>> {
  total_results?: number;
  limit?: number;
  page?: number;
  total_pages?: number;
  result_from?: number;
  result_to?: number;
  data: T[];
  next?: string | null;
  previous?: string | null;
  warning?: string;
}

export interface PageOptions {
  query?: RequestOptions['query'];
  /** Records per request, 1-100. */
  pageSize?: number;
  /** First page to read (1-based). */
  startPage?: number;
  /** Stop after this many records in total (undefined = all pages). */
  maxItems?: number;
  /** Called once with the free-plan warning text, the first time a page carries one. */
  onWarning?: (warning: string) => void;
  /** Called with every envelope as it arrives (for "showing N of M" hints). */
  onPage?: (page: Envelope<unknown>) => void;
}

export const MAX_PAGE_SIZE = 100;

/** Accept the envelope, or a bare array (the quickstart treats /crawlers as one). */
export function asEnvelope<T>(body: unknown): Envelope<T> {
  if (Array.isArray(body)) return { data: body as T[], total_results: body.length, page: 1, total_pages: 1 };
  if (body && typeof body === 'object' && Array.isArray((body as Envelope<T>).data)) return body as Envelope<T>;
  return { data: [] };
}

export async function* pages<T = Record<string, unknown>>(
  http: HttpClient,
  path: string,
  opts: PageOptions = {},
): AsyncGenerator<Envelope<T>> {
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, opts.pageSize ?? MAX_PAGE_SIZE));
  let page = Math.max(1, opts.startPage ?? 1);
  let delivered = 0;
  let warned = false;
  // A hard cap on requests: bad counters must never turn into an endless loop.
  let requests = 0;
  let cap = Number.POSITIVE_INFINITY;

  for (;;) {
    requests++;
    const body = await http.get(path, { query: { ...opts.query, page, limit: size } });
    const env = asEnvelope<T>(body);
    if (env.warning && !warned) {
      warned = true;
      opts.onWarning?.(env.warning);
    }
    opts.onPage?.(env as Envelope<unknown>);
    let data = env.data;
    if (opts.maxItems !== undefined && delivered + data.length > opts.maxItems) data = data.slice(0, opts.maxItems - delivered);
    delivered += data.length;
    yield { ...env, data };

    if (env.data.length === 0) return;
    if (opts.maxItems !== undefined && delivered >= opts.maxItems) return;
    if ('next' in env && (env.next === null || env.next === undefined)) return;
    const totalPages = num(env.total_pages);
    if (totalPages !== null && page >= totalPages) return;
    const total = num(env.total_results);
    if (total !== null) {
      if (cap === Number.POSITIVE_INFINITY) cap = Math.ceil(total / size) + 1;
      if (requests >= cap) return;
    }
    if (env.data.length < size && totalPages === null && !('next' in env)) return;
    page++;
  }
}

/** Records one by one, across pages, as they arrive. */
export async function* items<T = Record<string, unknown>>(http: HttpClient, path: string, opts: PageOptions = {}): AsyncGenerator<T> {
  for await (const p of pages<T>(http, path, opts)) yield* p.data;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
