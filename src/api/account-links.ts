// A squid's linked platform accounts, done safely: the update's `accounts` field is a full replace, so adding or
// removing one means reading the links, sending the union or the difference, and reading back to catch a writer in
// between. An account of a type the crawler does not use is refused before any write.
import type { HttpClient } from './http.js';
import { ACCOUNTS_PATH } from './accounts.js';
import { items } from './pages.js';
import { recordId } from './resolve.js';
import { updateSquid } from './squids.js';
import { ApiError, UsageError } from '../errors.js';
import type { Rec } from '../lib/guards.js';
import type { Account, Crawler } from './records.js';

/** The account type a crawler's runs need (`account_type`, else the list sample's `account.type`), or null. */
export function crawlerAccountType(crawler: Crawler): string | null {
  if (typeof crawler.account_type === 'string' && crawler.account_type) return crawler.account_type;
  const a = crawler.account as Rec | null | undefined;
  return a && typeof a === 'object' && typeof a.type === 'string' && a.type ? a.type : null;
}

export async function allAccounts(http: HttpClient): Promise<Account[]> {
  const out: Account[] = [];
  for await (const a of items<Account>(http, ACCOUNTS_PATH)) out.push(a);
  return out;
}

/** The ids of the accounts linked to a squid (each account lists the squids using it), sorted. */
export function linkedTo(accounts: Account[], squidId: string): string[] {
  const serves = (a: Account) =>
    Array.isArray(a.squids) &&
    a.squids.some(
      (s) =>
        (s && typeof s === 'object' ? String((s as Rec).hash_value ?? (s as Rec).id ?? '') : String(s)) === squidId,
    );
  return accounts.filter(serves).map(recordId).sort();
}

/** Healthy: status "200" (the condition a run checks) and not locked by another squid's run. */
export function isHealthy(a: Account): boolean {
  return String(a.status) === '200' && (a.lock_time === undefined || a.lock_time === null);
}

/** Exit 2 before any write when an account is not of the crawler's type, naming both (none for a crawler without). */
export function refuseWrongTypes(flag: string, accounts: Account[], crawler: Crawler, crawlerName: string): void {
  const want = crawlerAccountType(crawler);
  for (const a of accounts) {
    const type = typeof a.type === 'string' ? a.type : '';
    const who = `${String(a.username ?? recordId(a))} (${recordId(a)})`;
    if (!want)
      throw new UsageError(
        `${flag}: crawler ${crawlerName} uses no platform account, so account ${who} of type ${type} cannot be linked`,
      );
    if (type !== want)
      throw new UsageError(
        `${flag}: account ${who} is of type ${type}, but crawler ${crawlerName} needs a ${want} account; nothing was sent`,
      );
  }
}

/** Sends the squid's links changed by `change`, then reads them back: another writer's change in between is met by
 * sending ours once more on top of theirs (a second race is an error). Returns the ids linked at the end. */
export async function changeLinks(
  http: HttpClient,
  squidId: string,
  change: (linked: string[]) => string[],
): Promise<{ before: string[]; after: string[] }> {
  const before = linkedTo(await allAccounts(http), squidId);
  let want = change(before);
  await updateSquid(http, squidId, { accounts: want });
  let now = linkedTo(await allAccounts(http), squidId);
  if (same(now, want)) return { before, after: now };
  // Someone else wrote in between: apply our change to what they left, once.
  want = change(now);
  await updateSquid(http, squidId, { accounts: want });
  now = linkedTo(await allAccounts(http), squidId);
  if (!same(now, want))
    throw new ApiError(
      `the squid's accounts changed again while sq was changing them (now: ${now.join(', ') || 'none'}); nothing more was sent, run it again`,
    );
  return { before, after: now };
}

const same = (a: string[], b: string[]): boolean =>
  a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);
