// Turning what a user typed (hash, hash prefix, name, slug, username) into a squid, crawler or account id. The API only takes hashes,
// and lists are paginated, so every page is searched: a name on page 2 must resolve as well as one on page 1.
import { NotFoundError, UsageError } from '../errors.js';
import type { HttpClient } from './http.js';
import { items } from './pages.js';

export type ApiRecord = Record<string, unknown>;

export interface Resolved {
  id: string;
  name: string;
  /** The list record that matched; for a full hash no lookup is made and this is `{id}`. */
  record: ApiRecord;
}

const FULL_HASH = /^[0-9a-f]{32}$/i;
const MIN_PREFIX = 4;
/** How many candidates an ambiguity error lists before "…and N more". */
const MAX_LISTED = 10;

export function isFullHash(ref: string): boolean {
  return FULL_HASH.test(ref);
}

export function recordId(r: ApiRecord): string {
  const v = r.id ?? r.hash_value ?? r.hash;
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export async function resolveSquid(http: HttpClient, ref: string): Promise<Resolved> {
  return resolve(http, ref, { noun: 'squid', path: '/v1/squids', keys: ['name'], nameFilter: 'name' });
}

export async function resolveCrawler(http: HttpClient, ref: string): Promise<Resolved> {
  return resolve(http, ref, { noun: 'crawler', path: '/v1/crawlers', keys: ['name', 'slug'] });
}

/** Accounts by id, unique id prefix, or exact username (the site login shown by `sq accounts list`). */
export async function resolveAccount(http: HttpClient, ref: string): Promise<Resolved> {
  const r = await resolve(http, ref, { noun: 'account', path: '/v1/accounts', keys: ['username'] });
  return { ...r, name: r.name || str(r.record.username) };
}

interface Kind {
  noun: string;
  path: string;
  /** Fields matched exactly (case-sensitive first, then case-insensitive if unique). */
  keys: string[];
  /** Query parameter that filters the list by name, when the endpoint has one. */
  nameFilter?: string;
}

async function resolve(http: HttpClient, rawRef: string, kind: Kind): Promise<Resolved> {
  const ref = rawRef.trim();
  if (ref === '') throw new UsageError(`a ${kind.noun} id, id prefix or name is required (got "")`);
  // A full hash is taken as given: a lookup would only cost a request, and the endpoint reports 404 itself.
  if (isFullHash(ref)) return { id: ref.toLowerCase(), name: '', record: { id: ref.toLowerCase() } };

  // Something that cannot be an id prefix can only match a name: the server-side name filter (a case-insensitive
  // substring) narrows the scan, and matching stays exact here. A miss falls back to the full list, in case the
  // filter behaves differently than documented.
  if (kind.nameFilter && !HEXISH.test(ref)) {
    const narrowed = await collect(http, kind.path, { [kind.nameFilter]: ref });
    try {
      return found(pick(narrowed, ref, kind));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
  return found(pick(await collect(http, kind.path), ref, kind));
}

const HEXISH = /^[0-9a-f]{4,}$/i;

function found(match: ApiRecord): Resolved {
  return { id: recordId(match), name: str(match.name), record: match };
}

async function collect(http: HttpClient, path: string, query?: Record<string, string>): Promise<ApiRecord[]> {
  const all: ApiRecord[] = [];
  for await (const r of items<ApiRecord>(http, path, { pageSize: 100, query })) {
    if (r && typeof r === 'object') all.push(r);
  }
  return all;
}

/** Pure matching over the full list; exported for tests. */
export function pick(all: ApiRecord[], ref: string, kind: Pick<Kind, 'noun' | 'keys'>): ApiRecord {
  const exactId = all.filter((r) => recordId(r) === ref);
  if (exactId.length >= 1) return exactId[0];

  const exact = all.filter((r) => kind.keys.some((k) => str(r[k]) === ref));
  if (exact.length === 1) return exact[0];
  if (exact.length > 1) ambiguous(ref, exact, kind.noun, 'have that exact name');

  // Case-insensitive names and id prefixes rank equally: if both find something different, the user must choose.
  const lower = ref.toLowerCase();
  const folded = all.filter((r) => kind.keys.some((k) => str(r[k]).toLowerCase() === lower));
  const prefixed = ref.length >= MIN_PREFIX ? all.filter((r) => recordId(r).toLowerCase().startsWith(lower)) : [];
  const candidates = dedupe([...folded, ...prefixed]);
  if (candidates.length === 1) return candidates[0];
  if (candidates.length > 1) ambiguous(ref, candidates, kind.noun, 'match it');

  const searched = `${all.length} ${kind.noun}${all.length === 1 ? '' : 's'}`;
  const by = ['id', ...kind.keys].join(', ');
  const short = ref.length < MIN_PREFIX ? `; id prefixes need at least ${MIN_PREFIX} characters` : '';
  // Names are matched exactly (a substring could silently pick the wrong squid), but a near miss is worth naming.
  const near = all.filter((r) => kind.keys.some((k) => str(r[k]).toLowerCase().includes(lower))).slice(0, MAX_LISTED);
  const suggestions = near.map((r) => `  ${recordId(r)}  ${str(r.name)}`);
  throw new NotFoundError(`no ${kind.noun} matches "${ref}" (searched ${searched} by ${by}${short})`, {
    details: suggestions.length ? [`did you mean:`, ...suggestions] : [`list them with: sq ${kind.noun}s list`],
  });
}

function dedupe(rs: ApiRecord[]): ApiRecord[] {
  const seen = new Set<string>();
  return rs.filter((r) => {
    const id = recordId(r);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function ambiguous(ref: string, rs: ApiRecord[], noun: string, how: string): never {
  const lines = rs.slice(0, MAX_LISTED).map((r) => `  ${recordId(r)}  ${str(r.name)}${str(r.slug) ? `  (${str(r.slug)})` : ''}`);
  if (rs.length > MAX_LISTED) lines.push(`  …and ${rs.length - MAX_LISTED} more`);
  throw new UsageError(`"${ref}" is ambiguous: ${rs.length} ${noun}s ${how}; pass a full id or a longer prefix`, {
    details: lines,
  });
}
