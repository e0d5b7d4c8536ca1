// Squid endpoints and the --param parsing shared by the squid verbs.
import { UsageError } from '../errors.js';
import type { HttpClient } from './http.js';
import { seg } from './path.js';
import { checks } from './checks.js';
import type { Rec } from '../lib/guards.js';
import type { Squid } from './records.js';

/** `k=v` → value: a string unless it is valid JSON (`zip=01234` stays "01234", `max=5` is 5, `tags=["a"]` an array).
 * `functions.contacts=true` sets one paid function. */
export function parseParams(pairs: readonly string[], flag = '--param'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} must look like key=value (got ${JSON.stringify(pair)})`);
    const key = pair.slice(0, eq).trim();
    const value = typedValue(pair.slice(eq + 1));
    if (key === '') throw new UsageError(`${flag} must look like key=value (got ${JSON.stringify(pair)})`);
    if (/[\x00-\x1f\x7f-\x9f]/.test(key))
      throw new UsageError(`${flag} key ${JSON.stringify(key)} must not contain control characters`);
    const fn = /^functions\.(.+)$/.exec(key);
    if (fn) {
      if (typeof value !== 'boolean')
        throw new UsageError(`${flag} ${key} must be true or false (got ${JSON.stringify(pair.slice(eq + 1))})`);
      const fns = (out.functions && typeof out.functions === 'object' ? out.functions : {}) as Record<string, unknown>;
      out.functions = { ...fns, [fn[1]]: value };
    } else {
      out[key] = value;
    }
  }
  return out;
}

function typedValue(text: string): unknown {
  const t = text.trim();
  if (t === '') return text;
  try {
    return JSON.parse(t);
  } catch {
    return text;
  }
}

export const SQUIDS_PATH = '/v1/squids';

export function squidPath(id: string, sub = ''): string {
  return `${SQUIDS_PATH}/${seg('squid id', id)}${sub}`;
}

export function getSquid<T = Squid>(http: HttpClient, id: string): Promise<T> {
  return http.get<T>(squidPath(id), { expect: checks.squid });
}

export function createSquid(http: HttpClient, body: Rec): Promise<Squid> {
  return http.post<Squid>(SQUIDS_PATH, body, { expect: checks.squid });
}

/** The API updates with POST on the squid itself. */
export function updateSquid(http: HttpClient, id: string, body: Rec): Promise<unknown> {
  return http.post(squidPath(id), body);
}

/**
 * The params to send for `changes`: the API's params update is a REPLACE (a key left out is dropped, `functions`
 * included), so every writer sends the live params with its changes laid over them; `functions` merges by name.
 */
export function withLiveParams(live: unknown, changes: Rec): Rec {
  const base: Rec = live && typeof live === 'object' && !Array.isArray(live) ? { ...(live as Rec) } : {};
  const out: Rec = { ...base, ...changes };
  const fns = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
  if (changes.functions !== undefined || base.functions !== undefined)
    out.functions = { ...fns(base.functions), ...fns(changes.functions) };
  return out;
}

/** Sets `changes` on the squid's params without dropping the others: reads the live params, sends them whole. */
export async function updateSquidParams(http: HttpClient, id: string, changes: Rec, extra: Rec = {}): Promise<unknown> {
  const squid = await getSquid(http, id);
  return updateSquid(http, id, { ...extra, params: withLiveParams(squid?.params, changes) });
}

export function deleteSquid(http: HttpClient, id: string): Promise<unknown> {
  return http.delete(squidPath(id));
}

export function emptySquid(http: HttpClient, id: string, type: string): Promise<Rec> {
  return http.post<Rec>(squidPath(id, '/empty'), { type });
}
