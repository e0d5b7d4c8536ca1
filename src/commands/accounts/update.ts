import { defineVerb } from '../../cli/command.js';
import { firstAccount, getAccount, limitKeys, parseLimits, updateLimits } from '../../api/accounts.js';
import { resolveAccount } from '../../api/resolve.js';
import { UsageError } from '../../errors.js';
import { nonEmpty } from '../../validate/index.js';
import { ACCOUNT_DETAIL_COLUMNS } from './_shared/columns.js';

export default defineVerb({
  name: 'update',
  summary: "Change an account's limits, e.g. profiles per day or the batch size (POST /v1/accounts)",
  description:
    '--limit KEY=VALUE is repeatable; VALUE is a whole number from 1 to the maximum the account type allows. The keys ' +
    "are the account type's (`sq accounts get <account> --json --jq .params.default` lists them with their maximum; " +
    'Sales Navigator has batch, profiles, searches and batch_hours). sq reads the account first (its type goes in the ' +
    'request) and refuses a key or value outside them, naming the allowed ones, before anything is written (exit 2). ' +
    'The account is named by its id, a unique id prefix (4+ characters) or its exact username.',
  args: ['<account>'],
  writes: true,
  options: [{ flags: '--limit <key=value>', description: 'set one limit (repeatable)', repeatable: true }],
  examples: [
    'sq accounts update jane.doe@acme.test --limit profiles=100',
    'sq accounts update 7c2d --limit batch=10 --limit batch_hours=2 --dry-run',
  ],
  async run(ctx, [ref], opts) {
    const given = nonEmpty('<account>', ref).trim();
    const limits = parseLimits(opts.limit ?? []);
    if (Object.keys(limits).length === 0)
      throw new UsageError('nothing to update: pass --limit KEY=VALUE (repeatable)');
    const http = await ctx.http();
    const { id } = await resolveAccount(http, given);
    const account = firstAccount(await getAccount(http, id), id);
    // A type that lists no limits takes none: every --limit is refused, never stored unchecked.
    const allowed = limitKeys(account) ?? {};
    const listed = Object.keys(allowed).length
      ? `allowed: ${Object.keys(allowed).join(', ')}`
      : 'it has no limits to set';
    for (const [key, value] of Object.entries(limits)) {
      // Own keys only: `constructor`, `toString`, `valueOf`… of Object.prototype are no limit of any account type.
      const max = Object.hasOwn(allowed, key) ? allowed[key] : undefined;
      const type = String(account.type ?? '?');
      if (max === undefined)
        throw new UsageError(
          `--limit ${key}: account type ${type} has no limit "${key}" (${listed}); nothing was sent`,
        );
      if (max !== null && value > max)
        throw new UsageError(`--limit ${key}=${value}: at most ${max} for account type ${type}; nothing was sent`);
    }
    const updated = await updateLimits(http, { account: id, type: account.type, params: limits });
    ctx.out.success(`Updated ${Object.keys(limits).join(', ')} of account ${String(account.username ?? id)}`);
    await ctx.out.record(updated ?? {}, {
      title: `Account ${String(account.username ?? id)}`,
      columns: ACCOUNT_DETAIL_COLUMNS,
    });
  },
});
