// Credit endpoints (changelog 2026-05-06 to 2026-06-02): a run's per-function breakdown, and the account's views by
// crawler ("module"), by squid and by run of one squid. Read tolerantly: only the run endpoint has a docs sample.
import type { HttpClient } from './http.js';
import { isRecord } from '../output/fields.js';
import { seg } from './path.js';

type Rec = Record<string, unknown>;

export const CREDIT_SQUIDS_PATH = '/v1/credits/squids';
const MODULES_PATH = '/v1/credits/modules';

export function getRunCredits(http: HttpClient, runId: string): Promise<Rec> {
  return http.get<Rec>(`/v1/runs/${seg('run id', runId)}/credits`);
}

export function getModuleCredits(http: HttpClient, days?: number): Promise<Rec> {
  return http.get<Rec>(MODULES_PATH, days === undefined ? {} : { query: { days } });
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
    return { ...b, function: fn, credits: b.credits ?? null, attempts: b.attempts ?? null, ...(rates === undefined ? {} : { rate: rate ?? null }) };
  });
}
