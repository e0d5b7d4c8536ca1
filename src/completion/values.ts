// `sq __complete <source> [-- <words of the command line>]`: the values a completion script offers that only the
// service (or the local profiles) knows: squid names, run ids, crawler slugs, accounts, account types, profile names.
// A Tab must never hang, prompt or print an error into the shell, so:
// - answers come from a small per-user cache (cacheDir()/complete, 0600) that lives COMPLETION_TTL_MS;
// - a stale answer is printed at once while a detached `sq __complete --refresh` renews it;
// - with no answer at all, the service is asked until COMPLETION_BUDGET_MS after the process started, then the
//   refresh goes on detached;
// - no key, an unreachable service, any error: nothing is offered, silently; a failure is kept for FAILURE_TTL_MS.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Ctx } from '../cli/context.js';
import type { HttpClient } from '../api/http.js';
import { cacheDir } from '../lib/cache-dir.js';
import { pruneCacheDir, readCacheFile, writeCacheFile } from '../lib/cache-file.js';
import { readGlobals } from '../cli/global-flags.js';
import { makeDirSync } from '../lib/regular-file.js';

const COMPLETION_TTL_MS = 60_000;
const COMPLETION_BUDGET_MS = 450;
const FAILURE_TTL_MS = 10_000;
/** A refresh that has not finished after this long is presumed dead: another may start. */
const REFRESH_LOCK_MS = 10_000;
const MAX_VALUES = 500;

const SOURCES = ['squids', 'runs', 'crawlers', 'accounts', 'account-types', 'profiles'] as const;
export type Source = (typeof SOURCES)[number];

/** A value and what it is (fish shows the description next to the value; bash and zsh take the value only). */
type Candidate = [value: string, description: string];

interface Line {
  profile?: string;
  baseUrl?: string;
  squid?: string;
}

/** `stop` cancels the requests in flight (they would otherwise hold the process open past its budget). */
export async function complete(ctx: Ctx, argv: string[], stop: () => void = () => undefined): Promise<number> {
  try {
    const refresh = argv[0] === '--refresh';
    const [source, ...rest] = refresh ? argv.slice(1) : argv;
    if (!(SOURCES as readonly string[]).includes(source)) return 0;
    const line = readLine(rest[0] === '--' ? rest.slice(1) : rest);
    ctx.globals = { ...readGlobals({ profile: line.profile, baseUrl: line.baseUrl }), quiet: true, input: false };
    const out = await answer(ctx, source as Source, line, refresh, argv, stop);
    if (out.length) ctx.io.stdout.write(out.map(([v, d]) => (d ? `${v}\t${d}` : v)).join('\n') + '\n');
  } catch {
    // Nothing to offer; the shell's screen stays clean.
  }
  return 0;
}

async function answer(
  ctx: Ctx,
  source: Source,
  line: Line,
  refresh: boolean,
  argv: string[],
  stop: () => void,
): Promise<Candidate[]> {
  const store = await ctx.config();
  if (source === 'profiles') return store.names().map((n) => [n, n === store.active ? 'active profile' : 'profile']);

  const { resolveAuth } = await import('../config/resolve.js');
  const auth = resolveAuth(ctx.globals, ctx.env, store);
  // No key: nothing to ask, and never a prompt.
  if (!auth.token) return [];
  const dir = cacheDir(ctx.env);
  const file =
    dir === undefined
      ? undefined
      : cacheFile(dir, auth.token, auth.baseUrl, source, source === 'runs' ? (line.squid ?? '') : '');
  const fetch = async () => {
    try {
      const values = await ask(await ctx.http(), source, line, ctx.now());
      if (file) save(file, values, ctx.now(), COMPLETION_TTL_MS);
      return values;
    } catch (err) {
      // A service that is down or refuses the key: the next Tabs offer nothing at once instead of asking again,
      // for a few seconds only, so a service just started is soon asked.
      if (file && !ctx.signal.aborted) save(file, [], ctx.now(), FAILURE_TTL_MS);
      throw err;
    }
  };
  if (refresh) {
    // A refresh that cannot finish gives up while it still holds its lock: refreshes never pile up.
    setTimeout(stop, REFRESH_LOCK_MS).unref();
    try {
      await fetch();
    } finally {
      if (file) rmSync(`${file}.refreshing`, { force: true });
    }
    return [];
  }
  const cached = file ? load(file) : undefined;
  if (cached && ctx.now() - cached.at < cached.ttl) return cached.values;
  if (cached) {
    if (file) refreshDetached(ctx, file, argv);
    return cached.values;
  }
  const budget = COMPLETION_BUDGET_MS - process.uptime() * 1000;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((r) => (timer = setTimeout(r, Math.max(0, budget), undefined)));
  const got = fetch().catch(() => [] as Candidate[]);
  const values = await Promise.race([got, late]);
  clearTimeout(timer);
  if (values) return values;
  // Too slow for this Tab: the next one will find the answer in the cache.
  stop();
  if (file) refreshDetached(ctx, file, argv);
  return [];
}

/** The questions asked of the service. Each is one or a few list requests, never a write. */
async function ask(http: HttpClient, source: Source, line: Line, now: number): Promise<Candidate[]> {
  const [{ items }, { SQUIDS_PATH }, { CRAWLERS_PATH }, { ACCOUNT_TYPE_PATHS, ACCOUNTS_PATH }, { RUNS_PATH }] =
    await Promise.all([
      import('../api/pages.js'),
      import('../api/squids.js'),
      import('../api/crawlers.js'),
      import('../api/accounts.js'),
      import('../api/runs.js'),
    ]);
  const list = async (path: string, maxItems = MAX_VALUES, query?: Record<string, string>) => {
    const out: Record<string, unknown>[] = [];
    for await (const r of items<Record<string, unknown>>(http, path, { maxItems, query })) out.push(r);
    return out;
  };
  const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
  const id = (r: Record<string, unknown>) => str(r.id ?? r.hash_value ?? r.hash);
  type R = Record<string, unknown>;
  // Names are what people type; a name two records share would be ambiguous, so those are offered by id.
  const byName = (rs: R[], name: (r: R) => string, what: (r: R) => string) => {
    const count = new Map<string, number>();
    for (const r of rs) count.set(name(r), (count.get(name(r)) ?? 0) + 1);
    return rs.map(
      (r): Candidate =>
        name(r) && count.get(name(r)) === 1 ? [name(r), `${what(r)} ${id(r)}`] : [id(r), `${what(r)} "${name(r)}"`],
    );
  };
  switch (source) {
    case 'squids':
      return byName(
        await list(SQUIDS_PATH),
        (s) => str(s.name),
        () => 'squid',
      );
    case 'crawlers':
      return (await list(CRAWLERS_PATH)).filter((c) => str(c.slug)).map((c) => [str(c.slug), str(c.name) || 'crawler']);
    case 'accounts':
      return byName(
        await list(ACCOUNTS_PATH),
        (a) => str(a.username),
        (a) => str(a.type) || 'account',
      );
    case 'account-types': {
      // The path the spec names first; the reference's spelling when that one is unknown (as `sq accounts types`).
      const types = await list(ACCOUNT_TYPE_PATHS[0]).catch(() => list(ACCOUNT_TYPE_PATHS[1]));
      return types.filter((t) => str(t.name)).map((t) => [str(t.name), str(t.domain) || 'account type']);
    }
    case 'runs': {
      const [{ resolveSquid }, { parseApiTime }, { relativeTime }] = await Promise.all([
        import('../api/resolve.js'),
        import('../lib/api-time.js'),
        import('../output/time.js'),
      ]);
      // The squid on the command line, else the first few squids: their recent runs, newest first across squids, each
      // described by its squid, status and age (zsh and fish show it beside the id).
      const squids = line.squid
        ? [await resolveSquid(http, line.squid)]
        : (await list(SQUIDS_PATH, 10)).map((s) => ({ id: id(s), name: str(s.name) }));
      const runs = await Promise.all(
        squids.map(async (s) =>
          (await list(RUNS_PATH, line.squid ? 50 : 10, { squid: s.id })).map((r) => ({
            r,
            squid: s.name || s.id,
            at: parseApiTime(r.started_at ?? r.created_at),
          })),
        ),
      );
      return runs
        .flat()
        .sort((a, b) => (b.at ?? -Infinity) - (a.at ?? -Infinity))
        .map(
          ({ r, squid, at }): Candidate => [
            id(r),
            [squid, str(r.status), at === null ? '' : relativeTime(at, now)].filter(Boolean).join(' · '),
          ],
        );
    }
    default:
      return [];
  }
}

/** --profile, --base-url and --squid as typed on the command line (quotes removed), which change the answer. */
function readLine(words: string[]): Line {
  const line: Line = {};
  const keys: Record<string, keyof Line> = { '--profile': 'profile', '--base-url': 'baseUrl', '--squid': 'squid' };
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '--') break;
    const eq = w.indexOf('=');
    const key = keys[eq > 0 ? w.slice(0, eq) : w];
    if (!key) continue;
    const value = eq > 0 ? w.slice(eq + 1) : words[++i];
    if (value !== undefined && value !== '') line[key] = unquote(value);
  }
  return line;
}

/** A word as a shell would read it: 'single', "double" and backslash quoting removed. */
function unquote(word: string): string {
  let out = '';
  let q: string | undefined;
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (q === "'") {
      if (c === "'") q = undefined;
      else out += c;
    } else if (c === '\\' && i + 1 < word.length) {
      out += word[++i];
    } else if (c === '"' || (c === "'" && !q)) {
      q = q === c ? undefined : (q ?? c);
    } else {
      out += c;
    }
  }
  return out;
}

function cacheFile(dir: string, token: string, baseUrl: string, source: string, extra: string): string {
  const h = createHash('sha256').update(`${token}\n${baseUrl}\n${source}\n${extra}`).digest('hex').slice(0, 32);
  return `${dir}/complete/${source}-${h}.json`;
}

function load(file: string): { at: number; ttl: number; values: Candidate[] } | undefined {
  try {
    const text = readCacheFile(file);
    if (text === undefined) return undefined;
    const data = JSON.parse(text) as { at?: unknown; ttl?: unknown; values?: unknown };
    if (typeof data.at !== 'number' || !Array.isArray(data.values)) return undefined;
    const values = data.values.filter(
      (v): v is Candidate => Array.isArray(v) && typeof v[0] === 'string' && typeof v[1] === 'string',
    );
    const ttl = typeof data.ttl === 'number' ? Math.min(data.ttl, COMPLETION_TTL_MS) : COMPLETION_TTL_MS;
    return { at: data.at, ttl, values };
  } catch {
    return undefined;
  }
}

function save(file: string, values: Candidate[], now: number, ttl: number): void {
  // A question not asked before (another key, service or squid): answers and refresh locks unused for a day go.
  pruneCacheDir(
    file.slice(0, file.lastIndexOf('/')),
    /^[a-z-]+-[0-9a-f]{32}\.json(\.refreshing|\.[0-9]+-[0-9a-z]+\.tmp)?$/,
    file,
    now,
  );
  writeCacheFile(file, JSON.stringify({ at: now, ttl, values: values.slice(0, MAX_VALUES) }));
}

/** Renews the cache in a process of its own, which outlives this one; one at a time per cache file. */
function refreshDetached(ctx: Ctx, file: string, argv: string[]): void {
  const launcher = process.argv[1];
  // Only from the installed launcher (bin/sq.js): in-process callers (tests) have no sq to start.
  if (!launcher || !/^sq(\.js)?$/.test(basename(launcher))) return;
  const lock = `${file}.refreshing`;
  try {
    makeDirSync(file.slice(0, file.lastIndexOf('/')));
    try {
      closeSync(openSync(lock, 'wx', 0o600));
    } catch {
      if (ctx.now() - lstatSync(lock).mtimeMs < REFRESH_LOCK_MS) return;
      writeFileSync(lock, '', { mode: 0o600 });
    }
    const child = spawn(process.execPath, [launcher, '__complete', '--refresh', ...argv], {
      detached: true,
      stdio: 'ignore',
      env: ctx.env as NodeJS.ProcessEnv,
    });
    child.on('error', () => rmSync(lock, { force: true }));
    child.unref();
  } catch {
    // No refresh this time.
  }
}
