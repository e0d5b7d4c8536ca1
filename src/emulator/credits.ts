// Credit accounting for the credit endpoints (GET /v1/runs/{id}/credits, /v1/credits/modules, /v1/credits/squids,
// /v1/squids/{id}/credits). Whatever charges a run (collect() as rows arrive, the demo seed, /_emulator/generate)
// writes what each function cost here, so a run's breakdown stays what it cost after the squid's functions change;
// a deleted squid's runs are archived with their charges and shown (is_deleted) for 30 days. Runs of a state file
// saved before the ledger existed are read from their record and the squid's current rates.
import type { EmuCore } from './emu.js';
import type { CrawlerDef } from './crawlers.js';
import { defOf } from './crawlers.js';
import { parseApiTime } from '../lib/api-time.js';
import { isRecord, isoZ, type Rec } from './util.js';
import * as store from './model/store.js';
import type { CreditArchive, FnCharge, Rates, RunCharge, SquidRecord } from './model/records.js';

/** Credits charged per row: the crawler's rate plus every enabled paid function. */
export function ratesFor(def: CrawlerDef, squidParams: Rec): Rates {
  const enabled = (squidParams.functions ?? {}) as Record<string, boolean>;
  const functions: Record<string, number> = {};
  for (const [name, f] of Object.entries(def.functions)) if (enabled[name]) functions[name] = f.credits_per_function;
  return { base: def.credits_per_row, functions };
}

export const DELETED_KEPT_MS = 30 * 86_400_000;
const round = (n: number) => Math.round(n * 1e6) / 1e6;

function ledger(emu: EmuCore): Record<string, RunCharge> {
  return store.section(emu, 'creditLedger', isRecord, () => ({}));
}

function archive(emu: EmuCore): CreditArchive {
  return store.section(emu, 'creditArchive', isRecord, () => ({ squids: {}, runs: {} }));
}

/** For each task that produced `rows` (or a generated batch): the base rate and every enabled function are charged. */
export function recordCharge(emu: EmuCore, runId: string, def: CrawlerDef, squidParams: Rec, rows: number): void {
  const rates = ratesFor(def, squidParams);
  const entry = (ledger(emu)[runId] ??= { rates, functions: {} });
  entry.rates = rates;
  for (const [fn, rate] of [['base', rates.base] as const, ...Object.entries(rates.functions)]) {
    const c = (entry.functions[fn] ??= { credits: 0, attempts: 0 });
    c.credits = round(c.credits + rows * rate);
    c.attempts += 1;
  }
}

/** The charge of a run: from the ledger, else derived from the record (runs built without collect). */
function chargeOf(emu: EmuCore, run: Rec): RunCharge {
  const archived = archive(emu).runs[String(run.id)];
  if (archived) return archived.charge;
  const kept = ledger(emu)[String(run.id)];
  if (kept) return kept;
  const squid = store.record(emu, 'squids', String(run.squid));
  const crawler = squid ? store.record(emu, 'crawlers', String(squid.crawler)) : undefined;
  const rates = crawler ? ratesFor(defOf(crawler), (squid?.params ?? {}) as Rec) : { base: 0, functions: {} };
  const rows = Number(run.total_results ?? 0);
  const attempts = store.records(emu, 'runtasks').filter((rt) => rt.run === run.id && rt.status === 'completed').length;
  const functions: Record<string, FnCharge> = {};
  for (const [fn, rate] of [['base', rates.base] as const, ...Object.entries(rates.functions)])
    functions[fn] = { credits: round(rows * rate), attempts };
  return { rates, functions };
}

function breakdownRows(fns: Record<string, FnCharge>): { function: string; credits: number; attempts: number }[] {
  return Object.entries(fns)
    .map(([fn, c]) => ({ function: fn, credits: c.credits, attempts: c.attempts }))
    .sort((a, b) => b.credits - a.credits);
}

/** What the run's crawler calls its base attributes (the attributes page's label), "Base" when it names none. */
function baseLabel(emu: EmuCore, run: Rec): string {
  const squid = String(run.squid);
  const crawler = store.record(
    emu,
    'crawlers',
    String(store.record(emu, 'squids', squid)?.crawler ?? archive(emu).squids[squid]?.crawler),
  );
  return (crawler && defOf(crawler).base_label) || 'Base';
}

/** GET /v1/runs/{id}/credits, in the get-run-credits sample's shape. */
export function runCreditsView(emu: EmuCore, run: Rec): Rec {
  const charge = chargeOf(emu, run);
  const fns = Object.keys(charge.rates.functions);
  const label = baseLabel(emu, run);
  return {
    run_id: run.id,
    total_credits: run.credit_used,
    total_results: run.total_results,
    breakdown: breakdownRows(charge.functions),
    rates: { credits_per_row: charge.rates.base, ...charge.rates.functions },
    function_colors: {
      [label]: { bg_color: '#EAFBF3', txt_color: '#0F9F5F' },
      ...Object.fromEntries(fns.map((fn) => [fn, { bg_color: '#EEF2F7', txt_color: '#62748A' }])),
    },
    base_function_label: label,
    filter_breakdown: [],
  };
}

/** Before a squid is deleted: its runs and their charges, kept for the credit views. */
export function archiveSquid(emu: EmuCore, squid: SquidRecord): void {
  const a = archive(emu);
  const id = String(squid.id);
  for (const run of store.records(emu, 'runs')) {
    if (run.squid !== id) continue;
    a.runs[String(run.id)] = { run: { ...run }, charge: chargeOf(emu, run) };
    delete ledger(emu)[String(run.id)];
  }
  a.squids[id] = {
    id,
    name: squid.name,
    crawler: squid.crawler,
    crawler_name: squid.crawler_name,
    deleted_ms: emu.clock.now(),
  };
}

/** Archived squids past 30 days are forgotten (with their runs) when the views are read. */
function prune(emu: EmuCore): void {
  const a = archive(emu);
  const now = emu.clock.now();
  for (const [id, s] of Object.entries(a.squids)) {
    if (now - s.deleted_ms < DELETED_KEPT_MS) continue;
    delete a.squids[id];
    for (const [rid, r] of Object.entries(a.runs)) if (r.run.squid === id) delete a.runs[rid];
    emu.markDirty();
  }
}

/** Every run credits are reported for: live ones and those of squids deleted in the last 30 days. */
function allRuns(emu: EmuCore): Rec[] {
  prune(emu);
  return [...store.records(emu, 'runs'), ...Object.values(archive(emu).runs).map((r) => r.run)];
}

/** The run's final state: an aborted run still uploading its export is aborted. */
function finalStatus(run: Rec): string {
  if (run.status === 'uploading') return run.done_reason === 'aborted' ? 'aborted' : 'done';
  return String(run.status);
}

const endedMs = (run: Rec) => parseApiTime(run.ended_at) ?? parseApiTime(run.created_at) ?? 0;

/**
 * GET /v1/credits/modules[?days=N]: completed runs (ended in the last N days when given), per crawler, with the
 * per-function breakdown summed. Inferred shape (no docs sample): {days, total_credits, total_results, data: [...]}.
 */
export function modulesView(emu: EmuCore, days: number | null): Rec {
  const since = days === null ? -Infinity : emu.clock.now() - days * 86_400_000;
  const byCrawler = new Map<
    string,
    { runs: number; credits: number; results: number; fns: Record<string, FnCharge> }
  >();
  for (const run of allRuns(emu)) {
    if (run.is_done !== true || endedMs(run) < since) continue;
    const squid = store.record(emu, 'squids', String(run.squid)) ?? archive(emu).squids[String(run.squid)];
    const crawlerId = String(squid?.crawler ?? '');
    const m = byCrawler.get(crawlerId) ?? { runs: 0, credits: 0, results: 0, fns: {} };
    m.runs += 1;
    m.credits = round(m.credits + Number(run.credit_used ?? 0));
    m.results += Number(run.total_results ?? 0);
    for (const [fn, c] of Object.entries(chargeOf(emu, run).functions)) {
      const t = (m.fns[fn] ??= { credits: 0, attempts: 0 });
      t.credits = round(t.credits + c.credits);
      t.attempts += c.attempts;
    }
    byCrawler.set(crawlerId, m);
  }
  const data = [...byCrawler.entries()]
    .map(([id, m]) => {
      const c = store.record(emu, 'crawlers', id);
      return {
        module: id,
        name: c?.name ?? null,
        slug: c?.slug ?? null,
        total_credits: m.credits,
        total_results: m.results,
        total_runs: m.runs,
        breakdown: breakdownRows(m.fns),
      };
    })
    .sort((a, b) => b.total_credits - a.total_credits || String(a.name).localeCompare(String(b.name)));
  return {
    days,
    total_credits: round(data.reduce((a, m) => a + m.total_credits, 0)),
    total_results: data.reduce((a, m) => a + m.total_results, 0),
    data,
  };
}

/** Rows of GET /v1/credits/squids: every squid, and those deleted in the last 30 days (is_deleted). Inferred shape. */
export function squidRows(emu: EmuCore): Rec[] {
  const runs = allRuns(emu);
  const row = (
    s: { id: unknown; name: unknown; crawler: unknown; crawler_name: unknown },
    deletedMs: number | null,
  ): Rec => {
    const mine = runs.filter((r) => r.squid === s.id);
    return {
      id: s.id,
      name: s.name,
      crawler: s.crawler,
      crawler_name: s.crawler_name ?? null,
      total_credits: round(mine.reduce((a, r) => a + Number(r.credit_used ?? 0), 0)),
      total_results: mine.reduce((a, r) => a + Number(r.total_results ?? 0), 0),
      total_runs: mine.length,
      is_deleted: deletedMs !== null,
      deleted_at: deletedMs === null ? null : isoZ(deletedMs),
    };
  };
  return [
    ...store
      .records(emu, 'squids')
      .map((s) => row({ id: s.id, name: s.name, crawler: s.crawler, crawler_name: s.crawler_name }, null)),
    ...Object.values(archive(emu).squids).map((s) => row(s, s.deleted_ms)),
  ].sort((a, b) => Number(b.total_credits) - Number(a.total_credits));
}

/** Rows of GET /v1/squids/{id}/credits: its finished runs, newest first, each with its final status. Inferred shape. */
export function squidRunRows(emu: EmuCore, squidId: string): Rec[] {
  return store
    .records(emu, 'runs')
    .filter((r) => r.squid === squidId && r.is_done === true)
    .sort((a, b) => endedMs(b) - endedMs(a))
    .map((r) => ({
      run: r.id,
      status: finalStatus(r),
      started_at: r.started_at,
      ended_at: r.ended_at,
      total_credits: r.credit_used,
      total_results: r.total_results,
      breakdown: breakdownRows(chargeOf(emu, r).functions),
    }));
}
