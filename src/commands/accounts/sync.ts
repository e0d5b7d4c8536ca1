import { resolveAccount } from '../../api/resolve.js';
import { defineVerb } from '../../cli/command.js';
import { firstAccount, getAccount, parseCookies, startSync, syncCode, waitForSync } from '../../api/accounts.js';
import type { Account } from '../../api/records.js';
import { ApiError, UsageError } from '../../errors.js';
import { readInput } from '../../cli/stdin.js';
import { durationFlag, nonEmpty, required } from '../../validate/index.js';

const DEFAULT_TIMEOUT_MS = 2 * 60_000;
const COLUMNS = [
  { key: 'id' },
  { key: 'status_code', header: 'status' },
  { key: 'status_text', header: 'state' },
  { key: 'account_hash', header: 'account' },
];

export default defineVerb({
  name: 'sync',
  writes: true,
  summary: 'Create or refresh an account from browser cookies (POST /v1/accounts/cookies)',
  description:
    '--cookies-file takes a JSON object {"name": "value"}, a JSON array of {name, value} (browser export), or a ' +
    'Netscape cookies.txt; "-" reads stdin. Cookie values are secrets: sq never prints them, not even with --dry-run. ' +
    '--account refreshes an existing account, in the documented refresh form {type, cookies, account} (--type may then be ' +
    ("left out: it is read from the account; a --type that is not the account's is exit 2). --wait " +
      'polls GET /v1/synchronize/{id} until synchronized (exit 0) or ') +
    'failed (exit 1).',
  options: [
    {
      flags: '--type <type>',
      description: 'account type name, see `sq accounts types` (required unless --account is given)',
      complete: 'account-type',
    },
    { flags: '--cookies-file <file>', description: 'cookies export; "-" for stdin (required)' },
    {
      flags: '--account <id>',
      description: 'refresh this existing account instead of creating one (id or id prefix)',
      complete: 'account',
    },
    { flags: '--wait', description: 'wait until the synchronization succeeds or fails' },
    {
      flags: '--timeout <duration>',
      description: 'give up waiting after this long, at most 7d (with --wait)',
      defaultText: '2m',
    },
  ],
  examples: [
    'sq accounts sync --type twitter-sync --cookies-file cookies.json --wait',
    'sq accounts sync --type sales-nav-sync --cookies-file cookies.txt --account 7c2d9e4f0a1b4c3d8e5f6a7b8c9d0e1f',
  ],
  async run(ctx, _args, opts) {
    const account = opts.account === undefined ? undefined : nonEmpty('--account', opts.account).trim();
    const given =
      account !== undefined && opts.type === undefined
        ? undefined
        : nonEmpty('--type', required('--type', opts.type, 'see `sq accounts types`')).trim();
    const file = required('--cookies-file', opts.cookiesFile, "a JSON or cookies.txt export of the site's cookies");
    if (opts.timeout !== undefined && !opts.wait) throw new UsageError('--timeout only applies with --wait');
    const timeoutMs = opts.timeout === undefined ? DEFAULT_TIMEOUT_MS : durationFlag('--timeout', opts.timeout);
    const text = await readInput(ctx, '--cookies-file', file);
    const cookies = parseCookies(text);
    const http = await ctx.http();
    // An id prefix (the 8 characters `sq accounts list` shows) or a username is looked up (a GET); a full id goes as given.
    const resolved = account === undefined ? undefined : await resolveAccount(http, account);
    const accountId = resolved?.id;
    // A refresh keeps the account's type: another --type is refused here rather than by the API after the write was sent.
    const has = resolved?.record.type;
    if (given !== undefined && resolved && typeof has === 'string' && has !== '' && has !== given) {
      throw new UsageError(
        `--type ${given}: account ${resolved.name || resolved.id} is of type ${has}; leave --type ` +
          `out (it is read from the account) or pass --type ${has}; nothing was sent`,
      );
    }
    const type = given ?? accountType(firstAccount(await getAccount(http, accountId!), accountId!));
    const body: Record<string, unknown> = { type, cookies, ...(accountId === undefined ? {} : { account: accountId }) };
    const started = await startSync(http, body);
    const id = String(started?.id ?? '');
    if (!opts.wait) {
      await ctx.out.record(started, { title: 'Synchronization started', columns: COLUMNS });
      ctx.out.info(
        `Sent ${Object.keys(cookies).length} cookie(s): ${Object.keys(cookies).join(', ')}. Wait for it with --wait next time.`,
      );
      return;
    }
    const done = await ctx.out.spin('Synchronizing', () =>
      waitForSync(http, id, timeoutMs, { now: () => ctx.now(), sleep: (ms) => ctx.sleep(ms) }),
    );
    await ctx.out.record(done, { title: 'Synchronization', columns: COLUMNS });
    if (syncCode(done) >= 400) {
      throw new ApiError(
        `synchronization failed (${String(done.status_code)}): ${String(done.status_text ?? 'unknown error')}; export fresh cookies and retry`,
      );
    }
    ctx.out.success(`Account ${String(done.account_hash ?? '')} synchronized`);
  },
});

function accountType(a: Account): string {
  if (typeof a.type === 'string' && a.type !== '') return a.type;
  throw new ApiError('the account record has no type; pass --type (see `sq accounts types`)');
}
