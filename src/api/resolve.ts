// Turning what a user typed (hash, hash prefix, name, slug, username) into a squid, crawler or account id. The API only takes hashes,
// and lists are paginated, so every page is searched: a name on page 2 must resolve as well as one on page 1.
import { editDistance } from '../lib/suggest.js';
import { stringOf, type Rec } from '../lib/guards.js';
import { NotFoundError, UsageError } from '../errors.js';
import type { HttpClient } from './http.js';
import { items, pages, saysMoreFollow } from './pages.js';
import { seg } from './path.js';
import type { Account, Crawler, Run, Squid, Task } from './records.js';

export interface Resolved<T = Rec> {
  id: string;
  name: string;
  /** The list record that matched; for a full hash no lookup is made and this is `{id}`. */
  record: T;
}

const FULL_HASH = /^[0-9a-f]{32}$/i;
const MIN_PREFIX = 4;
/** How many candidates an ambiguity error lists before "…and N more". */
const MAX_LISTED = 10;

export function isFullHash(ref: string): boolean {
  return FULL_HASH.test(ref);
}

export function recordId(r: Rec): string {
  const v = r.id ?? r.hash_value ?? r.hash;
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

export async function resolveSquid(http: HttpClient, ref: string): Promise<Resolved<Squid>> {
  return resolve(http, ref, { noun: 'squid', path: '/v1/squids', keys: ['name'], nameFilter: 'name' });
}

export async function resolveCrawler(http: HttpClient, ref: string): Promise<Resolved<Crawler>> {
  return resolve(http, ref, { noun: 'crawler', path: '/v1/crawlers', keys: ['name', 'slug'] });
}

/** Accounts by id, unique id prefix, or exact username (the site login shown by `sq accounts list`). */
export async function resolveAccount(http: HttpClient, ref: string): Promise<Resolved<Account>> {
  const r = await resolve(http, ref, { noun: 'account', path: '/v1/accounts', keys: ['username'] });
  return { ...r, name: r.name || stringOf(r.record.username) };
}

interface Kind {
  noun: string;
  path: string;
  /** Fields matched exactly (case-sensitive first, then case-insensitive if unique). */
  keys: string[];
  /** Query parameter that filters the list by name, when the endpoint has one. */
  nameFilter?: string;
  /** How a candidate is shown after its id (default: its name and slug). */
  describe?: (r: Rec) => string;
  /** The command that lists them, for the "not found" hint. */
  listHint?: string;
}

/** A hex id prefix shorter than a full hash: only these are looked up; anything else goes to the API as given. */
const ID_PREFIX = /^[0-9a-f]{4,31}$/i;
/** Requests a prefix search may make before asking for --squid or the full id (client pacing makes 30 about 10 s). */
const MAX_SCAN_REQUESTS = 30;

interface ChildOptions {
  /** A squid reference (id, prefix or name) that narrows the search to that squid's records. */
  squid?: string;
}

/** Runs and tasks by full id or unique id prefix, looked up in --squid's records, else in every squid's (their lists
 * need ?squid=). The scan is complete, so a unique match is really unique, but capped at MAX_SCAN_REQUESTS. */
export async function resolveRun(http: HttpClient, ref: string, opts: ChildOptions = {}): Promise<Resolved<Run>> {
  return resolveChild(http, ref, opts, {
    noun: 'run',
    path: '/v1/runs',
    keys: [],
    describe: (r) =>
      [stringOf(r.status), stringOf(r.created_at), stringOf(r.squid_name) && `squid "${stringOf(r.squid_name)}"`]
        .filter(Boolean)
        .join('  '),
    listHint: 'sq runs list',
  });
}

export async function resolveTask(http: HttpClient, ref: string, opts: ChildOptions = {}): Promise<Resolved<Task>> {
  return resolveChild(http, ref, opts, {
    noun: 'task',
    path: '/v1/tasks',
    keys: [],
    describe: (r) =>
      [taskLabel(r), stringOf(r.squid_name) && `squid "${stringOf(r.squid_name)}"`].filter(Boolean).join('  '),
    listHint: 'sq tasks list --squid <squid>',
  });
}

/** True when `ref` would be looked up as an id prefix (and not sent to the API as it is). */
export function isIdPrefix(ref: string): boolean {
  return ID_PREFIX.test(ref.trim());
}

function taskLabel(r: Rec): string {
  const p = r.params;
  if (p && typeof p === 'object') {
    const first = Object.values(p as Record<string, unknown>)[0];
    if (first !== undefined) return String(first).slice(0, 60);
  }
  return '';
}

async function resolveChild(http: HttpClient, rawRef: string, opts: ChildOptions, kind: Kind): Promise<Resolved> {
  const ref = rawRef.trim();
  seg(`${kind.noun} id`, ref);
  // A full hash, or anything that cannot be a prefix of one, goes to the API as given: it reports 404 itself.
  if (!ID_PREFIX.test(ref)) return { id: ref, name: '', record: { id: ref } };
  let requests = 0;
  const tooMany = () =>
    new UsageError(
      `"${ref}" is a ${kind.noun} id prefix, and finding it would take more than ${MAX_SCAN_REQUESTS} requests; ` +
        `pass the full id${opts.squid === undefined ? ' or narrow the search with --squid' : ''}`,
    );
  let squids: Squid[];
  if (opts.squid !== undefined) squids = [(await resolveSquid(http, opts.squid)).record];
  else {
    squids = [];
    for await (const p of pages<Squid>(http, '/v1/squids', { pageSize: 100 })) {
      squids.push(...p.data.filter((r) => r && typeof r === 'object'));
      if (++requests >= MAX_SCAN_REQUESTS && saysMoreFollow(p)) throw tooMany();
    }
  }
  const all: Rec[] = [];
  for (const s of squids) {
    const squidId = recordId(s);
    if (kind.noun === 'run' && s.total_runs === 0) continue;
    if (requests >= MAX_SCAN_REQUESTS) throw tooMany();
    for await (const p of pages<Rec>(http, kind.path, { pageSize: 100, query: { squid: squidId } })) {
      for (const r of p.data)
        if (r && typeof r === 'object') all.push({ ...r, squid_id: squidId, squid_name: stringOf(s.name) });
      if (++requests >= MAX_SCAN_REQUESTS && saysMoreFollow(p)) throw tooMany();
    }
  }
  const where =
    opts.squid === undefined
      ? `across ${squids.length} squid${squids.length === 1 ? '' : 's'}`
      : `in squid "${stringOf(squids[0]?.name) || recordId(squids[0])}"`;
  return found(pick(all, ref, { ...kind, noun: kind.noun, where }));
}

async function resolve(http: HttpClient, rawRef: string, kind: Kind): Promise<Resolved> {
  const ref = rawRef.trim();
  if (ref === '') throw new UsageError(`a ${kind.noun} id, id prefix or name is required (got "")`);
  // A full hash is taken as given: a lookup would only cost a request, and the endpoint reports 404 itself.
  if (isFullHash(ref)) return { id: ref.toLowerCase(), name: '', record: { id: ref.toLowerCase() } };

  // Something that cannot be an id prefix can only match a name: the server-side name filter narrows the scan, and
  // matching stays exact here. A miss falls back to the full list.
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

function found(match: Rec): Resolved {
  return { id: recordId(match), name: stringOf(match.name), record: match };
}

async function collect(http: HttpClient, path: string, query?: Record<string, string>): Promise<Rec[]> {
  const all: Rec[] = [];
  for await (const r of items<Rec>(http, path, { pageSize: 100, query })) {
    if (r && typeof r === 'object') all.push(r);
  }
  return all;
}

/** Pure matching over the full list; exported for tests. */
export function pick(
  all: Rec[],
  ref: string,
  kind: Pick<Kind, 'noun' | 'keys' | 'describe' | 'listHint'> & { where?: string },
): Rec {
  const exactId = all.filter((r) => recordId(r) === ref);
  if (exactId.length >= 1) return exactId[0];

  const exact = all.filter((r) => kind.keys.some((k) => stringOf(r[k]) === ref));
  if (exact.length > 1) ambiguous(ref, exact, kind, 'have that exact name');

  const lower = ref.toLowerCase();
  const prefixed = ref.length >= MIN_PREFIX ? all.filter((r) => recordId(r).toLowerCase().startsWith(lower)) : [];
  // An exact name does not beat another record's id prefix either: the prefix a table shows (`0cc85ca9`) must never
  // act on a different record that happens to be named `0cc85ca9`.
  if (exact.length === 1) {
    const both = dedupe([...exact, ...prefixed]);
    if (both.length === 1) return exact[0];
    ambiguous(ref, both, kind, 'match it by exact name or id prefix');
  }

  // Case-insensitive names and id prefixes rank equally: if both find something different, the user must choose.
  const folded = all.filter((r) => kind.keys.some((k) => stringOf(r[k]).toLowerCase() === lower));
  const candidates = dedupe([...folded, ...prefixed]);
  if (candidates.length === 1) return candidates[0];
  if (candidates.length > 1) ambiguous(ref, candidates, kind, 'match it');

  const searched = `${all.length} ${kind.noun}${all.length === 1 ? '' : 's'}${kind.where ? ` ${kind.where}` : ''}`;
  const by = ['id', ...kind.keys].join(', ');
  const short = ref.length < MIN_PREFIX ? `; id prefixes need at least ${MIN_PREFIX} characters` : '';
  // Names are matched exactly (a substring could silently pick the wrong squid), but a near miss is worth naming.
  let near = all
    .filter((r) => kind.keys.some((k) => stringOf(r[k]).toLowerCase().includes(lower)))
    .slice(0, MAX_LISTED);
  if (near.length === 0 && ref.length >= MIN_PREFIX) near = nearestIds(all, lower);
  const suggestions = near.map((r) => line(r, kind));
  throw new NotFoundError(`no ${kind.noun} matches "${ref}" (searched ${searched} by ${by}${short})`, {
    details: suggestions.length
      ? [`did you mean:`, ...suggestions]
      : [`list them with: ${kind.listHint ?? `sq ${kind.noun}s list`}`],
  });
}

/** Ids whose start is within a typo or two of the prefix (edit distance on the same length), closest first. */
function nearestIds(all: Rec[], lower: string): Rec[] {
  const allowed = Math.max(1, Math.floor(lower.length / 4));
  return all
    .map((r) => ({ r, d: editDistance(lower, recordId(r).toLowerCase().slice(0, lower.length)) }))
    .filter((x) => x.d <= allowed)
    .sort((a, b) => a.d - b.d)
    .slice(0, 5)
    .map((x) => x.r);
}

function line(r: Rec, kind: Pick<Kind, 'describe'>): string {
  const rest = kind.describe
    ? kind.describe(r)
    : `${stringOf(r.name)}${stringOf(r.slug) ? `  (${stringOf(r.slug)})` : ''}`;
  return `  ${recordId(r)}  ${rest}`;
}

function dedupe(rs: Rec[]): Rec[] {
  const seen = new Set<string>();
  return rs.filter((r) => {
    const id = recordId(r);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function ambiguous(ref: string, rs: Rec[], kind: Pick<Kind, 'noun' | 'describe'>, how: string): never {
  const lines = rs.slice(0, MAX_LISTED).map((r) => line(r, kind));
  if (rs.length > MAX_LISTED) lines.push(`  …and ${rs.length - MAX_LISTED} more`);
  throw new UsageError(`"${ref}" is ambiguous: ${rs.length} ${kind.noun}s ${how}; pass a full id or a longer prefix`, {
    details: lines,
  });
}
