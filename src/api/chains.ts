// Squid chains (api-reference §8, changelog 2026-04-28): when a run of the source squid ends DONE, its results become
// tasks of a target squid (created on the first fire) through `field_map`, and a run of it starts (origin "chain").
// One outgoing chain per squid; at most 3 squids in a chain. The chain pages answer errors as `{error: "<text>"}`.
import { ApiError, UsageError } from '../errors.js';
import type { HttpClient } from './http.js';
import { seg } from './path.js';

export interface Chain {
  id: string;
  target_module: { id: string; public_name: string; name: string; max_concurrency: number };
  /** null until the chain first fires. */
  target_cluster: { id: string; hash_value: string; name: string } | null;
  field_map: Record<string, string>;
  is_active: boolean;
  autostart: boolean;
  cluster_name: string | null;
  cluster_concurrency: number | null;
  created_at: string;
}

/** What a POST carries: the target crawler and the field map are fixed once created (PATCH takes the rest). */
export interface ChainCreate {
  target_module_id: string;
  field_map: Record<string, string>;
  autostart?: boolean;
  cluster_name?: string;
  cluster_concurrency?: number;
}

export type ChainUpdate = Partial<Pick<ChainCreate, 'autostart' | 'cluster_name' | 'cluster_concurrency'>>;

/** The chain's path of a squid, its id checked (the account plan's requests use it too). */
export function chainPath(squid: string): string {
  return `/v1/squids/${seg('squid id', squid)}/chain`;
}

/** The squid's chain, or null when it has none (200 with a null body); anything else that is not a chain is an API
 * error, never read as one. */
export async function getChain(http: HttpClient, squid: string): Promise<Chain | null> {
  const path = chainPath(squid);
  const c = await http.get<unknown>(path, { nullable: true });
  if (c === null || c === undefined) return null;
  if (
    typeof c === 'object' &&
    !Array.isArray(c) &&
    typeof (c as { id?: unknown }).id === 'string' &&
    (c as { id: string }).id !== ''
  )
    return c as Chain;
  const got = Array.isArray(c) ? 'an array' : typeof c === 'object' ? 'an object without an id' : typeof c;
  throw new ApiError(`the API answered GET ${path} with ${got} instead of a chain or null`);
}

export function createChain(http: HttpClient, squid: string, body: ChainCreate): Promise<Chain> {
  return http.post<Chain>(chainPath(squid), body);
}

export async function updateChain(http: HttpClient, squid: string, body: ChainUpdate): Promise<Chain> {
  return (await http.request<Chain>('PATCH', chainPath(squid), { body })).data;
}

/** Removes the link only: the target squid, its tasks and runs stay. 204, no body. */
export async function deleteChain(http: HttpClient, squid: string): Promise<void> {
  await http.delete(chainPath(squid));
}

const FIELD = /^[^\s=,\x00-\x1f\x7f]+$/;

/** `SRC=DST` pairs (a result field of the source squid → a task param of the target crawler) as a field_map. */
export function parseFieldMap(pairs: readonly string[], flag = '--field-map'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const src = eq < 0 ? '' : pair.slice(0, eq).trim();
    const dst = eq < 0 ? '' : pair.slice(eq + 1).trim();
    if (!FIELD.test(src) || !FIELD.test(dst)) {
      throw new UsageError(
        `${flag} must look like SOURCE_FIELD=TARGET_PARAM, e.g. url=url (a result field of the squid, ` +
          `then a task param of the target crawler; no spaces or commas), got ${JSON.stringify(pair)}`,
      );
    }
    // Own keys only: `constructor` or `toString` are field names like any other, never found on Object.prototype.
    if (Object.hasOwn(out, src)) {
      throw new UsageError(
        out[src] === dst
          ? `${flag}: source field "${src}" is given twice; give each once`
          : `${flag}: source field "${src}" is mapped twice (to "${out[src]}" and "${dst}")`,
      );
    }
    Object.defineProperty(out, src, { value: dst, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The sources of `fieldMap` that are none of `fields` (the source crawler's result columns); none when it is empty. */
export function unknownSources(fieldMap: Record<string, string>, fields: readonly string[]): string[] {
  if (fields.length === 0) return [];
  const known = new Set(fields);
  return Object.keys(fieldMap).filter((src) => !known.has(src));
}

/** Same field map, whatever the key order. */
export function sameFieldMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => b[k] === a[k]);
}
