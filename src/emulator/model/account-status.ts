// The list-accounts page's `status` filter. An account's status is an HTTP-like code as a string ("200" healthy, the
// condition a run checks; 401/429 mean re-sync). The vendor's MCP server picks a usable account with `?status=1`, a
// flag: 1 (or true) keeps the healthy accounts, 0 (or false) the others; any other value is matched as the code.
import type { AccountRecord } from './records.js';

const HEALTHY = '200';

/** The filter of `?status=…`, or null when none is given. */
export function statusFilter(given: string | null): ((account: AccountRecord) => boolean) | null {
  if (given === null || given === '') return null;
  const v = given.trim().toLowerCase();
  if (v === '1' || v === 'true') return (a) => a.status === HEALTHY;
  if (v === '0' || v === 'false') return (a) => a.status !== HEALTHY;
  return (a) => a.status === given.trim();
}
