// POST /v1/squid/estimate: what a run of a squid would cost, in the shape the vendor's SDK (squids.estimate) reads
// (api-changelog.md, "What the vendor's own clients rely on"). The rows come from the same place the run takes them
// (rowsForTask, capped per task by the squid's max_results, as collect() caps them) and the credits from the same
// rates (ratesFor), so an estimate and the run's GET /v1/runs/{id}/credits agree.
import type { EmuCore } from './emu.js';
import type { CrawlerDef } from './crawlers.js';
import { ratesFor } from './credits.js';
import { rowsForTask } from './rows.js';
import { RUN_TIMING } from './timing.js';
import { float4 } from './util.js';
import type { Rec } from './util.js';
import * as store from './model/store.js';

const PREVIEW = 5;

/** The squid's max_results when it is a positive integer (a per-task cap on rows), else null. */
export function maxResultsOf(squidParams: Rec): number | null {
  const v = squidParams.max_results;
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null;
}

/** Rows one task of this squid yields in a run: the task's rows, capped by max_results. */
export function rowsOfTask(taskParams: Rec, squidParams: Rec): number {
  const n = rowsForTask(taskParams);
  const cap = maxResultsOf(squidParams);
  return cap === null ? n : Math.min(n, cap);
}

/** "40 secs", "1 min", "12 mins", "2 hours" — the range text's words. */
function span(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 60) return `${s} sec${s === 1 ? '' : 's'}`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min${m === 1 ? '' : 's'}`;
  const h = Math.round(m / 60);
  return `${h} hour${h === 1 ? '' : 's'}`;
}

/** The upgrade a balance short of the estimate needs: the next plan up, as a plan object. */
function upgradePlan(shortBy: number): Rec {
  const plans = [
    { id: 'price_1EmulatorBusinessMonthly', name: 'Business', credits: 50_000 },
    { id: 'price_1EmulatorEnterpriseMonthly', name: 'Enterprise', credits: 250_000 },
  ];
  return plans.find((p) => p.credits >= shortBy) ?? plans[plans.length - 1];
}

export function estimateSquid(emu: EmuCore, squid: Rec, def: CrawlerDef): Rec {
  const params = (squid.params ?? {}) as Rec;
  const tasks = store.records(emu, 'tasks').filter((t) => t.squid === squid.id && t.is_active !== false);
  const results = tasks.reduce((a, t) => a + rowsOfTask(t.params as Rec, params), 0);
  const rates = ratesFor(def, params);
  const services = [
    { name: 'base', results, credits: float4(results * rates.base) },
    ...Object.entries(rates.functions).map(([name, rate]) => ({ name, results, credits: float4(results * rate) })),
  ];
  const total = float4(services.reduce((a, s) => a + s.credits, 0));
  // The emulator runs its tasks one after another: the low end is that, the high end allows for pauses and retries.
  const lo = RUN_TIMING.startMs + tasks.length * RUN_TIMING.taskMs + RUN_TIMING.finishMs;
  const remaining = emu.remainingCredits();
  return {
    services,
    total_credits: total,
    estimated_time: `${span(lo)} - ${span(lo * 3)}`,
    recommended_upgrade_plan: total > remaining ? upgradePlan(total - remaining) : null,
    max_results: maxResultsOf(params),
    tasks: { count: tasks.length, preview: tasks.slice(0, PREVIEW).map((t) => ({ id: t.id, params: t.params })) },
  };
}
