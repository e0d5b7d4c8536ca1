// accounts_list, accounts_get: metadata and health only, never cookies or credentials.
import { idOutput, listInput, listOutput, listPage, rec, type ToolDef, verbRec } from './kit.js';
import type { Rec } from '../../lib/guards.js';
import type { Account } from '../../api/records.js';

export const accountsList: ToolDef = {
  name: 'accounts_list',
  title: 'List accounts',
  access: 'read',
  description: 'The platform accounts (logins some crawlers need), metadata only: never cookies or credentials.',
  input: (z) => listInput(z, 'accounts'),
  output: listOutput,
  run: (t, a) => listPage(t, a, 'accounts_list', ['accounts', 'list'], accountRow),
};

export const accountsGet: ToolDef = {
  name: 'accounts_get',
  title: 'Show an account',
  access: 'read',
  description:
    'One account\'s metadata and health (status "200" = usable; lock_time, resets_in): never cookies or credentials.',
  input: (z) => ({ account: z.string().min(1).describe('account id, id prefix or username') }),
  output: idOutput,
  run: async (t, a) => accountRow(await verbRec(t, ['accounts', 'get', '--', String(a.account)])),
};
/** An account's metadata: never its cookies, credentials or parameter tables. */
function accountRow(a: Account): Rec {
  return rec({
    id: a.id,
    username: a.username,
    type: a.type,
    status: a.status,
    status_code_info: a.status_code_info,
    created_at: a.created_at,
    last_synchronization_time: a.last_synchronization_time,
    resets_in: a.resets_in,
    lock_time: a.lock_time,
    squids: a.squids,
  });
}
