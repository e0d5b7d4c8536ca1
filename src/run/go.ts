// The engine of `sq go`, the one-shot path of the vendor's `lobstr go`: squid, params, tasks, run, wait, export. Each
// step reuses what a run of it before left behind, so running it again after an interruption (Ctrl-C, a CI timeout
// mid-wait) picks up where it stopped: the same squid (found by its deterministic name), the tasks already there (the
// API skips duplicates), and the run still in progress, instead of a second run that would be charged again.
import { defineOptions, type OptionsOf } from '../cli/command.js';
import type { Ctx } from '../cli/context.js';
import { AmbiguousWriteError, unexpectedWriteAnswer } from '../api/http-errors.js';
import { badTaskValues, getCrawlerParams, squidParamNames, unknownSquidParams } from '../api/crawlers.js';
import { resolveCrawler, resolveSquid, type Resolved } from '../api/resolve.js';
import { createSquid, parseParams, SQUIDS_PATH, updateSquidParams } from '../api/squids.js';
import { addTasks, taskBatches } from '../api/tasks.js';
import { isTerminal, runStatus } from '../api/runs.js';
import type { Run } from '../api/records.js';
import { fnv1a64 } from '../lib/cache-file.js';
import { existsSync } from 'node:fs';
import { pickAccount } from './pick-account.js';
import { rm } from 'node:fs/promises';
import { siblings } from '../io/checkpoint.js';
import { GoJob } from '../io/go-record.js';
import { lockExport } from '../lib/lock.js';
import type { HttpClient } from '../api/http.js';
import { recentRuns, startRunOnce } from './once.js';
import { cacheDir } from '../lib/cache-dir.js';
import { count } from '../io/progress.js';
import { MAX_PAGE_SIZE } from '../api/pages.js';
import { NotFoundError, RunFailedError, SqError, UsageError, refuseProblems } from '../errors.js';
import { shellWord } from '../io/shell.js';
import { nonEmpty } from '../validate/index.js';
import { WAIT_OPTIONS, waitForRun, waitSettings } from './wait.js';
import { writeResults } from '../results/engine.js';
import { resultsPlan, resultsTarget, type ResultsTarget } from '../results/plan.js';
import { refuseInterruptedExport } from '../results/resume.js';
import { guardSpend, MAX_CREDITS_OPTION, prefetchSpend, spendPolicy, type SpendPolicy } from '../billing/guard.js';
import { GO_SYNC_OPTIONS, goSyncFlags, syncGoRun, type SyncFlags } from '../sync/command.js';

export const GO_OPTIONS = defineOptions([
  {
    flags: '-p, --param <key=value>',
    description: 'set a squid parameter (repeatable, as squids update)',
    repeatable: true,
  },
  {
    flags: '--account <account>',
    description: 'platform account a new squid of an account crawler uses (default: the one healthy one of its type)',
    complete: 'account',
  },
  { flags: '--key <name>', description: 'task parameter each TASK is sent as', defaultText: 'url' },
  {
    flags: '-o, --output <file>',
    description: 'write the results to this regular file (atomically) instead of stdout; - is stdout',
  },
  { flags: '--force', description: 'replace an existing -o file (else exit 2, before any request)' },
  ...WAIT_OPTIONS,
  MAX_CREDITS_OPTION,
  ...GO_SYNC_OPTIONS,
]);
type GoOptions = OptionsOf<typeof GO_OPTIONS>;

/** `sq go CRAWLER TASK…`: every flag checked before any request, then each step in turn. */
export async function go(ctx: Ctx, crawlerRef: string, values: string[], opts: GoOptions): Promise<void> {
  const input = await checkInput(ctx, values, opts);
  const { tasks, params } = input;
  const { output, format } = input.target;
  const http = await ctx.http();
  const job = await openJob(ctx, http, crawlerRef, input);
  const crawler = await checkAgainstCrawler(http, crawlerRef, input);
  // 1. The squid, by its name.
  const name = squidName(crawler.slug, tasks);
  const { squidId, created, account } = await squidOfName(ctx, http, job, crawler, name, opts.account);
  ctx.out.info(`squid "${name}" (${squidId}) ${created ? 'created' : 'reused'}`);
  await setParams(ctx, http, job, crawler, { name, squidId, created, account }, params, opts.account);
  const { added, existing } = await addAllTasks(ctx, http, squidId, tasks);
  const { run, how } = await runOnce(ctx, http, job, name, squidId, input.spend);
  const runId = String(run.id);
  const resumed = how !== 'started';
  const note = how === 'found' ? '; its start was cut short' : '';
  ctx.out.info(`run ${runId} ${resumed ? `resumed (${runStatus(run) || 'status unknown'}${note})` : 'started'}`);

  // 5. Wait, as `runs watch`; 6. export, as `results list --run RUN --all`. A run that ended in error or aborted is
  // exported too (what it got is paid for), then the command ends as `runs watch` does (exit 6).
  const { final, failed } = await waitThroughFailure(ctx, http, runId, input.wait);
  // --to: the run's results into the database (a done run; one that failed has nothing final to sync).
  const synced = input.sync && !failed ? await syncGoRun(ctx, runId, input.sync) : null;
  const toFile = !(input.sync && output === undefined);
  const n = toFile ? await exportRun(ctx, job, runId, input.target) : 0;
  await job.finish();
  const records = `${count(n)} record${n === 1 ? '' : 's'}${failed ? ' of the failed run' : ''}`;
  if (toFile) ctx.out.info(`exported ${records} to ${output ?? 'stdout'}`);
  if (failed) throw failed;
  if (input.summary) {
    await ctx.out.record({
      squid: { id: squidId, name, created },
      params: params ?? {},
      tasks: { added, existing },
      run: { id: runId, resumed, status: runStatus(final), total_results: final.total_results ?? null },
      exported: toFile ? { records: n, output, format } : null,
      ...(synced ? { synced } : {}),
    });
  }
}

/** What `sq go` was asked, checked before any request. */
interface GoInput {
  key: string;
  tasks: Record<string, string>[];
  params: ReturnType<typeof parseParams> | null;
  /** -o FILE (or stdout), its format, --force: checked before any request, handed to the export. */
  target: ResultsTarget;
  /** --json: a summary object on stdout, the results in the file. */
  summary: boolean;
  /** --to: the run is synced into this database (and exported only to an -o file). */
  sync: SyncFlags | null;
  wait: Awaited<ReturnType<typeof waitSettings>>;
  spend: SpendPolicy;
}

/** Everything the user typed is checked before any request. */
async function checkInput(ctx: Ctx, values: string[], opts: GoOptions): Promise<GoInput> {
  const key = opts.key === undefined ? 'url' : nonEmpty('--key', opts.key).trim();
  const tasks = values.filter((v) => v.trim() !== '').map((v) => ({ [key]: v }));
  if (tasks.length === 0) throw new UsageError('no tasks given: pass at least one TASK (e.g. a URL) after the crawler');
  const params = opts.param?.length ? parseParams(opts.param) : null;
  if (ctx.globals.dryRun)
    throw new UsageError(
      'sq go does not take --dry-run: it waits for a run it starts; use `sq squids create … --dry-run` and the other verbs to preview requests',
    );
  const summary = ctx.globals.json;
  const sync = goSyncFlags(ctx, opts);
  // With --json the summary is the JSON: the file's format comes from --format or its extension.
  const target = await resultsTarget(ctx, opts.output, opts.force === true, !summary);
  // results list checks this with --resume's flags, at export time: sq go would find it after the run was paid for.
  if (target.force && target.output === undefined)
    throw new UsageError('--force goes with -o FILE: it lets the results replace an existing FILE');
  if (summary && target.output === undefined && !sync)
    throw new UsageError('--json prints a summary object on stdout: pass -o FILE for the results');
  const wait = await waitSettings(ctx, opts);
  const spend = await spendPolicy(ctx, opts.maxCredits);
  return { key, tasks, params, target, summary, wait, spend, sync };
}

/** What an interrupted `sq go` of this file (or, to stdout, of these tasks) was doing: continued, never redone. */
async function openJob(
  ctx: Ctx,
  http: HttpClient,
  crawlerRef: string,
  { key, tasks, target }: GoInput,
): Promise<GoJob> {
  const { output, format } = target;
  const job = await GoJob.open({
    output,
    cacheDir: cacheDir(ctx.env),
    keyId: http.keyId,
    job: JSON.stringify([crawlerRef, key, [...new Set(tasks.map((t) => t[key]))].sort()]),
    lock: (path) => lockExport(path, output !== undefined ? `-o ${output}` : 'sq go', (fn) => ctx.onCleanup(fn)),
  });
  // The export would refuse a leftover of an interrupted one, but only after a new run was started and paid for;
  // the leftover of this job's own run is continued instead.
  if (output !== undefined && !job.hasRun) await refuseInterruptedExport(output, format);
  return job;
}

/** The crawler, with its slug (the squid's name) and record (an account crawler's type). */
type GoCrawler = Resolved & { slug: string };

/** The crawler's parameters: --param keys it declares, TASK values in its format. A typo found here leaves no squid. */
async function checkAgainstCrawler(
  http: HttpClient,
  crawlerRef: string,
  { tasks, params }: GoInput,
): Promise<GoCrawler> {
  const crawler = await resolveCrawler(http, crawlerRef);
  const slug = typeof crawler.record.slug === 'string' && crawler.record.slug ? crawler.record.slug : crawler.id;
  const declaredParams = await getCrawlerParams(http, crawler.id);
  const declared = params ? squidParamNames(declaredParams) : undefined;
  const problems = [
    ...(params && declared
      ? unknownSquidParams(params, declared, (k) => `--param ${k}`, JSON.stringify(crawler.name || slug))
      : []),
    ...badTaskValues(declaredParams, tasks, (i) => `TASK ${i + 1}`),
  ];
  refuseProblems(problems, '', '; nothing was sent');
  return { ...crawler, slug };
}

/** The squid of this name: found, or created (and recorded before it is). */
interface GoSquid {
  name: string;
  squidId: string;
  created: boolean;
  /** The account a new squid of an account crawler links; null otherwise. */
  account: string | null;
}

async function squidOfName(
  ctx: Ctx,
  http: HttpClient,
  job: GoJob,
  crawler: GoCrawler,
  name: string,
  accountFlag: string | undefined,
): Promise<GoSquid> {
  job.checkSquid(name, null);
  try {
    const squidId = (await resolveSquid(http, name)).id;
    job.checkSquid(name, squidId);
    return { name, squidId, created: false, account: null };
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    // An account crawler's new squid links the one healthy account of its type (or --account), asked before any write.
    const account = await pickAccount(ctx, http, crawler.id, crawler.record, accountFlag);
    // Recorded first: interrupted before its params are set, the squid cannot run, and the rerun must set them.
    job.checkSquid(name, '');
    await job.save(name, { squid: null, params_done: false, run: null });
    const s = await createSquid(http, { crawler: crawler.id, name });
    const squidId = typeof s?.id === 'string' ? s.id : '';
    if (!squidId) throw unexpectedWriteAnswer('POST', SQUIDS_PATH, 'the id of the squid');
    await job.save(name, { squid: squidId });
    return { name, squidId, created: true, account };
  }
}

/**
 * 2. Its params. A new squid gets them even when none are given: the platform runs a squid only once its
 * params have been set, even to the crawler's defaults (SquidNotReady otherwise); and so does a squid whose params
 * step an interrupted run of this command never finished.
 */
async function setParams(
  ctx: Ctx,
  http: HttpClient,
  job: GoJob,
  crawler: GoCrawler,
  squid: GoSquid,
  params: GoInput['params'],
  accountFlag: string | undefined,
): Promise<void> {
  const { name, squidId, created } = squid;
  if (!(params || created || job.paramsPending)) return;
  let account = squid.account;
  // A squid this job made whose params step was cut short: its account is linked with the params, as at creation.
  if (!created && job.paramsPending) account = await pickAccount(ctx, http, crawler.id, crawler.record, accountFlag);
  await job.save(name, { squid: squidId, params_done: false });
  // The API replaces params whole: the squid's live params go with the given keys laid over them.
  await updateSquidParams(http, squidId, params ?? {}, account ? { accounts: [account] } : {});
  await job.save(name, { params_done: true });
  ctx.out.info(params ? `params set: ${Object.keys(params).join(', ')}` : "params set: the crawler's defaults");
}

/** 3. The tasks; the API skips those the squid already has. */
async function addAllTasks(
  ctx: Ctx,
  http: HttpClient,
  squidId: string,
  tasks: GoInput['tasks'],
): Promise<{ added: number; existing: number }> {
  let added = 0;
  let existing = 0;
  for (const batch of taskBatches(tasks)) {
    const res = (await addTasks(http, squidId, batch)) as Record<string, unknown>;
    if (Array.isArray(res.tasks)) added += res.tasks.length;
    if (typeof res.duplicated_count === 'number') existing += res.duplicated_count;
  }
  ctx.out.info(`${count(added)} task${added === 1 ? '' : 's'} added, ${count(existing)} already there`);
  return { added, existing };
}

/**
 * 4. The run: the one this job recorded (whatever state it ended in), or the one its cut-short start made, or one
 * of the squid still in progress; a new one only when there is none of them.
 */
async function runOnce(
  ctx: Ctx,
  http: HttpClient,
  job: GoJob,
  name: string,
  squidId: string,
  spend: SpendPolicy,
): Promise<{ run: Run; how: 'recorded' | 'found' | 'started' | 'in progress' }> {
  const mark = job.run;
  // The estimate and the account's side, read beside the runs in progress: the guard adds no round trip of its own.
  const pre = mark ? undefined : prefetchSpend(ctx, http, spend, squidId);
  const run = mark ? null : await runInProgress(http, squidId);
  if (run) {
    await job.save(name, {
      squid: squidId,
      run: { since: new Date(http.serverNow()).toISOString(), id: String(run.id) },
    });
    return { run, how: 'in progress' };
  }
  try {
    return await startRunOnce(
      http,
      squidId,
      mark,
      (m) => job.save(name, { squid: squidId, run: m }),
      () => guardSpend(ctx, http, squidId, spend, name, pre),
    );
  } catch (err) {
    if (err instanceof AmbiguousWriteError) {
      err.message = `starting the run failed and it may have started anyway: ${err.message}`;
      err.details.push(
        'Run the same `sq go` command again: it continues a run that did start instead of starting a second one.',
      );
    }
    throw err;
  }
}

/** The run once it has ended; one that ended in error or aborted is kept as `failed`, to throw after its export. */
async function waitThroughFailure(
  ctx: Ctx,
  http: HttpClient,
  runId: string,
  wait: GoInput['wait'],
): Promise<{ final: Run; failed: RunFailedError | null }> {
  try {
    return { final: await waitForRun(ctx, http, runId, wait), failed: null };
  } catch (err) {
    if (!(err instanceof RunFailedError) || !err.run) throw err;
    return { final: err.run as Run, failed: err };
  }
}

/** The run's results exported; the count of records. Failing, the error says how to get them without a second run. */
async function exportRun(ctx: Ctx, job: GoJob, runId: string, target: ResultsTarget): Promise<number> {
  const { output, format, force } = target;
  // This job's own export, cut short: continued from its checkpoint, or (killed before its first page) begun again.
  const where = output !== undefined ? siblings(output) : null;
  const resume = job.hasRun && where !== null && existsSync(where.checkpoint);
  if (job.hasRun && where !== null && !resume) await rm(where.partial, { force: true });
  try {
    return await writeResults(
      ctx,
      await resultsPlan(ctx, target, { scopeRef: { run: runId }, task: undefined, paging: ALL, resume }),
    );
  } catch (err) {
    // The run is finished (and charged): say how to get these results without a second run. When whole pages were
    // kept, the export has already printed the `--resume` command that continues it.
    const kept = where !== null && existsSync(where.checkpoint);
    if (err instanceof SqError && !(err instanceof UsageError) && !kept) {
      if (job.recorded)
        err.details.push(
          `run ${runId} is finished and its results are kept: run the same \`sq go\` command again to export them (it starts no new run)`,
        );
      else {
        const to = output === undefined ? [] : ['-o', output, ...(force ? ['--force'] : [])];
        const words = ['sq', 'results', 'list', '--run', runId, '--all', '--format', format, ...to];
        err.details.push(
          `run ${runId} is finished and its results are kept: export them with ${words.map(shellWord).join(' ')}`,
        );
        err.details.push('(running the same `sq go` again would start, and be charged for, a new run)');
      }
    }
    throw err;
  }
}

/** --all as `results list` reads it: every page, of the largest size. */
const ALL = { request: { pageSize: MAX_PAGE_SIZE }, page: undefined, all: true, slurp: false };

/**
 * "go <crawler-slug> <hash>": the same crawler and tasks (in any order, any repeats) give the same name, so a rerun
 * finds the squid; within the API's 255 characters whatever the tasks.
 */
export function squidName(slug: string, tasks: Record<string, unknown>[]): string {
  const keys = [
    ...new Set(tasks.map((t) => JSON.stringify(Object.entries(t).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))))),
  ].sort();
  return `go ${slug.slice(0, 200)} ${fnv1a64(keys.join('\n'))}`;
}

/** The newest run of the squid not yet finished, or finished with its export still being made; null when none. */
async function runInProgress(http: HttpClient, squidId: string): Promise<Run | null> {
  return (
    (await recentRuns(http, squidId)).find(
      (r) =>
        typeof r.id === 'string' &&
        r.id &&
        (!isTerminal(runStatus(r)) || (runStatus(r) === 'done' && r.export_done === false)),
    ) ?? null
  );
}
