import type { Column } from '../../../output/types.js';

const squidNames = (v: unknown) =>
  Array.isArray(v)
    ? v
        .map((s) => (s && typeof s === 'object' ? String((s as Record<string, unknown>).name ?? '') : String(s)))
        .join(', ')
    : '';

/** resets_in is in seconds: "5h 12m". */
const seconds = (n: number): string => {
  const h = Math.floor(n / 3600);
  const m = Math.floor((n % 3600) / 60);
  return h ? `${h}h ${m}m` : m ? `${m}m` : `${Math.max(0, Math.round(n))}s`;
};

/** Account health (changelog: status "200" is healthy; resets_in while a limit is reached; lock_time while a run of another squid holds it). */
export const ACCOUNT_COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'username', maxWidth: 30 },
  { key: 'type' },
  { key: 'status' },
  { key: 'status_code_info', header: 'STATE', kind: 'status' },
  { key: 'resets_in', header: 'RESETS IN', format: (v) => (typeof v === 'number' ? seconds(v) : '') },
  { key: 'lock_time', header: 'LOCKED SINCE', kind: 'time' },
  { key: 'last_synchronization_time', header: 'LAST SYNC', kind: 'time' },
  { key: 'squids', format: squidNames, maxWidth: 40 },
];

export const ACCOUNT_DETAIL_COLUMNS: Column[] = [
  ...ACCOUNT_COLUMNS.map((c) => ({ ...c, header: c.header?.toLowerCase() ?? c.key, maxWidth: undefined })),
  { key: 'status_code_description', header: 'description' },
  {
    key: 'params.user',
    header: 'limits (user)',
    format: (v) => (v === undefined || v === null ? '' : JSON.stringify(v)),
  },
  { key: 'updated_at', header: 'updated', kind: 'time' },
  { key: 'created_at', header: 'created', kind: 'time' },
];

const cookieNames = (v: unknown) =>
  Array.isArray(v)
    ? v.length === 0
      ? '(all session cookies)'
      : v
          .map(
            (c): Record<string, unknown> => (c && typeof c === 'object' ? (c as Record<string, unknown>) : { name: c }),
          )
          .map((c) => `${String(c.name)}${c.required === false ? '' : '*'}`)
          .join(', ')
    : '';

export const TYPE_COLUMNS: Column[] = [
  { key: 'name' },
  { key: 'domain' },
  { key: 'baseurl', header: 'BASE URL' },
  { key: 'cookies', header: 'COOKIES (* required)', format: cookieNames },
  { key: 'id' },
];
