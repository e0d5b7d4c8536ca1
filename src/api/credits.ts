// Credit endpoints (changelog 2026-05-06 to 2026-06-02): a run's per-function breakdown, and the account's views by
// crawler ("module"), by squid and by run of one squid. Read tolerantly: only the run endpoint has a docs sample.
import type { HttpClient } from './http.js';
import { isRecord, type Rec } from '../lib/guards.js';
import { seg } from './path.js';
import { ApiError } from '../errors.js';

export const CREDIT_SQUIDS_PATH = '/v1/credits/squids';
const MODULES_PATH = '/v1/credits/modules';

export async function getRunCredits(http: HttpClient, runId: string): Promise<Rec> {
  const path = `/v1/runs/${seg('run id', runId)}/credits`;
  return creditDocument(await http.get<unknown>(path), path, 'breakdown');
}

export async function getModuleCredits(http: HttpClient, days?: number): Promise<Rec> {
  return creditDocument(
    await http.get<unknown>(MODULES_PATH, days === undefined ? {} : { query: { days } }),
    MODULES_PATH,
    'data',
  );
}

/** Tolerant of the fields, not of an answer that is no credit document at all (it would print an empty table and
 * exit 0, as if nothing had been spent). */
function creditDocument(body: unknown, path: string, list: string): Rec {
  if (isRecord(body) && (Array.isArray(body[list]) || typeof body.total_credits === 'number')) return body;
  const got = Array.isArray(body)
    ? 'an array'
    : body === null
      ? 'null'
      : isRecord(body)
        ? `an object without "${list}" or "total_credits"`
        : typeof body;
  throw new ApiError(`the API answered GET ${path} with ${got} instead of a credit document`);
}

export function squidCreditsPath(squidId: string): string {
  return `/v1/squids/${seg('squid id', squidId)}/credits`;
}

export interface BreakdownRow extends Rec {
  function: string;
  credits: unknown;
  attempts: unknown;
}

/** `breakdown` rows of a run (or of a module), each with the rate it was charged at when `rates` names it. */
export function breakdownRows(body: unknown, rates?: unknown): BreakdownRow[] {
  const list = isRecord(body) && Array.isArray(body.breakdown) ? body.breakdown.filter(isRecord) : [];
  const r = isRecord(rates) ? rates : {};
  return list.map((b) => {
    const fn = typeof b.function === 'string' ? b.function : String(b.function ?? '');
    const rate = fn === 'base' ? r.credits_per_row : r[fn];
    return {
      ...b,
      function: fn,
      credits: b.credits ?? null,
      attempts: b.attempts ?? null,
      ...(rates === undefined ? {} : { rate: rate ?? null }),
    };
  });
}
