// What a run of a squid would cost before it starts (POST /v1/squid/estimate), as the API answers it; what that means
// for the account is src/billing/spend.ts.
import type { HttpClient } from './http.js';
import { ApiError } from '../errors.js';
import { isRecord } from '../lib/guards.js';

export const ESTIMATE_PATH = '/v1/squid/estimate';

export interface EstimateService {
  name: string;
  results: number;
  credits: number;
  [k: string]: unknown;
}

/** The API's answer (api-changelog "What the vendor's own clients rely on"); other fields are kept as they come. */
export interface Estimate {
  services: EstimateService[];
  total_credits: number;
  estimated_time: string | null;
  recommended_upgrade_plan: unknown;
  max_results: number | null;
  tasks: { count: number; preview: unknown[] };
  [k: string]: unknown;
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function asEstimate(v: unknown): Estimate {
  if (!isRecord(v) || !num(v.total_credits) || !Array.isArray(v.services)) {
    throw new ApiError(
      `the API answered POST ${ESTIMATE_PATH} with an unexpected body (expected an object with total_credits and services)`,
    );
  }
  const services = v.services.filter(isRecord).map((s) => ({
    ...s,
    name: String(s.name ?? ''),
    results: num(s.results) ? s.results : 0,
    credits: num(s.credits) ? s.credits : 0,
  }));
  const tasks = isRecord(v.tasks) ? v.tasks : {};
  return {
    ...v,
    services,
    total_credits: v.total_credits,
    estimated_time: typeof v.estimated_time === 'string' ? v.estimated_time : null,
    recommended_upgrade_plan: v.recommended_upgrade_plan ?? null,
    max_results: num(v.max_results) ? v.max_results : null,
    tasks: {
      ...tasks,
      count: num(tasks.count) ? tasks.count : 0,
      preview: Array.isArray(tasks.preview) ? tasks.preview : [],
    },
  };
}

/** POST /v1/squid/estimate. It changes nothing: retried like a read on 502/503/504, and sent in a dry run. */
export async function getEstimate(http: HttpClient, squidId: string): Promise<Estimate> {
  return asEstimate(await http.post(ESTIMATE_PATH, { squid: squidId }, { readOnly: true }));
}
