// How accounts link to a squid (link-account-to-squid page; api-changelog, "accounts on update"): the update's
// `accounts` is a full replace ([] or null unlinks all); each account must be one of this user's, of the type the
// squid's crawler uses, else AccountDoesNotExist, as the page names it; a crawler that uses no account ignores the
// field (nothing stored). GET /v1/squids/{id} shows the links as the vendor's SDK 0.7 reads them, [{id, status}],
// so a client that reads them, merges and writes them back keeps the existing ones; it may send back either the
// ids or those objects.
import { defOf } from '../crawlers.js';
import type { EmuCore } from '../emu.js';
import { isRecord } from '../util.js';
import type { SquidRecord } from './records.js';
import * as store from './store.js';

export type LinkCheck = { ok: true; ids: string[]; ignored: boolean } | { ok: false; message: string };

/** The account type the squid's crawler uses, or null when it uses none. */
export function accountTypeOf(emu: EmuCore, squid: SquidRecord): string | null {
  const crawler = store.record(emu, 'crawlers', String(squid.crawler));
  return crawler ? (defOf(crawler).account?.type ?? null) : null;
}

/** An entry of the list as sent: an id, or the {id, …} object GET /v1/squids/{id} shows. */
function idOf(entry: unknown): string | null {
  if (typeof entry === 'string') return entry;
  return isRecord(entry) && typeof entry.id === 'string' ? entry.id : null;
}

/** The accounts an update's `accounts` value links (deduplicated, in the order sent), or why it is refused. */
export function checkLinks(emu: EmuCore, squid: SquidRecord, value: unknown): LinkCheck {
  if (value === null) return { ok: true, ids: [], ignored: false };
  const ids = Array.isArray(value) ? value.map(idOf) : null;
  if (!ids || ids.some((id) => id === null))
    return { ok: false, message: 'accounts must be a list of account hashes (InvalidParamType).' };
  const type = accountTypeOf(emu, squid);
  if (type === null) return { ok: true, ids: [], ignored: true };
  for (const id of ids as string[]) {
    const account = store.record(emu, 'accounts', id);
    if (!account || account.type !== type)
      return { ok: false, message: `Account ${id} does not exist among your ${type} accounts (AccountDoesNotExist).` };
  }
  return { ok: true, ids: [...new Set(ids as string[])], ignored: false };
}

/** The ids linked to a squid (accounts deleted since are gone). */
export function linkedIds(emu: EmuCore, squid: SquidRecord): string[] {
  return squid.accounts.filter((id) => store.record(emu, 'accounts', id) !== undefined);
}

/** `accounts` as GET /v1/squids/{id} shows it to SDK 0.7: only for a crawler that uses accounts, [{id, status}]. */
export function linksView(emu: EmuCore, squid: SquidRecord): { accounts?: { id: string; status: string }[] } {
  if (accountTypeOf(emu, squid) === null) return {};
  const linked = squid.accounts.flatMap((id) => store.record(emu, 'accounts', id) ?? []);
  return { accounts: linked.map((a) => ({ id: a.id, status: String(a.status) })) };
}
