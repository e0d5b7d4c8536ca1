import { isIdPrefix, resolveAccount } from '../../api/resolve.js';
import { defineVerb } from '../../command.js';
import { parseCookies, startSync, syncCode, waitForSync } from '../../api/accounts.js';
import { ApiError, UsageError } from '../../errors.js';
import { readInput } from '../../io/stdin.js';
import { durationFlag, nonEmpty, required } from '../../validate/index.js';

const DEFAULT_TIMEOUT_MS = 2 * 60_000;
const COLUMNS = [{ key: 'id' }, { key: 'status_code', header: 'status' }, { key: 'status_text', header: 'state' }, { key: 'account_hash', header: 'account' }];

export default defineVerb({
  name: 'sync',
  writes: true,
  summary: 'Create or refresh an account from browser cookies (POST /v1/synchronize)',
  description:
    '--cookies-file takes a JSON object {"name": "value"}, a JSON array of {name, value} (browser export), or a ' +
    'Netscape cookies.txt; "-" reads stdin. Cookie values are secrets: sq never prints them, not even with --dry-run. ' +
    '--account refreshes an existing account. --wait polls until synchronized (exit 0) or failed (exit 1).',
  options: [
    { flags: '--type <type>', description: 'account type name, see `sq accounts types` (required)', complete: 'account-type' },
    { flags: '--cookies-file <file>', description: 'cookies export; "-" for stdin (required)' },
    { flags: '--account <id>', description: 'refresh this existing account instead of creating one (id or id prefix)' },
    { flags: '--wait', description: 'wait until the synchronization succeeds or fails' },
    { flags: '--timeout <duration>', description: 'give up waiting after this long, at most 7d (with --wait)', defaultText: '2m' },
  ],
  examples: ['sq accounts sync --type twitter-sync --cookies-file cookies.json --wait', 'sq accounts sync --type sales-nav-sync --cookies-file cookies.txt --account 7c2d9e4f0a1b4c3d8e5f6a7b8c9d0e1f'],
  async run(ctx, _args, opts) {
    const type = nonEmpty('--type', required('--type', opts.type, 'see `sq accounts types`')).trim();
    const file = required('--cookies-file', opts.cookiesFile, 'a JSON or cookies.txt export of the site\'s cookies');
    if (opts.timeout !== undefined && !opts.wait) throw new UsageError('--timeout only applies with --wait');
    const timeoutMs = opts.timeout === undefined ? DEFAULT_TIMEOUT_MS : durationFlag('--timeout', opts.timeout);
    const account = opts.account === undefined ? undefined : nonEmpty('--account', opts.account).trim();
    const text = await readInput(ctx, '--cookies-file', file);
    const cookies = parseCookies(text);
    const body: Record<string, unknown> = { type, cookies };
    if (account !== undefined) body.account = account;

    const http = await ctx.http();
    // The 8-character ids `sq accounts list` shows: a prefix is looked up (a GET); a full id goes as given.
    if (account !== undefined && isIdPrefix(account)) body.account = (await resolveAccount(http, account)).id;
    const started = await startSync(http, body);
    const id = String(started?.id ?? '');
    if (!opts.wait) {
      await ctx.out.record(started, { title: 'Synchronization started', columns: COLUMNS });
      ctx.out.info(`Sent ${Object.keys(cookies).length} cookie(s): ${Object.keys(cookies).join(', ')}. Wait for it with --wait next time.`);
      return;
    }
    const done = await ctx.out.spin('Synchronizing', () => waitForSync(http, id, timeoutMs, { now: () => ctx.now(), sleep: (ms) => ctx.sleep(ms) }));
    await ctx.out.record(done, { title: 'Synchronization', columns: COLUMNS });
    if (syncCode(done) >= 400) {
      throw new ApiError(`synchronization failed (${String(done.status_code)}): ${String(done.status_text ?? 'unknown error')}; export fresh cookies and retry`);
    }
    ctx.out.success(`Account ${String(done.account_hash ?? '')} synchronized`);
  },
});
