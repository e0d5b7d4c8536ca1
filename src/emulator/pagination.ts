// The list envelope of every paginated endpoint, with absolute next/previous links and the free-plan cap.
import type { EmuRequest, EmuResponse } from './types.js';
import { detail, errB } from './util.js';

const FREE_PLAN_CAP = 50;
export const FREE_PLAN_WARNING =
  'Free plan: only 50 results returned. Upgrade at https://app.lobstr.io/dashboard/pricing';
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

type ErrorStyle = 'detail' | 'errB';

interface PageArgs {
  page: number;
  limit: number;
}

function bad(style: ErrorStyle, message: string, param: string): EmuResponse {
  return style === 'errB' ? errB(400, message, param) : detail(400, message);
}

function intParam(raw: string): number | undefined {
  return /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : undefined;
}

/** Reads page/limit (and a legacy alias such as `page_size`); returns an error response when out of range. */
function readPageArgs(req: EmuRequest, style: ErrorStyle, limitAlias?: string): PageArgs | EmuResponse {
  let limitRaw = req.query.get('limit');
  if (limitRaw === null && limitAlias) limitRaw = req.query.get(limitAlias);
  const pageRaw = req.query.get('page');
  let limit = DEFAULT_LIMIT;
  if (limitRaw !== null) {
    const n = intParam(limitRaw);
    if (n === undefined || n < 1 || n > MAX_LIMIT)
      return bad(style, `limit must be an integer between 1 and ${MAX_LIMIT}.`, 'limit');
    limit = n;
  }
  let page = 1;
  if (pageRaw !== null) {
    const n = intParam(pageRaw);
    if (n === undefined || n < 1) return bad(style, 'page must be an integer greater than or equal to 1.', 'page');
    page = n;
  }
  return { page, limit };
}

function linkFor(req: EmuRequest, page: number): string {
  const host = String(req.headers['host'] ?? '127.0.0.1');
  const q = new URLSearchParams(req.query);
  q.set('page', String(page));
  return `http://${host}${req.path}?${q.toString()}`;
}

interface PaginateOptions {
  freePlan: boolean;
  style: ErrorStyle;
  limitAlias?: string;
  /** The list-tasks sample's envelope has no result_from/result_to. */
  noRange?: boolean;
}

/**
 * Builds the envelope over `items` (already filtered and ordered). `map` turns a stored record into its
 * public shape and is only called for the records of the page, so huge lists stay cheap.
 */
export function paginate<T>(
  req: EmuRequest,
  items: readonly T[],
  map: (item: T) => unknown,
  opts: PaginateOptions,
): EmuResponse {
  const args = readPageArgs(req, opts.style, opts.limitAlias);
  if ('status' in args) return args;
  const { page, limit } = args;
  const total = items.length;
  const capped = opts.freePlan && total > FREE_PLAN_CAP;
  const deliverable = opts.freePlan ? Math.min(total, FREE_PLAN_CAP) : total;
  const start = (page - 1) * limit;
  const end = Math.min(start + limit, deliverable);
  const data = start < end ? items.slice(start, end).map(map) : [];
  const body: Record<string, unknown> = {
    total_results: total,
    limit,
    page,
    total_pages: Math.ceil(total / limit),
    result_from: data.length ? start + 1 : 0,
    result_to: data.length ? start + data.length : 0,
    next: end < deliverable && start < deliverable ? linkFor(req, page + 1) : null,
    previous: page > 1 ? linkFor(req, Math.min(page - 1, Math.max(1, Math.ceil(deliverable / limit)))) : null,
    data,
  };
  if (opts.noRange) {
    delete body.result_from;
    delete body.result_to;
  }
  if (capped) body.warning = FREE_PLAN_WARNING;
  return { status: 200, body };
}
