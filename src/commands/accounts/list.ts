import { defineVerb } from '../../cli/command.js';
import { ACCOUNTS_PATH } from '../../api/accounts.js';
import { DEFAULT_LIMIT, pagingFlags, pagingOptions, printList } from '../../cli/paging.js';
import { ACCOUNT_COLUMNS } from './_shared/columns.js';

export default defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the platform accounts (site logins) squids can use, with their health and squids (GET /v1/accounts)',
  description:
    'STATUS is an HTTP-like code: 200 synchronized (healthy, what a run checks); 401 or 429 mean ' +
    'the account needs `sq accounts sync` again. RESETS IN: time until a reached daily limit resets; ' +
    'LOCKED SINCE: a run of another squid holds the account. SQUIDS: the squids linked to it.',
  options: pagingOptions(DEFAULT_LIMIT),
  examples: ['sq accounts list', 'sq accounts list --json --fields id,username,status'],
  async run(ctx, _args, opts) {
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    const http = await ctx.http();
    await printList(ctx, http, ACCOUNTS_PATH, {
      paging,
      noun: 'accounts',
      columns: ACCOUNT_COLUMNS,
      empty: 'No accounts. Add one: sq accounts sync --type TYPE --cookies-file FILE (types: sq accounts types)',
    });
  },
});
