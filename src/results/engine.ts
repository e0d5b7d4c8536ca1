// The export engine of `sq results list`: one page after another to stdout or an atomic -o FILE, with checkpoints
// that let an interrupted --all export continue (--resume) from its last whole page.
import type { Ctx } from '../cli/context.js';
import type { ResultsPlan } from './plan.js';
import type { Page, Result } from '../api/records.js';
import { FORMAT_SPECS } from '../output/types.js';
import { finiteNumber } from '../lib/guards.js';
import { isIdPrefix, resolveRun, resolveSquid, resolveTask } from '../api/resolve.js';
import { crawlerAttributeNames, crawlerOf, resultColumns, resultPages, type ResultScope } from '../api/results.js';
import { UsageError } from '../errors.js';
import { AtomicFile } from '../lib/atomic-file.js';
import { setV8Flag } from '../startup/v8-flags.js';
import { count } from '../io/progress.js';
import { pagingHint, records, tally } from '../cli/paging.js';
import { ResultsChangedError, checkTotal } from '../io/checkpoint.js';
import { shellWord } from '../io/shell.js';
import { resumeHint } from './resume.js';
import { counted, newProgress, resumableExport } from './whole-pages.js';

/**
 * The export engine of `results list`, also `sq go`'s last step: the records of a squid or run to `output` (a file
 * written atomically, resumable for ndjson, csv and tsv) or stdout, as the plan says. Resolves to the number of
 * records written.
 */
export async function writeResults(ctx: Ctx, plan: ResultsPlan): Promise<number> {
  // A long export keeps V8's young generation at its first size. Under an export's steady allocation V8 grows it, and
  // the peak RSS of a long export rose where it should stay flat (export_rss_ratio, docs/performance.md); a page at
  // a time needs no more. Scavenges are more frequent, at a pace of two pages a second. (A flag set now: the code
  // caches made before it are not rewritten, see code-cache.ts.)
  if (plan.paging.all) setV8Flag('--semi-space-growth-factor=1');
  const resume = plan.resume;
  try {
    return await exportResults(ctx, plan);
  } catch (err) {
    // Whatever stopped it (a fault, a signal, a FIFO put at the target meanwhile), an export with whole pages on
    // disk is told how to continue.
    if (resume?.saved && !(err instanceof ResultsChangedError)) {
      ctx.out.info(resumeHint(ctx, resume, resume.saved), { force: true });
    }
    throw err;
  }
}

/** The squid or run and the task the flags name, prefixes looked up (GETs only); a resumed export's squid must not have changed. */
async function resolveScope(
  http: Awaited<ReturnType<Ctx['http']>>,
  scopeRef: ResultScope,
  task: string | undefined,
  was: ResultScope | undefined,
): Promise<{ scope: ResultScope; squidRecord: Record<string, unknown> | undefined; taskId: string | undefined }> {
  let scope: ResultScope;
  let squidRecord: Record<string, unknown> | undefined;
  if ('squid' in scopeRef) {
    const squid = await resolveSquid(http, scopeRef.squid);
    scope = { squid: squid.id };
    squidRecord = squid.record;
    if (was && 'squid' in was && was.squid !== squid.id) {
      throw new UsageError(
        `cannot resume: --squid ${scopeRef.squid} is now squid ${squid.id}, the checkpoint is for ${was.squid}`,
      );
    }
  } else {
    // The 8-character ids the tables show: a prefix is looked up (GETs only); a full id goes as given.
    scope = isIdPrefix(scopeRef.run) ? { run: (await resolveRun(http, scopeRef.run.trim())).id } : scopeRef;
  }
  const taskId =
    task !== undefined && isIdPrefix(task)
      ? (await resolveTask(http, task.trim(), 'squid' in scope ? { squid: scope.squid } : {})).id
      : task;
  return { scope, squidRecord, taskId };
}

async function exportResults(ctx: Ctx, o: ResultsPlan): Promise<number> {
  const { scopeRef, task, paging, output, format, settings, resume: plan } = o;

  const http = await ctx.http();
  const { scope, squidRecord, taskId } = await resolveScope(http, scopeRef, task, plan?.ck?.scope);

  const continued = plan?.ck ?? null;
  const tabular = FORMAT_SPECS[format].json === null && !settings.fields;
  let attributes: string[] | null = null;
  if (tabular && !continued) {
    const crawler = await crawlerOf(http, scope, squidRecord);
    if (crawler) attributes = await crawlerAttributeNames(http, crawler);
  }

  const request = continued
    ? { pageSize: continued.page_size, startPage: continued.pages + 1, earlier: continued.records }
    : paging.request;
  const it = resultPages(http, scope, {
    ...request,
    task: taskId,
    onWarning: (m) => ctx.out.warn(m),
    onPage: ctx.onPage,
  })[Symbol.asyncIterator]();
  // The first page is read before anything is written: without the crawler's attributes, its keys make the header.
  const first = await it.next();
  if (continued) checkTotal(continued, first.done ? null : finiteNumber(first.value.total_results), plan!.startOver);
  const columns = (continued?.columns ?? resultColumns(attributes, first.done ? [] : first.value.data)).map((key) => ({
    key,
  }));
  const seen = tally();
  async function* all(): AsyncGenerator<Page<Result>> {
    if (first.done) return;
    yield first.value;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  }

  if (plan) return resumableExport(ctx, plan, { pages: all(), seen, columns, settings, scope, scopeRef, task, output });

  if (output === undefined) {
    const firstPage = paging.page === undefined || paging.page === 1;
    const empty = !firstPage
      ? undefined
      : 'squid' in scopeRef
        ? `No results${task !== undefined ? ' for that task' : ''} in squid ${JSON.stringify(String(squidRecord?.name ?? scopeRef.squid))}. ` +
          `Start a run: sq runs start --squid ${shellWord(scopeRef.squid)} --wait`
        : `No results${task !== undefined ? ' for that task' : ''} in run ${scopeRef.run.trim()}. A ` +
          `run still going adds them as it scrapes: sq runs watch ${shellWord(scopeRef.run.trim())}`;
    const n = await ctx.out.list(records(all(), seen), {
      columns,
      maskSecrets: false,
      empty,
      ...(o.byPage ? { pageOf: () => seen.pages } : {}),
    });
    pagingHint(ctx, paging, seen, 'results');
    return n;
  }

  const file = await AtomicFile.create(output, { onCleanup: (fn) => ctx.onCleanup(fn), replace: o.force });
  const out = ctx.out.to(file.stream, settings);
  const progress = newProgress(ctx);
  let n: number;
  try {
    n = await out.list(counted(ctx, records(all(), seen), seen, progress), {
      columns,
      maskSecrets: false,
      ...(o.byPage ? { pageOf: () => seen.pages } : {}),
    });
  } finally {
    progress.clear();
  }
  await file.commit();
  ctx.out.info(`Wrote ${count(n)} record${n === 1 ? '' : 's'} to ${output} (${format})`);
  pagingHint(ctx, paging, seen, 'results');
  return n;
}
