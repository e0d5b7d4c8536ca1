// What one task of a run produces: its rows, the credits they cost, and the account it uses.
import type { EmuCore } from './emu.js';
import type { CrawlerDef } from './crawlers.js';
import { RUN_TIMING } from './timing.js';
import { generateRowFields } from './rows.js';
import { rowsOfTask } from './estimate.js';
import { naiveUs, paramsKey, type Rec } from './util.js';
import { ratesFor, recordCharge } from './credits.js';
import * as store from './model/store.js';

/** The one per-row charge (base plus enabled functions) for live runs, the demo seed and generate. */
export function creditsPerRow(def: CrawlerDef, squidParams: Rec): number {
  const rates = ratesFor(def, squidParams);
  return rates.base + Object.values(rates.functions).reduce((a, b) => a + b, 0);
}

/** Accounts a run of this squid may use: the linked ones, else every account of the crawler's type. */
export function candidateAccounts(emu: EmuCore, squid: Rec, def: CrawlerDef): Rec[] {
  if (!def.account) return [];
  const linked = Array.isArray(squid.accounts) ? (squid.accounts as string[]) : [];
  const all = store.records(emu, 'accounts').filter((a) => a.type === def.account?.type);
  return linked.length ? all.filter((a) => linked.includes(String(a.id))) : all;
}

/** The daily-limit counter of an account: the per-day attribute of its user params. */
export function limitCounter(a: Rec): Rec | undefined {
  const user = ((a.params as Rec | undefined)?.user ?? {}) as Record<string, Rec>;
  const key = Object.keys(user).find((k) => k !== 'batch' && k !== 'batch_hours');
  return key ? user[key] : undefined;
}

export function exhausted(a: Rec): boolean {
  const c = limitCounter(a);
  return !!c && Number(c.value) >= Number(c.max);
}

export function collect(emu: EmuCore, run: Rec, def: CrawlerDef, squid: Rec, task: Rec, rt: Rec): void {
  const nowMs = emu.clock.now();
  const params = task.params as Rec;
  // The squid's max_results caps each task's rows, as the estimate counts them.
  const count = rowsOfTask(params, (squid.params ?? {}) as Rec);
  const fields = generateRowFields(
    {
      def,
      squidParams: (squid.params ?? {}) as Rec,
      squid: String(squid.id),
      run: String(run.id),
      task: String(task.id),
      taskParams: params,
      basis: paramsKey(params),
      scrapingTimeMs: nowMs - RUN_TIMING.taskMs,
    },
    count,
  );
  emu.addResults(fields, def.result_id ?? 'hash');
  const credits = count * creditsPerRow(def, (squid.params ?? {}) as Rec);
  recordCharge(emu, String(run.id), def, (squid.params ?? {}) as Rec, count);
  rt.status = 'completed';
  rt.ended_at = naiveUs(nowMs);
  rt.last_result = count;
  rt.last_page = 1;
  rt.done_reason = 'completed';
  rt.last_collection_at = naiveUs(nowMs);
  run.total_results = Number(run.total_results) + count;
  run.total_unique_results = run.total_results;
  // Rates like 0.5 make fractional credits; rounded so sums of them do not show float noise (0.30000000000000004).
  run.credit_used = Math.round((Number(run.credit_used) + credits) * 1e6) / 1e6;
  store.balance(emu).consumed += credits;
  emu.markDirty();
  emu.events.emit('credits.consumed', credits);
}
