// Reading the live account: only GETs, and only what the file (or an export) needs. There is no GET /delivery: a
// squid's delivery settings, notify and unique-results flags live in its detail record.
import type { HttpClient } from '../api/http.js';
import { items } from '../api/pages.js';
import { getSquid, SQUIDS_PATH } from '../api/squids.js';
import { TASKS_PATH } from '../api/tasks.js';
import { CRAWLERS_PATH, getCrawler, getCrawlerParams, squidParamNames } from '../api/crawlers.js';
import { recordId } from '../api/resolve.js';
import { getAutoReset, type AutoReset } from '../api/billing.js';
import { ACCOUNTS_PATH } from '../api/accounts.js';
import { isRecord, type Rec } from '../lib/guards.js';
import { UsageError } from '../errors.js';
import { BadPageError } from '../api/http-errors.js';
import { pathOf, type Desired } from './file.js';
import type { Account, Crawler, Page, Squid, Task } from '../api/records.js';

export interface LiveSquid {
  id: string;
  name: string;
  /** GET /v1/squids/{id}. */
  record: Squid;
  /** GET /v1/tasks?squid=, when the file manages the squid's tasks. */
  tasks?: Task[];
}

/**
 * Every record of a listing. A listing the API caps (the free plan's `warning`) is an error, not a shorter account:
 * export would write a partial file, and plan/apply would take the records past the cap for missing and add them
 * again on every run. Thrown from the page that carries the warning, before anything is compared or sent. A listing
 * that ends below its own total_results is only warned about (`warn`), as every listing is: the API's counters are
 * not always exact, but it is never silent.
 */
export async function listAll<T = Rec>(
  http: HttpClient,
  path: string,
  query?: Record<string, string>,
  warn?: (w: string) => void,
): Promise<T[]> {
  const out: T[] = [];
  const listing = `GET ${path}${query ? `?${new URLSearchParams(query).toString()}` : ''}`;
  const onPage = (p: Page<unknown>) => {
    if (!p.warning) return;
    const total = typeof p.total_results === 'number' ? ` of ${p.total_results} records` : '';
    throw new BadPageError(
      `${listing}: the API capped this listing${total} and warned: ${p.warning.replace(/\.?\s*$/, '')}. ` +
        'Export, plan and apply need the whole account, so nothing was written or sent',
    );
  };
  for await (const r of items<T>(http, path, { pageSize: 100, query, onPage, onWarning: warn })) out.push(r);
  return out;
}

export async function squidDetail(http: HttpClient, id: string): Promise<Squid> {
  const rec = await getSquid<unknown>(http, id);
  return isRecord(rec) ? rec : { id };
}

export async function squidTasks(http: HttpClient, id: string, warn?: (w: string) => void): Promise<Task[]> {
  return listAll<Task>(http, TASKS_PATH, { squid: id }, warn);
}

const name = (r: Rec) => (typeof r.name === 'string' ? r.name : '');

/**
 * Which live squid a file key means: its exact name, else a case-insensitive name if only one matches, else a full
 * hash or a unique hash prefix (as `sq delivery apply` files may use). Undefined: the squid does not exist yet.
 */
function matchSquid(ref: string, all: Squid[]): Squid | undefined {
  const exact = all.filter((s) => name(s) === ref);
  if (exact.length === 1) return exact[0];
  const folded = all.filter((s) => name(s).toLowerCase() === ref.toLowerCase());
  if (exact.length === 0 && folded.length === 1) return folded[0];
  if (exact.length > 1 || folded.length > 1) {
    throw new UsageError(
      `${pathOf(['squids', ref])}: ${Math.max(exact.length, folded.length)} squids have this name; use the hash as the key`,
    );
  }
  if (/^[0-9a-f]{4,}$/i.test(ref)) {
    const byId = all.filter((s) => recordId(s).toLowerCase().startsWith(ref.toLowerCase()));
    if (byId.length === 1) return byId[0];
    if (byId.length > 1)
      throw new UsageError(
        `${pathOf(['squids', ref])}: the hash prefix matches ${byId.length} squids; use a longer one`,
      );
  }
  return undefined;
}

/** A crawler by id, unique id prefix, exact name or slug (case-insensitive), from the full list. */
export function matchCrawler(ref: string, crawlers: Crawler[]): Crawler | undefined {
  const r = ref.toLowerCase();
  const by = (f: (c: Crawler) => boolean) => crawlers.filter(f);
  for (const list of [
    by((c) => recordId(c).toLowerCase() === r),
    by((c) => String(c.slug ?? '').toLowerCase() === r),
    by((c) => name(c).toLowerCase() === r),
    /^[0-9a-f]{4,}$/.test(r) ? by((c) => recordId(c).toLowerCase().startsWith(r)) : [],
  ]) {
    if (list.length === 1) return list[0];
  }
  return undefined;
}

export interface Live {
  /** Every squid of the account (list records). */
  all: Squid[];
  /** Details of the squids the file names, keyed by file key. */
  matched: Map<string, LiveSquid>;
  crawlers: Crawler[];
  /** The squid parameters each crawler of a squid whose params the file manages declares (squidParamNames). */
  crawlerParams: Map<string, string[]>;
  autoReset?: AutoReset;
  /** Every platform account (with the squids each is linked to), when the file links accounts to a squid. */
  accounts: Account[];
  /** The crawler record (GET /v1/crawlers/{id}: name, account_type) of each squid whose accounts the file manages. */
  accountCrawlers: Map<string, Crawler>;
}

/**
 * The ids of the accounts linked to a squid, sorted. The account list says which squids each account serves
 * (`squids: [{name, hash_value}]`, api-reference §11); the squid record has no such field in the docs.
 */
export function linkedAccounts(accounts: Account[], squidId: string): string[] {
  const serves = (a: Account) =>
    Array.isArray(a.squids) &&
    a.squids.some((s) => (s && typeof s === 'object' ? recordId(s as Rec) : String(s)) === squidId);
  return accounts.filter(serves).map(recordId).sort();
}

export async function listAccounts(http: HttpClient, warn?: (w: string) => void): Promise<Account[]> {
  return listAll<Account>(http, ACCOUNTS_PATH, undefined, warn);
}

/** An account a file names: its id, its exact username, or a unique id prefix (4+ hex characters). */
export function matchAccount(ref: string, accounts: Account[]): Account | Account[] | undefined {
  const exact = accounts.filter((a) => recordId(a) === ref || a.username === ref);
  if (exact.length) return exact.length === 1 ? exact[0] : exact;
  if (!/^[0-9a-f]{4,}$/i.test(ref)) return undefined;
  const byId = accounts.filter((a) => recordId(a).toLowerCase().startsWith(ref.toLowerCase()));
  return byId.length === 0 ? undefined : byId.length === 1 ? byId[0] : byId;
}

/** The crawler a file squid runs on: the live squid's, else the one its `crawler:` names. */
export function desiredCrawler(
  want: Desired['squids'][number],
  live: LiveSquid | undefined,
  crawlers: Crawler[],
): string | undefined {
  if (live) return typeof live.record.crawler === 'string' ? live.record.crawler : undefined;
  const c = want.spec.crawler === undefined ? undefined : matchCrawler(want.spec.crawler, crawlers);
  return c ? recordId(c) : undefined;
}

export async function readLive(http: HttpClient, want: Desired, warn?: (w: string) => void): Promise<Live> {
  const all = want.managesSquids ? await listAll<Squid>(http, SQUIDS_PATH, undefined, warn) : [];
  const needCrawlers = want.squids.some((s) => s.spec.crawler !== undefined || s.spec.chain);
  const crawlers = needCrawlers ? await listAll<Crawler>(http, CRAWLERS_PATH, undefined, warn) : [];
  const matched = new Map<string, LiveSquid>();
  const seen = new Map<string, string>();
  for (const s of want.squids) {
    const hit = matchSquid(s.ref, all);
    if (!hit) continue;
    const id = recordId(hit);
    const twice = seen.get(id);
    if (twice !== undefined)
      throw new UsageError(`${pathOf(['squids', s.ref])}: names the same squid as ${pathOf(['squids', twice])}`);
    seen.set(id, s.ref);
    const record = await squidDetail(http, id);
    matched.set(s.ref, {
      id,
      name: name(record) || name(hit),
      record,
      tasks: s.tasks ? await squidTasks(http, id, warn) : undefined,
    });
  }
  // Typos in params stop before they reach the account: what each crawler declares, read once per crawler.
  const crawlerParams = new Map<string, string[]>();
  for (const s of want.squids) {
    const crawler = s.spec.params ? desiredCrawler(s, matched.get(s.ref), crawlers) : undefined;
    if (crawler === undefined || crawlerParams.has(crawler)) continue;
    const declared = squidParamNames(await getCrawlerParams(http, crawler));
    if (declared) crawlerParams.set(crawler, declared);
  }
  const autoReset = want.billing ? await getAutoReset(http) : undefined;
  const accounts = want.squids.some((s) => s.spec.accounts !== undefined) ? await listAccounts(http, warn) : [];
  // Linked accounts must be of the crawler's account type: each such squid's crawler, read once per crawler.
  const accountCrawlers = new Map<string, Crawler>();
  for (const s of want.squids) {
    const crawler = s.spec.accounts !== undefined ? desiredCrawler(s, matched.get(s.ref), crawlers) : undefined;
    if (crawler === undefined || accountCrawlers.has(crawler)) continue;
    accountCrawlers.set(crawler, await getCrawler(http, crawler));
  }
  return { all, matched, crawlers, crawlerParams, autoReset, accounts, accountCrawlers };
}

/** A squid's schedule as the file writes it ({cron, timezone}), null without one. */
export function liveSchedule(rec: Squid): { cron: string; timezone: string } | null {
  const s = rec.schedule as Rec | string | null | undefined;
  if (typeof s === 'string' && s) return { cron: s, timezone: 'UTC' };
  if (!s || typeof s !== 'object' || typeof s.cron_expression !== 'string' || !s.cron_expression) return null;
  return { cron: s.cron_expression, timezone: typeof s.timezone === 'string' ? s.timezone : 'UTC' };
}
