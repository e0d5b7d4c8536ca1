// `sq results sync`'s flags made into a plan (every check before any request), and the run of it: the output, the
// progress line, the exit code of a stopped --follow.
import type { Ctx } from '../cli/context.js';
import { defineOptions } from '../cli/command.js';
import { InterruptedError, UsageError } from '../errors.js';
import { durationFlag, intFlag } from '../validate/index.js';
import { newProgress } from '../results/whole-pages.js';
import { count } from '../io/progress.js';
import { setV8Flag } from '../startup/v8-flags.js';
import type { SyncDb } from './db.js';
import { newSummary, prepareSync, summaryLine, syncOnce, type SyncPlan, type SyncSummary } from './engine.js';
import { noSqlite, sqliteEngine } from './sqlite.js';
import { IDENTIFIER, checkTableName, parseTarget, type Target } from './target.js';

export interface SyncFlags {
  squid?: string;
  run?: string;
  to?: string;
  table?: string;
  key?: string[];
  follow?: boolean;
  interval?: string;
  fromWebhook?: string;
  file?: string;
}

export const DEFAULT_INTERVAL_MS = 30_000;
/** The squid's runs are read once per poll; the runs endpoint allows 120 a minute, sq paces at 108. */
const MIN_INTERVAL_MS = 5_000;

export async function openTarget(ctx: Ctx, target: Target): Promise<SyncDb> {
  if (target.kind === 'sqlite')
    return (await import('./sqlite.js')).openSqlite(target.path, target.shown, (fn) => ctx.onCleanup(fn));
  return (await import('./postgres.js')).openPostgres(target, ctx.env);
}

/** Every flag checked, before any request: exit 2 naming the flag. */
export function checkFlags(
  ctx: Ctx,
  f: SyncFlags,
): { plan: Omit<SyncPlan, 'open'>; follow: { intervalMs: number; webhookPort?: number } | null } {
  if ((f.squid === undefined) === (f.run === undefined) && f.run === undefined)
    throw new UsageError('--squid is required (or --run for one run)');
  const target = parseTarget(f.to);
  if (target.kind === 'postgres' && target.password) {
    ctx.addSecret(target.password);
    hidePassword(target.password);
  }
  if (target.kind === 'sqlite' && !sqliteEngine()) throw noSqlite();
  const table = f.table === undefined ? undefined : checkTableName(f.table);
  const key = (f.key ?? []).flatMap((k) => k.split(',')).map((k) => k.trim());
  for (const k of key)
    if (!IDENTIFIER.test(k) && !/^[^"\0]{1,63}$/.test(k)) throw new UsageError(`--key "${k}" is not a column name`);
  if (new Set(key).size !== key.length) throw new UsageError('--key names a column twice');
  const following = f.follow === true || f.fromWebhook !== undefined;
  if (following && f.run !== undefined) throw new UsageError('--follow follows a squid: use --squid, not --run');
  if (!following && f.interval !== undefined) throw new UsageError('--interval goes with --follow');
  const follow = following
    ? {
        intervalMs:
          f.interval === undefined
            ? DEFAULT_INTERVAL_MS
            : durationFlag('--interval', f.interval, { minMs: MIN_INTERVAL_MS }),
        ...(f.fromWebhook !== undefined ? { webhookPort: intFlag('--from-webhook', f.fromWebhook, 0, 65535) } : {}),
      }
    : null;
  return { plan: { squid: f.squid, run: f.run, target, table, key, dryRun: ctx.globals.dryRun }, follow };
}

export async function runSync(ctx: Ctx, f: SyncFlags): Promise<number> {
  if (f.file !== undefined) return syncFromFile(ctx, f);
  const { plan: base, follow } = checkFlags(ctx, f);
  // As a long export does (results/engine.ts): V8's young generation kept at its first size, so that the peak RSS of a
  // long sync stays flat; a page at a time needs no more.
  if (!base.dryRun) setV8Flag('--semi-space-growth-factor=1');
  const progress = newProgress(ctx);
  let busy = '';
  let told = -1;
  const plan: SyncPlan = {
    ...base,
    open: (t) => openTarget(ctx, t),
    onPage: ({ run, page, rows }) => {
      busy = run;
      progress.update({ fraction: null, text: `run ${run.slice(0, 8)}: page ${count(page)}, ${count(rows)} rows` });
    },
    onRun: (r) => {
      busy = '';
      progress.clear();
      ctx.out.info(
        `run ${r.run}: ${count(r.rows)} rows (${count(r.inserted)} inserted, ${count(r.updated)} updated, ${count(r.unchanged)} unchanged)`,
      );
    },
  };
  const p = await prepareSync(ctx, plan);
  const summary = newSummary(p, plan);
  try {
    if (follow && !plan.dryRun) {
      const { followSync } = await import('./follow.js');
      await followSync(ctx, p, plan, summary, {
        ...follow,
        onListening: (url) => ctx.out.info(`Waiting for run.done events on ${url}`, { force: true }),
        onWaiting: () => {
          // Said once per change (a log gets a line when something happened, not one per poll).
          if (told === summary.runs_synced) return;
          told = summary.runs_synced;
          progress.clear();
          ctx.out.info(`Waiting for the squid's next done run (${count(told)} synced so far; Ctrl-C stops)`);
        },
      });
    } else {
      await syncOnce(ctx, p, plan, summary);
    }
  } catch (err) {
    progress.clear();
    // A stop signal (the request it cut short may surface as another error): say what is in the table.
    if (err instanceof InterruptedError || ctx.signal.aborted) {
      ctx.out.info(
        `${summaryLine(summary)}${busy ? `; run ${busy} stopped after its last whole page: the next sync continues it` : ''}`,
        { force: true },
      );
    }
    throw err;
  }
  progress.clear();
  await report(ctx, summary);
  return 0;
}

async function report(ctx: Ctx, s: SyncSummary): Promise<void> {
  if (s.dry_run) {
    if (ctx.out.spec.json) return ctx.out.json(s);
    const lines = [
      ...s.dry_run.ddl.map((d) => `${d};`),
      `-- ${count(s.dry_run.runs_pending)} run(s) to sync, ${count(s.dry_run.rows_pending)} rows, into ${s.table} (${s.database}); nothing was written`,
    ];
    return ctx.out.text(lines.join('\n'));
  }
  if (ctx.out.spec.json) return ctx.out.json(s);
  ctx.out.success(summaryLine(s));
}

/**
 * A password given in --to is on this process's command line, which `ps` shows every user of the machine: the title
 * is rewritten without it (on Linux and macOS that rewrites what /proc/PID/cmdline and ps read). Only when it is this
 * process's own argv (not a verb run in-process by sq mcp).
 */
function hidePassword(password: string): void {
  const forms = [...new Set([password, encodeURIComponent(password)])];
  const argv = process.argv;
  if (!argv.some((a) => forms.some((f) => a.includes(f)))) return;
  process.title = ['sq', ...argv.slice(2).map((a) => forms.reduce((t, f) => t.split(f).join('********'), a))].join(' ');
}

/** `sq go`'s flags for a sync of its run (src/run/go.ts): the same checks as `sq results sync`'s. */
export const GO_SYNC_OPTIONS = defineOptions([
  {
    flags: '--to <url>',
    description:
      "also sync the run's results into this database, as `sq results sync --run` (sqlite:PATH, postgres://…)",
  },
  { flags: '--table <name>', description: "with --to: the table (default: from the squid's name)" },
  {
    flags: '--sync-key <field>',
    description:
      'with --to: a result attribute that identifies a row across runs (repeatable), as `sq results sync --key`',
    repeatable: true,
  },
]);

/** The sync `sq go` was asked for, checked before any request; null without --to. */
export function goSyncFlags(ctx: Ctx, o: { to?: string; table?: string; syncKey?: string[] }): SyncFlags | null {
  if (o.to === undefined) {
    if (o.table !== undefined || o.syncKey?.length)
      throw new UsageError(`${o.table !== undefined ? '--table' : '--sync-key'} goes with --to`);
    return null;
  }
  const f: SyncFlags = { run: 'go', to: o.to, table: o.table, key: o.syncKey };
  checkFlags(ctx, f);
  return f;
}

/** `sq go`'s last step with --to: its run into the table; the summary, with a line on stderr. */
export async function syncGoRun(ctx: Ctx, runId: string, f: SyncFlags): Promise<SyncSummary> {
  const { plan: base } = checkFlags(ctx, { ...f, run: runId });
  setV8Flag('--semi-space-growth-factor=1');
  const plan: SyncPlan = { ...base, dryRun: false, open: (t) => openTarget(ctx, t) };
  const p = await prepareSync(ctx, plan);
  const summary = newSummary(p, plan);
  await syncOnce(ctx, p, plan, summary);
  ctx.out.info(summaryLine(summary));
  return summary;
}

/**
 * --file: every squid of an account file with a `sync:` block (only --squid's, if given), in the file's order, each
 * as `sq results sync --squid NAME --to … --table … --key …`. Every block is checked before any sync starts.
 */
async function syncFromFile(ctx: Ctx, f: SyncFlags): Promise<number> {
  for (const flag of ['to', 'table', 'key', 'run', 'follow', 'interval', 'fromWebhook'] as const) {
    const v = f[flag];
    if (v !== undefined && !(Array.isArray(v) && v.length === 0))
      throw new UsageError(
        `--file takes each squid's database from its sync: block; --${flag === 'fromWebhook' ? 'from-webhook' : flag} goes without --file`,
      );
  }
  const { loadAccountFile } = await import('../account/file.js');
  const desired = await loadAccountFile(ctx, f.file!, { allowMissingSecrets: false });
  const jobs = desired.squids
    .filter((s) => s.spec.sync && (f.squid === undefined || s.ref === f.squid))
    .map((s) => {
      const sync = s.spec.sync!;
      const ref = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(sync.to);
      const to = ref ? ctx.env[ref[1]] : sync.to;
      if (to === undefined || to === '') throw new UsageError(`squids.${s.ref}.sync.to: \${${ref![1]}} is not set`);
      const flags: SyncFlags = { squid: s.ref, to, table: sync.table, key: sync.key };
      checkFlags(ctx, flags);
      return flags;
    });
  if (jobs.length === 0)
    throw new UsageError(
      `--file ${f.file}: no squid${f.squid !== undefined ? ` named ${f.squid}` : ''} has a sync: block`,
    );
  const summaries: SyncSummary[] = [];
  for (const job of jobs) {
    const { plan: base } = checkFlags(ctx, job);
    const plan: SyncPlan = { ...base, open: (t) => openTarget(ctx, t) };
    const p = await prepareSync(ctx, plan);
    const summary = newSummary(p, plan);
    await syncOnce(ctx, p, plan, summary);
    summaries.push(summary);
    if (!ctx.out.spec.json) await report(ctx, summary);
  }
  if (ctx.out.spec.json) await ctx.out.json(summaries);
  return 0;
}
