// `sq results sync`: keeps a table in step with a squid. Each done run is read page by page (at the API's pacing) and
// each page is written in one transaction together with the run's cursor (sq_sync_runs), so a sync killed at any
// point and run again leaves the table as one uninterrupted sync would: no duplicate, no gap.
import type { Ctx } from '../cli/context.js';
import type { HttpClient } from '../api/http.js';
import type { Run } from '../api/records.js';
import { attributeRows, getCrawlerAttributes } from '../api/crawlers.js';
import { resultPages } from '../api/results.js';
import { listRunPages, getRun, runStatus } from '../api/runs.js';
import { saysMoreFollow } from '../api/pages.js';
import { resolveRun, resolveSquid } from '../api/resolve.js';
import { getSquid } from '../api/squids.js';
import { InterruptedError, SqError, UsageError } from '../errors.js';
import type { Rec } from '../lib/guards.js';
import { count } from '../io/progress.js';
import type { SyncDb } from './db.js';
import { columnsOf, planTable, stateDdl, type Column, type Dialect } from './schema.js';
import { checkTableName, defaultTableName, type Target } from './target.js';
import { addCounts, writePage, zeroCounts, type Counts } from './write.js';

export interface SyncPlan {
  squid?: string;
  run?: string;
  target: Target;
  table?: string;
  key: string[];
  dryRun: boolean;
  /** Open the database (the engine's packages load then). */
  open(target: Target): Promise<SyncDb>;
  /** Told of each run synced and each page written (progress line, --follow's log). */
  onPage?: (p: { run: string; page: number; rows: number }) => void;
  onRun?: (r: RunSummary) => void;
}

export interface RunSummary extends Counts {
  run: string;
  pages: number;
  rows: number;
}

export interface SyncSummary extends Counts {
  table: string;
  database: string;
  engine: string;
  squid: string;
  runs_synced: number;
  runs: RunSummary[];
  /** --dry-run: what would run, and the rows the pending runs hold. */
  dry_run?: { ddl: string[]; runs_pending: number; rows_pending: number };
}

/** Everything a sync needs, settled before the first write: the squid, its columns, the table, the database. */
export interface Prepared {
  http: HttpClient;
  squidId: string;
  table: string;
  cols: Column[];
  key: string[];
  db: SyncDb | null;
  ddl: string[];
  onlyRun: string | null;
}

const PAGE_SIZE = 100;

export async function prepareSync(ctx: Ctx, plan: SyncPlan): Promise<Prepared> {
  const http = await ctx.http();
  let squidId: string;
  let onlyRun: string | null = null;
  if (plan.run !== undefined) {
    onlyRun = (await resolveRun(http, plan.run.trim())).id;
    squidId = String((await getRun(http, onlyRun)).squid ?? '');
    if (!squidId)
      throw new SqError(`run ${onlyRun} names no squid: its crawler's attributes (the table's columns) are unknown`);
    if (plan.squid !== undefined) {
      const s = await resolveSquid(http, plan.squid);
      if (s.id !== squidId)
        throw new UsageError(`--run ${plan.run} is a run of squid ${squidId}, not of --squid ${plan.squid}`);
    }
  } else {
    squidId = (await resolveSquid(http, plan.squid!)).id;
  }
  const squid = await getSquid(http, squidId);
  const squidName = String(squid.name ?? squidId);
  const crawler = typeof squid.crawler === 'string' ? squid.crawler : null;
  if (!crawler)
    throw new SqError(`squid ${squidId} names no crawler: its result attributes (the table's columns) are unknown`);
  const attrs = attributeRows(await getCrawlerAttributes(http, crawler))
    .filter((a) => typeof a.name === 'string' && a.name !== '')
    .map((a) => ({ name: String(a.name), type: a.type }));
  if (attrs.length === 0)
    throw new SqError(`crawler ${crawler} lists no result attributes: the table's columns are unknown`);
  const cols = columnsOf(attrs);
  for (const k of plan.key) {
    if (!cols.some((c) => c.name === k)) {
      throw new UsageError(
        `--key ${k} is not a result attribute of this squid's crawler; one of: ${cols
          .filter((c) => c.name !== 'sq_synced_at')
          .map((c) => c.name)
          .join(', ')}`,
      );
    }
  }
  const table =
    plan.table !== undefined
      ? plan.table
      : checkTableName(defaultTableName(squidName, squidId), "the squid's name (pass --table)");
  const key = plan.key.length ? plan.key : ['sq_result_id'];
  const db = await openUnlessDryNew(plan);
  if (db) ctx.onCleanup(() => db.close());
  const dialect: Dialect = plan.target.kind;
  const existing = db ? await db.tableColumns(table) : null;
  const tp = planTable(dialect, table, cols, plan.key, existing);
  if (db && existing) await checkKey(db, table, key);
  return {
    http,
    squidId,
    table,
    cols,
    key,
    db,
    ddl: [...(db && (await db.tableColumns('sq_sync_runs')) ? [] : stateDdl(dialect)), ...tp.ddl],
    onlyRun,
  };
}

/** A --dry-run into a SQLite file that does not exist yet opens nothing (opening would create it). */
async function openUnlessDryNew(plan: SyncPlan): Promise<SyncDb | null> {
  if (plan.dryRun && plan.target.kind === 'sqlite') {
    const { existsSync } = await import('node:fs');
    if (!existsSync(plan.target.path)) return null;
  }
  return plan.open(plan.target);
}

/** A table synced before keeps the key it was made with: another --key is a usage error, before any write. */
async function checkKey(db: SyncDb, table: string, key: string[]): Promise<void> {
  if (!(await db.tableColumns('sq_sync_tables'))) return;
  const [row] = await db.query('SELECT key_columns FROM sq_sync_tables WHERE table_name = ?', [table]);
  const was = row ? String(row.key_columns) : null;
  if (was !== null && was !== key.join(',')) {
    const said = was === 'sq_result_id' ? 'no --key (sq_result_id)' : `--key ${was.split(',').join(' --key ')}`;
    throw new UsageError(
      `--key: table ${table} was made with ${said}; sync with the same key, or into another --table`,
    );
  }
}

interface RunState {
  pages: number;
  rows: number;
  done: boolean;
  pageSize: number;
}

async function runStates(db: SyncDb | null, table: string): Promise<Map<string, RunState>> {
  const out = new Map<string, RunState>();
  if (!db || !(await db.tableColumns('sq_sync_runs'))) return out;
  for (const r of await db.query('SELECT run_id, pages, rows, done, page_size FROM sq_sync_runs WHERE table_name = ?', [
    table,
  ])) {
    out.set(String(r.run_id), {
      pages: Number(r.pages),
      rows: Number(r.rows),
      done: r.done === true || Number(r.done) === 1,
      pageSize: Number(r.page_size),
    });
  }
  return out;
}

/** Whether a run's results are final: done, and (where the API says) its export finished. */
function isDoneRun(run: Run): boolean {
  return runStatus(run) === 'done' && (run as Rec).export_done !== false;
}

/** The squid's done runs not yet wholly in the table, oldest first. */
export async function pendingRuns(p: Prepared, states: Map<string, RunState>): Promise<Run[]> {
  let runs: Run[];
  if (p.onlyRun) {
    const run = await getRun(p.http, p.onlyRun);
    if (!isDoneRun(run))
      throw new SqError(
        `run ${p.onlyRun} is ${runStatus(run) || 'not done'}: a run is synced once it is done (--follow waits for it)`,
      );
    runs = [run];
  } else {
    runs = [];
    for await (const page of listRunPages(p.http, p.squidId, { pageSize: 100 }))
      for (const r of page.data) if (isDoneRun(r)) runs.push(r);
  }
  const when = (r: Run) => String((r as Rec).created_at ?? (r as Rec).started_at ?? '');
  return runs
    .filter((r) => !states.get(String(r.id))?.done)
    .sort((a, b) => when(a).localeCompare(when(b)) || String(a.id).localeCompare(String(b.id)));
}

export function newSummary(p: Prepared, plan: SyncPlan): SyncSummary {
  return {
    table: p.table,
    database: plan.target.shown,
    engine: p.db?.engine ?? '',
    squid: p.squidId,
    runs_synced: 0,
    runs: [],
    ...zeroCounts(),
  };
}

/** One pass: every pending run of the squid into the table. `stop` is checked after each page's commit. */
export async function syncOnce(ctx: Ctx, p: Prepared, plan: SyncPlan, summary: SyncSummary): Promise<void> {
  const states = await runStates(p.db, p.table);
  const runs = await pendingRuns(p, states);
  if (plan.dryRun || !p.db) {
    const rows = runs.reduce(
      (n, r) =>
        n +
        Math.max(
          0,
          Number((r as Rec).total_unique_results ?? (r as Rec).total_results ?? 0) -
            (states.get(String(r.id))?.rows ?? 0),
        ),
      0,
    );
    summary.dry_run = { ddl: p.ddl, runs_pending: runs.length, rows_pending: rows };
    return;
  }
  if (p.ddl.length) {
    const db = p.db;
    await db.transaction(async () => {
      for (const s of p.ddl) await db.run(s);
      const now = new Date(ctx.now()).toISOString();
      await db.run(
        `INSERT INTO sq_sync_tables (table_name, key_columns, created_at) VALUES (?, ?, ?) ON CONFLICT (table_name) DO NOTHING`,
        [p.table, p.key.join(','), now],
      );
    });
    p.ddl = [];
  }
  for (const run of runs) {
    const r = await syncRun(ctx, p, plan, String(run.id), states.get(String(run.id)));
    summary.runs.push(r);
    summary.runs_synced++;
    addCounts(summary, r);
    plan.onRun?.(r);
  }
}

async function syncRun(
  ctx: Ctx,
  p: Prepared,
  plan: SyncPlan,
  runId: string,
  state: RunState | undefined,
): Promise<RunSummary> {
  const db = p.db!;
  const pageSize = state?.pageSize || PAGE_SIZE;
  let pageNo = state?.pages ?? 0;
  let rows = state?.rows ?? 0;
  let done = false;
  const r: RunSummary = { run: runId, pages: 0, rows: 0, ...zeroCounts() };
  const cursor = (n: number, total: number, isDone: boolean, at: string) =>
    db.run(
      `INSERT INTO sq_sync_runs (table_name, run_id, squid_id, page_size, pages, rows, done, synced_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ` +
        'ON CONFLICT (table_name, run_id) DO UPDATE SET pages = EXCLUDED.pages, rows = EXCLUDED.rows, done = EXCLUDED.done, synced_at = EXCLUDED.synced_at',
      [p.table, runId, p.squidId, pageSize, n, total, isDone, at],
    );
  for await (const page of resultPages(
    p.http,
    { run: runId },
    { pageSize, startPage: pageNo + 1, onWarning: (m) => ctx.out.warn(m) },
  )) {
    const at = new Date(ctx.now()).toISOString();
    const last = !saysMoreFollow(page) || page.data.length < pageSize;
    const c = await db.transaction(async () => {
      const c = await writePage({ db, table: p.table, cols: p.cols, key: p.key, syncedAt: at }, page.data as Rec[]);
      await cursor(pageNo + 1, rows + page.data.length, last, at);
      return c;
    });
    pageNo++;
    rows += page.data.length;
    done = last;
    r.pages++;
    r.rows += page.data.length;
    addCounts(r, c);
    plan.onPage?.({ run: runId, page: pageNo, rows: r.rows });
    // A stop signal waits for the page's commit; the next request is not sent.
    if (ctx.signal.aborted)
      throw ctx.signal.reason instanceof InterruptedError ? ctx.signal.reason : new InterruptedError();
    if (last) break;
  }
  if (!done) await db.transaction(() => cursor(pageNo, rows, true, new Date(ctx.now()).toISOString()));
  return r;
}

export function summaryLine(s: SyncSummary): string {
  const runs = `${count(s.runs_synced)} run${s.runs_synced === 1 ? '' : 's'} synced`;
  const skipped = s.skipped ? `, ${count(s.skipped)} skipped (no --key value)` : '';
  return `${runs} into ${s.table} (${s.database}): ${count(s.inserted)} inserted, ${count(s.updated)} updated, ${count(s.unchanged)} unchanged${skipped}`;
}
