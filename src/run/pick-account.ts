// The platform account a new squid of an account crawler links (sq go, sq squids create): the one given with
// --account (its type checked against the crawler's), else the one healthy, unlocked account of the crawler's type;
// several are asked about on a terminal, and a script gets exit 2 naming --account. No account is linked for a
// crawler that needs none.
import type { Ctx } from '../cli/context.js';
import type { HttpClient } from '../api/http.js';
import { allAccounts, crawlerAccountType, isHealthy, refuseWrongTypes } from '../api/account-links.js';
import { firstAccount, getAccount } from '../api/accounts.js';
import { recordId, resolveAccount } from '../api/resolve.js';
import { getCrawler } from '../api/crawlers.js';
import { UsageError } from '../errors.js';
import type { Account, Crawler } from '../api/records.js';

export async function pickAccount(
  ctx: Ctx,
  http: HttpClient,
  crawlerId: string,
  listed: Crawler,
  given: string | undefined,
): Promise<string | null> {
  // A crawler named by its full id was not looked up: its record is read for its account type.
  const crawler = 'account' in listed || 'account_type' in listed ? listed : await getCrawler(http, crawlerId);
  const type = crawlerAccountType(crawler);
  const name = JSON.stringify(String(crawler.name ?? recordId(crawler)));
  if (given !== undefined) {
    const r = await resolveAccount(http, given);
    const rec = typeof r.record.type === 'string' ? r.record : firstAccount(await getAccount(http, r.id), r.id);
    refuseWrongTypes('--account', [rec], crawler, name);
    return r.id;
  }
  if (!type) return null;
  const ofType = (await allAccounts(http)).filter((a) => a.type === type);
  const usable = ofType.filter(isHealthy);
  const label = (a: Account) => `${String(a.username ?? '')} (${recordId(a)})`;
  if (usable.length === 1) {
    ctx.out.info(`account ${label(usable[0])} picked: the one healthy ${type} account`);
    return recordId(usable[0]);
  }
  if (usable.length === 0) {
    const unwell = ofType.map((a) => `${label(a)}: status ${String(a.status)}${a.lock_time ? ', locked' : ''}`);
    throw new UsageError(
      `crawler ${name} needs a ${type} account and none is healthy and unlocked${unwell.length ? ` (${unwell.join('; ')})` : ''}: ` +
        `sync one (sq accounts sync --type ${type} --cookies-file FILE) or pass --account`,
    );
  }
  if (!ctx.canPrompt()) {
    throw new UsageError(
      `crawler ${name} needs a ${type} account and ${usable.length} are healthy (${usable.map(label).join(', ')}): pass --account to choose one`,
    );
  }
  return (await ctx.prompter()).select(`Which ${type} account should the squid use?`, {
    choices: usable.map((a) => ({ value: recordId(a), name: label(a) })),
    flag: '--account',
  });
}
