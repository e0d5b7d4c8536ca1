// Fault injection rules for /v1 requests. Probabilities come from a seeded PRNG so a failing test
// replays the same sequence of faults.
import { STATUS_CODES } from 'node:http';
import { rateLimitBody } from './ratelimit.js';
import type { EmuResponse } from './types.js';

const FAULT_ACTIONS = [
  'status',
  'delay',
  'hang',
  'reset',
  'reset_mid_body',
  'truncate',
  'malformed',
  'html',
  'short_page',
  'envelope',
  'omit_fields',
] as const;
type FaultAction = (typeof FAULT_ACTIONS)[number];

export interface FaultRule {
  method?: string;
  path?: string;
  probability?: number;
  count?: number;
  action: FaultAction;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  ms?: number;
  /** `omit_fields`: the keys taken out of the answer's record, and out of each record of its `data`. */
  fields?: string[];
  /**
   * `status` only: the request is carried out first, and this answer sent in place of its own (a gateway that
   * redirects or fails after the app took the request: a run started, its answer a 307).
   */
  after?: boolean;
}

interface StoredRule extends FaultRule {
  remaining: number | null;
  fired: number;
}

/** mulberry32: tiny, fast, and deterministic for a given seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function validateRules(input: unknown): { seed: number; rules: FaultRule[] } | string {
  if (typeof input !== 'object' || input === null) return 'body must be an object {seed?, rules}';
  const { seed = 1, rules } = input as { seed?: unknown; rules?: unknown };
  if (typeof seed !== 'number' || !Number.isFinite(seed)) return 'seed must be a number';
  if (!Array.isArray(rules)) return 'rules must be an array';
  for (const [i, r] of rules.entries()) {
    if (typeof r !== 'object' || r === null) return `rules[${i}] must be an object`;
    const rule = r as Record<string, unknown>;
    if (!FAULT_ACTIONS.includes(rule.action as FaultAction))
      return `rules[${i}].action must be one of ${FAULT_ACTIONS.join(', ')}`;
    if (rule.method !== undefined && typeof rule.method !== 'string') return `rules[${i}].method must be a string`;
    if (rule.path !== undefined && typeof rule.path !== 'string') return `rules[${i}].path must be a string`;
    const p = rule.probability;
    if (p !== undefined && (typeof p !== 'number' || p < 0 || p > 1)) return `rules[${i}].probability must be 0..1`;
    const c = rule.count;
    if (c !== undefined && (typeof c !== 'number' || !Number.isInteger(c) || c < 0))
      return `rules[${i}].count must be a non-negative integer`;
    const s = rule.status;
    if (s !== undefined && (typeof s !== 'number' || !Number.isInteger(s) || s < 100 || s > 599))
      return `rules[${i}].status must be an HTTP status`;
    if (rule.after !== undefined && (typeof rule.after !== 'boolean' || rule.action !== 'status'))
      return `rules[${i}].after must be true or false, on a status rule`;
    const ms = rule.ms;
    if (ms !== undefined && (typeof ms !== 'number' || ms < 0)) return `rules[${i}].ms must be >= 0`;
    if (rule.headers !== undefined && (typeof rule.headers !== 'object' || rule.headers === null))
      return `rules[${i}].headers must be an object`;
    const f = rule.fields;
    if (
      (rule.action === 'omit_fields' || f !== undefined) &&
      (rule.action !== 'omit_fields' ||
        !Array.isArray(f) ||
        f.length === 0 ||
        !f.every((x) => typeof x === 'string' && x !== ''))
    )
      return `rules[${i}].fields must be a non-empty list of field names, on an omit_fields rule`;
    const b = rule.body;
    if (rule.action === 'envelope' && (typeof b !== 'object' || b === null || Array.isArray(b) || 'data' in b))
      return `rules[${i}].body must be an object of envelope fields (total_results, total_pages, next, …) without data`;
  }
  return { seed, rules: rules as FaultRule[] };
}

export class Faults {
  private rules: StoredRule[] = [];
  private seed = 1;
  private random = prng(1);

  set(seed: number, rules: FaultRule[]): void {
    this.seed = seed;
    this.random = prng(seed);
    this.rules = rules.map((r) => ({ ...r, remaining: r.count ?? null, fired: 0 }));
  }

  clear(): void {
    this.set(1, []);
  }

  list(): { seed: number; rules: (FaultRule & { remaining: number | null; fired: number })[] } {
    return { seed: this.seed, rules: this.rules.map((r) => ({ ...r })) };
  }

  /** The first matching rule with count left fires (subject to its probability). */
  pick(method: string, path: string): FaultRule | undefined {
    for (const r of this.rules) {
      if (r.method && r.method.toUpperCase() !== method.toUpperCase()) continue;
      if (r.path && !path.startsWith(r.path)) continue;
      if (r.remaining !== null && r.remaining <= 0) continue;
      const p = r.probability ?? 1;
      if (p < 1 && this.random() >= p) continue;
      if (r.remaining !== null) r.remaining--;
      r.fired++;
      return r;
    }
    return undefined;
  }
}

export function defaultErrorBody(status: number): unknown {
  if (status === 429) return rateLimitBody(1);
  if (status === 401) return { detail: 'Invalid token.' };
  if (status === 403) return { detail: 'You do not have permission to perform this action.' };
  if (status === 404) return { detail: 'Not found.' };
  if (status === 400) return { detail: 'Bad request.' };
  if (status >= 500) return { detail: 'A server error occurred.' };
  return { detail: `HTTP ${status}` };
}

/** What a proxy in front of the API answers when the app behind it is down. */
export function htmlPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>\n`;
}

/**
 * The real answer with the page's `data` cut to its first half and every counter left as it was: a page that comes
 * back short while its own `next` link says more follow. The last page (no `next`) is left whole: a short last page
 * looks like any last page (the documented samples' counters overstate totals), so no client could tell. An answer
 * that is not a page at all is a `status` rule with status 200 and that body.
 */
export function shortPage(r: EmuResponse): EmuResponse {
  const body = r.body as { data?: unknown; next?: unknown } | undefined;
  if (!body || typeof body !== 'object' || !Array.isArray(body.data) || typeof body.next !== 'string') return r;
  return { ...r, body: { ...body, data: body.data.slice(0, Math.floor(body.data.length / 2)) } };
}

/**
 * The real answer with the rule's envelope fields put over its own, its `data` untouched: counters that lie about a
 * page that is whole (`{"total_results": 300}` understated, `{"next": null}` on a full page while the counters say
 * more, `{"total_pages": 3}`). An answer that is not a page is left as it is.
 */
export function withEnvelope(r: EmuResponse, fields: unknown): EmuResponse {
  const body = r.body as { data?: unknown } | undefined;
  if (!body || typeof body !== 'object' || !Array.isArray(body.data) || typeof fields !== 'object' || fields === null)
    return r;
  return { ...r, body: { ...body, ...fields, data: body.data } };
}

/**
 * The real answer without `fields`: taken out of the record it is, and out of each record of its `data` (a run list
 * whose runs carry no created_at, an answer of an older or other deployment). Anything else is left as it is.
 */
export function omitFields(r: EmuResponse, fields: readonly string[]): EmuResponse {
  const strip = (v: unknown): unknown => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const out = { ...(v as Record<string, unknown>) };
    for (const f of fields) delete out[f];
    return out;
  };
  const body = r.body as { data?: unknown } | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return r;
  const top = strip(body) as { data?: unknown };
  if (Array.isArray(body.data)) top.data = body.data.map(strip);
  return { ...r, body: top };
}
