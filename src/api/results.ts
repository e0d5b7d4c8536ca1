// Results: paging over GET /v1/results and a stable column order for tabular exports. Rows are heterogeneous
// (a key missing from one row is present in another), so the header cannot come from whatever row arrives first.
import type { HttpClient } from './http.js';
import { pages, type PageOptions } from './pages.js';
import type { Page, Result, Squid } from './records.js';
import { getRun } from './runs.js';
import { attributeList, getCrawlerAttributes } from './crawlers.js';
import { getSquid } from './squids.js';

/** Every export starts with these, whatever the crawler. */
const LEAD_COLUMNS = ['id', 'squid', 'run', 'scraping_time'] as const;
/** Bookkeeping keys that say nothing about the scraped item. */
const SKIP = new Set<string>([...LEAD_COLUMNS, 'object']);

export type ResultScope = { squid: string } | { run: string };

export function resultPages(
  http: HttpClient,
  scope: ResultScope,
  opts: PageOptions & { task?: string } = {},
): AsyncGenerator<Page<Result>> {
  const query = { ...opts.query, ...scope, task: opts.task };
  return pages<Result>(http, '/v1/results', { ...opts, query });
}

/** The crawler's result attributes in their documented order; null when the endpoint cannot tell. */
export async function crawlerAttributeNames(http: HttpClient, crawlerId: string): Promise<string[] | null> {
  try {
    const body = await getCrawlerAttributes(http, crawlerId);
    const names = attributeList(body)
      .map((a) => (a && typeof a === 'object' ? (a as { name?: unknown }).name : a))
      .filter((n): n is string => typeof n === 'string' && n !== '');
    return names.length ? names : null;
  } catch {
    // The header can still come from the data; a missing attribute list must not fail an export.
    return null;
  }
}

/** The crawler behind a squid, or behind a run's squid. */
export async function crawlerOf(http: HttpClient, scope: ResultScope, squidRecord?: Squid): Promise<string | null> {
  let squidId = 'squid' in scope ? scope.squid : null;
  if (squidRecord && typeof squidRecord.crawler === 'string') return squidRecord.crawler;
  if (!squidId) {
    const run = await getRun(http, (scope as { run: string }).run);
    squidId = typeof run.squid === 'string' ? run.squid : null;
    if (!squidId) return null;
  }
  const squid = await getSquid(http, squidId);
  return typeof squid.crawler === 'string' ? squid.crawler : null;
}

/** id, squid, run, scraping_time, then the crawler's fields (else the sample's keys in first-seen order). */
export function resultColumns(attributes: string[] | null, sample: Result[]): string[] {
  const cols: string[] = [...LEAD_COLUMNS];
  const seen = new Set<string>(cols);
  const add = (k: string) => {
    if (!seen.has(k) && !SKIP.has(k)) {
      seen.add(k);
      cols.push(k);
    }
  };
  if (attributes) attributes.forEach(add);
  else for (const row of sample) if (row && typeof row === 'object') Object.keys(row).forEach(add);
  return cols;
}
