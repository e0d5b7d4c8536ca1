// The export engine of `sq results list`: one page after another to stdout or an atomic -o FILE, with checkpoints
// that let an interrupted --all export continue (--resume) from its last whole page.
import type { Ctx } from '../cli/context.js';
import type { Envelope } from '../api/pages.js';
import { FORMAT_SPECS, type Format, type Output } from '../output/types.js';
import { createOutput } from '../output/index.js';
import { finiteNumber as num } from '../lib/guards.js';
import { isIdPrefix, resolveRun, resolveSquid, resolveTask } from '../api/resolve.js';
import { crawlerAttributeNames, crawlerOf, resultColumns, resultPages, type Result, type ResultScope } from '../api/results.js';
import { SqError, UsageError } from '../errors.js';
import { AtomicFile, checkNewOutput, checkOutputTarget } from '../lib/atomic-file.js';
import { Progress, count } from '../io/progress.js';
import { nonEmpty } from '../validate/index.js';
import { pageFilter, pagingFlags, pagingHint, type pagingOptions, records, tally, type Paging, type Tally } from '../cli/paging.js';
import { MAX_PAGE_SIZE } from '../api/pages.js';
import { Sink, readerGone } from '../output/sink.js';
import {
  CHECKPOINT_VERSION,
  RESUMABLE_FORMATS,
  ResultsChangedError,
  checkTotal,
  exists,
  mismatch,
  readCheckpoint,
  removeCheckpoint,
  savedPagesProblem,
  siblings,
  writeCheckpoint,
  type Checkpoint,
} from '../io/checkpoint.js';
import { lockExport } from '../lib/lock.js';
import { shellWord } from '../io/shell.js';
import { Writable } from 'node:stream';
import { lstat, open } from 'node:fs/promises';
import { constants, fstatSync, readlinkSync } from 'node:fs';
import { resolve } from 'node:path';

import type { OptionsOf } from '../cli/command.js';

const FILE_FORMATS: Record<string, Format> = { csv: 'csv', tsv: 'tsv', tab: 'tsv', json: 'json', ndjson: 'ndjson', jsonl: 'ndjson' };

export type ExportOptions = OptionsOf<ReturnType<typeof pagingOptions>> & {
  squid?: string;
  run?: string;
  task?: string;
  output?: string;
  resume?: boolean;
  checkpoint?: string;
  force?: boolean;
};

/** `sq results list`: every flag checked and the checkpoint validated before any request, then the export. */
export async function listResults(ctx: Ctx, opts: ExportOptions, defaultLimit: number): Promise<void> {
  const scopeRef = scopeOf(opts);
  const task = opts.task === undefined ? undefined : nonEmpty('--task', opts.task);
  const paging = pagingFlags(opts, defaultLimit);
  pageFilter(ctx, paging, tally());
  const flagged = opts.output === undefined ? undefined : nonEmpty('--output', opts.output);
  const output = flagged === '-' ? undefined : flagged;
  const settings = ctx.outputSettings();
  const format = output === undefined ? settings.format : fileFormat(output, settings.explicitFormat ? settings.format : null);
  if (output !== undefined) await checkNewOutput('-o', output, opts.force === true);
  await runExport(ctx, opts, { scopeRef, task, paging, output, format });
}

/**
 * The export engine of `results list`, also `sq go`'s last step: the records of a squid or run to `output` (a file
 * written atomically, resumable for ndjson, csv and tsv) or stdout. Resolves to the number of records written.
 */
export async function runExport(
  ctx: Ctx,
  opts: { resume?: boolean; checkpoint?: string; force?: boolean },
  o: { scopeRef: ResultScope; task: string | undefined; paging: Paging; output: string | undefined; format: Format },
): Promise<number> {
  const plan = await resumePlan(ctx, opts, o);
  try {
    return await exportResults(ctx, { ...o, plan, force: opts.force === true });
  } catch (err) {
    // Whatever stopped it (a fault, a signal, a FIFO put at the target meanwhile), an export with whole pages on
    // disk is told how to continue.
    if (plan?.saved && !(err instanceof ResultsChangedError)) {
      ctx.out.info(resumeHint(ctx, plan, plan.saved), { force: true });
    }
    throw err;
  }
}

async function exportResults(
  ctx: Ctx,
  o: { scopeRef: ResultScope; task: string | undefined; paging: Paging; output: string | undefined; format: Format; plan: ResumePlan | null; force: boolean },
): Promise<number> {
  const { scopeRef, task, paging, output, format, plan } = o;
  const settings = ctx.outputSettings();

  const http = await ctx.http();
  let scope: ResultScope;
  let squidRecord: Record<string, unknown> | undefined;
  if ('squid' in scopeRef) {
    const squid = await resolveSquid(http, scopeRef.squid);
    scope = { squid: squid.id };
    squidRecord = squid.record;
    const was = plan?.ck?.scope;
    if (was && 'squid' in was && was.squid !== squid.id) {
      throw new UsageError(`cannot resume: --squid ${scopeRef.squid} is now squid ${squid.id}, the checkpoint is for ${was.squid}`);
    }
  } else {
    // The 8-character ids the tables show: a prefix is looked up (GETs only); a full id goes as given.
    scope = isIdPrefix(scopeRef.run) ? { run: (await resolveRun(http, scopeRef.run.trim())).id } : scopeRef;
  }
  const taskId = task !== undefined && isIdPrefix(task) ? (await resolveTask(http, task.trim(), 'squid' in scope ? { squid: scope.squid } : {})).id : task;

  const continued = plan?.ck ?? null;
  const tabular = FORMAT_SPECS[format].json === null && !settings.fields;
  let attributes: string[] | null = null;
  if (tabular && !continued) {
    const crawler = await crawlerOf(http, scope, squidRecord);
    if (crawler) attributes = await crawlerAttributeNames(http, crawler);
  }

  const request = continued ? { pageSize: continued.page_size, startPage: continued.pages + 1, earlier: continued.records } : paging.request;
  const it = resultPages(http, scope, { ...request, task: taskId, onWarning: (m) => ctx.out.warn(m) })[Symbol.asyncIterator]();
  // The first page is read before anything is written: without the crawler's attributes, its keys make the header.
  const first = await it.next();
  if (continued) checkTotal(continued, first.done ? null : num(first.value.total_results), plan!.startOver);
  const columns = (continued?.columns ?? resultColumns(attributes, first.done ? [] : first.value.data)).map((key) => ({ key }));
  const seen = tally();
  async function* all(): AsyncGenerator<Envelope<Result>> {
    if (first.done) return;
    yield first.value;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  }

  if (plan) return resumableExport(ctx, plan, { pages: all(), seen, columns, format, scope, scopeRef, task, output });

  if (output === undefined) {
    // On a narrow terminal the scope's own columns (the same squid, or run, on every row) give way before the data.
    const scoped = new Set('squid' in scope ? ['squid'] : ['squid', 'run']);
    const shown = columns.map((c) => (scoped.has(c.key) ? { ...c, dropFirst: true } : c));
    const firstPage = paging.page === undefined || paging.page === 1;
    const empty = !firstPage
      ? undefined
      : 'squid' in scopeRef
        ? `No results${task !== undefined ? ' for that task' : ''} in squid ${JSON.stringify(String(squidRecord?.name ?? scopeRef.squid))}. Start a run: sq runs start --squid ${shellWord(scopeRef.squid)} --wait`
        : `No results${task !== undefined ? ' for that task' : ''} in run ${scopeRef.run.trim()}. A run still going adds them as it scrapes: sq runs watch ${shellWord(scopeRef.run.trim())}`;
    const n = await ctx.out.list(records(all(), seen), { columns: shown, maskSecrets: false, empty, ...pageFilter(ctx, paging, seen) });
    pagingHint(ctx, paging, seen, 'results');
    return n;
  }

  const file = await AtomicFile.create(output, { onCleanup: (fn) => ctx.onCleanup(fn), replace: o.force });
  const out: Output = createOutput(
    { stdout: file.stream, stderr: ctx.io.stderr },
    { ...settings, format, color: false, stdoutIsTTY: false, columns: 0 },
    { signal: ctx.signal },
  );
  const progress = newProgress(ctx);
  let n: number;
  try {
    n = await out.list(counted(ctx, records(all(), seen), seen, progress), { columns, maskSecrets: false, ...pageFilter(ctx, paging, seen) });
  } finally {
    progress.clear();
  }
  await file.commit();
  ctx.out.info(`Wrote ${count(n)} record${n === 1 ? '' : 's'} to ${output} (${format})`);
  pagingHint(ctx, paging, seen, 'results');
  return n;
}

interface ResumePlan {
  /** Where the checkpoint lives; for -o, beside the file, with the partial data. */
  checkpoint: string;
  partial: string | null;
  /** The checkpoint to continue (--resume), or null for a new export. */
  ck: Checkpoint | null;
  /** The command that continues this export, for the hint after a failure. */
  command: string;
  /** What to do when the export cannot be continued. */
  startOver: string;
  /** The checkpoint on disk now (the one resumed, then each one written), for the hint after a failure. */
  saved: Checkpoint | null;
  /** The total seen in this run, for that hint. */
  total: number | null;
  /** --force with -o: the finished export may replace an existing file. */
  force: boolean;
}

/**
 * Flag checks and the checkpoint's validation, all before any request. Null when the export is not resumable
 * (not --all, or a JSON array to a file, or stdout without --checkpoint): then it runs as before.
 */
async function resumePlan(
  ctx: Ctx,
  opts: { resume?: boolean; checkpoint?: string; force?: boolean },
  o: { scopeRef: ResultScope; task: string | undefined; paging: Paging; output: string | undefined; format: Format },
): Promise<ResumePlan | null> {
  const resume = opts.resume === true;
  const ckFlag = opts.checkpoint === undefined ? undefined : nonEmpty('--checkpoint', opts.checkpoint);
  const flags = [resume && '--resume', ckFlag !== undefined && '--checkpoint'].filter(Boolean).join(' and ');
  if (flags && !o.paging.all) throw new UsageError(`${flags} need${flags.includes(' and ') ? '' : 's'} --all: only a whole export is continued page by page`);
  if (ckFlag !== undefined && o.output !== undefined) {
    throw new UsageError('--checkpoint is for exports to stdout; with -o FILE the checkpoint is kept beside the file (.FILE.sq-checkpoint)');
  }
  if (resume && o.output === undefined && ckFlag === undefined) {
    throw new UsageError('--resume needs -o FILE or --checkpoint FILE: the export to continue is found through them');
  }
  if (opts.force === true && o.output === undefined && !(resume && ckFlag !== undefined)) {
    throw new UsageError('--force goes with -o FILE (replace an existing FILE) or with --resume --checkpoint FILE (let the rest of an export to stdout go into an empty file)');
  }
  const resumable = (RESUMABLE_FORMATS as readonly string[]).includes(o.format);
  if (flags && !resumable) throw new UsageError(`${flags}: the format must be one of ${RESUMABLE_FORMATS.join(', ')} (got ${o.format}); a JSON array cannot be continued`);
  if (!o.paging.all || !resumable || (o.output === undefined && ckFlag === undefined)) return null;

  const where = o.output !== undefined ? siblings(o.output) : { partial: null, checkpoint: resolve(ckFlag!) };
  if (ckFlag !== undefined) await checkOutputTarget('--checkpoint', ckFlag);
  const scopeFlag = 'squid' in o.scopeRef ? '--squid' : '--run';
  const scopeRef = 'squid' in o.scopeRef ? o.scopeRef.squid : o.scopeRef.run;
  const settings = ctx.outputSettings();
  const words = ['sq', 'results', 'list', scopeFlag, scopeRef, ...(o.task ? ['--task', o.task] : []), '--all'];
  if (o.output === undefined || settings.explicitFormat) words.push('--format', o.format);
  if (settings.fields) words.push('--fields', settings.fields.join(','));
  words.push(...(o.output !== undefined ? ['-o', o.output] : ['--checkpoint', ckFlag!]), '--resume');
  if (opts.force === true && o.output !== undefined) words.push('--force');
  if (ctx.globals.profile) words.push('--profile', ctx.globals.profile);
  if (ctx.globals.baseUrl) words.push('--base-url', ctx.globals.baseUrl);
  const plan: ResumePlan = {
    ...where,
    ck: null,
    saved: null,
    total: null,
    force: opts.force === true,
    command: words.map(shellWord).join(' '),
    startOver: startOverText(where),
  };

  // Before reading anything of the export: what is read next must not be changing under another process's hands.
  await lockExport(where.checkpoint, o.output !== undefined ? `-o ${o.output}` : `--checkpoint ${ckFlag}`, (fn) => ctx.onCleanup(fn));
  const ck = await readCheckpoint(where.checkpoint, plan.startOver);
  const partialThere = where.partial !== null && (await exists(where.partial));
  if (!resume) {
    const refused = leftoverRefusal(where, ck, partialThere, o.output);
    if (refused) throw refused;
    // A checkpoint whose partial file is gone can be continued by nothing (a crash between rename and cleanup).
    if (ck) await removeCheckpoint(where.checkpoint);
    return plan;
  }
  if (!ck) throw new UsageError(`--resume: there is no interrupted export to continue (no checkpoint "${where.checkpoint}"); run the command without --resume`);
  const differs = mismatch(ck, {
    scopeFlag,
    scopeRef,
    task: o.task ?? null,
    format: o.format,
    fields: settings.fields,
    page_size: MAX_PAGE_SIZE,
    target: o.output === undefined ? null : resolve(o.output),
  });
  if (differs) throw new UsageError(`cannot resume: ${differs}; the checkpoint "${where.checkpoint}" belongs to another export`);
  if (where.partial === null) await checkStdoutFile(ctx, ck, where.checkpoint, opts.force === true);
  else {
    // lstat: the data is continued only in the regular file sq made, never through a link planted in its place.
    const st = await lstat(where.partial).catch(() => null);
    const why = !st ? 'is missing' : !st.isFile() ? 'is not a regular file' : st.size < ck.bytes ? `has ${st.size} bytes, fewer than the ${ck.bytes} its checkpoint counts` : null;
    if (why) throw new UsageError(`cannot resume: "${where.partial}" ${why}; ${plan.startOver}`);
    // Counted before it is trusted: what the checkpoint says must be what the file holds.
    const fh = await open(where.partial, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const problem = await savedPagesProblem(fh, ck).finally(() => fh.close());
    if (problem) throw new UsageError(`cannot resume: "${where.partial}" ${problem}; ${plan.startOver}`);
  }
  return { ...plan, ck, saved: ck };
}

/**
 * The export as whole pages: each page is rendered in memory (at most 100 records), written in one write, made
 * durable, and only then counted in the checkpoint. So the checkpoint never counts bytes that are not there, and
 * whatever follows its offset is a page cut mid-write, read again on --resume.
 */
async function resumableExport(
  ctx: Ctx,
  plan: ResumePlan,
  o: {
    pages: AsyncIterable<Envelope<Result>>;
    seen: Tally;
    columns: { key: string }[];
    format: Format;
    scope: ResultScope;
    scopeRef: ResultScope;
    task: string | undefined;
    output: string | undefined;
  },
): Promise<number> {
  const settings = ctx.outputSettings();
  const before = plan.ck;
  let ck: Checkpoint = before ?? {
    version: CHECKPOINT_VERSION,
    command: 'results list',
    scope: o.scope,
    scope_ref: 'squid' in o.scopeRef ? o.scopeRef.squid : o.scopeRef.run,
    task: o.task ?? null,
    format: o.format,
    fields: settings.fields,
    columns: o.columns.map((c) => c.key),
    page_size: MAX_PAGE_SIZE,
    pages: 0,
    records: 0,
    bytes: 0,
    total_results: null,
    target: o.output === undefined ? null : resolve(o.output),
    updated_at: '',
  };

  let file: AtomicFile | null = null;
  const stdout = new Sink(ctx.io.stdout);
  const put = async (chunk: string): Promise<void> => {
    if (chunk === '') return;
    if (file) {
      await file.writeThrough(chunk);
      await file.sync();
      return;
    }
    // Counted in the checkpoint only once written whole: a failed write (a full disk) stops the export here.
    const closed = () => new SqError(`stdout was closed after ${count(ck.pages)} whole page${ck.pages === 1 ? '' : 's'} (${count(ck.records)} records): the export stopped there`);
    if (stdout.closed) throw closed();
    try {
      await new Promise<void>((res, rej) => ctx.io.stdout.write(chunk, (err) => (err ? rej(err) : res())));
    } catch (err) {
      // The reader went away (`| head`): with a checkpoint the user asked to be able to continue, so it is kept.
      throw readerGone(err) ? closed() : err;
    }
  };

  const parts: string[] = [];
  const buffer = new Writable({
    decodeStrings: false,
    write(chunk, _enc, cb) {
      parts.push(String(chunk));
      cb();
    },
  });
  const take = () => parts.splice(0).join('');
  const out = createOutput({ stdout: buffer, stderr: ctx.io.stderr }, { ...settings, format: o.format, color: false, stdoutIsTTY: false, columns: 0 });
  o.seen.shown = ck.records;

  async function* whole(): AsyncGenerator<Result> {
    for await (const page of o.pages) {
      if (o.seen.total === null && typeof page.total_results === 'number') plan.total = o.seen.total = page.total_results;
      if (page.data.length === 0) continue;
      if (o.output !== undefined) file ??= await openPartial(ctx, o.output, plan);
      for (const r of page.data) {
        o.seen.shown++;
        yield r;
      }
      // Resumed here once every record of the page is rendered into the buffer.
      const chunk = take();
      await put(chunk);
      ck = { ...ck, pages: ck.pages + 1, records: ck.records + page.data.length, bytes: ck.bytes + Buffer.byteLength(chunk), total_results: ck.total_results ?? num(page.total_results) };
      await writeCheckpoint(plan.checkpoint, ck);
      plan.saved = ck;
      file?.keep();
    }
  }

  const progress = newProgress(ctx);
  try {
    const source = whole();
    await out.list(o.output !== undefined ? counted(ctx, source, o.seen, progress) : source, {
      columns: o.columns,
      maskSecrets: false,
      header: before === null,
    });
    if (o.output !== undefined) file ??= await openPartial(ctx, o.output, plan);
    await put(take());
    if (file) await file.commit();
  } finally {
    progress.clear();
  }
  await removeCheckpoint(plan.checkpoint);
  if (o.output !== undefined) {
    const n = ck.records;
    const after = before ? `; resumed after ${count(before.records)}` : '';
    ctx.out.info(`Wrote ${count(n)} record${n === 1 ? '' : 's'} to ${o.output} (${o.format}${after})`);
  }
  return ck.records;
}

async function openPartial(ctx: Ctx, output: string, plan: ResumePlan): Promise<AtomicFile> {
  const file = await AtomicFile.create(output, {
    onCleanup: (fn) => ctx.onCleanup(fn),
    tempPath: plan.partial!,
    resumeAt: plan.ck?.bytes,
    replace: plan.force,
  });
  // The earlier pages are the user's data: a failure now must not delete them.
  if (plan.ck) file.keep();
  return file;
}

function resumeHint(ctx: Ctx, plan: ResumePlan, ck: Checkpoint): string {
  const total = plan.total ?? ck.total_results;
  const what = `${count(ck.pages)} whole page${ck.pages === 1 ? '' : 's'} (${count(ck.records)}${total !== null ? ` of ${count(total)}` : ''} records)`;
  if (plan.partial !== null) {
    return `Kept ${what} in "${plan.partial}". To continue from page ${ck.pages + 1}, run:\n  ${plan.command}`;
  }
  const n = ck.bytes;
  // A reader that stops early (| head -c) keeps less than it was given, and what it dropped is not in any file.
  const pipe = stdoutFile(ctx)?.isFile()
    ? ''
    : ` stdout is not a file: if it went into a pipe, the pipe's reader may have lost the last page(s) it was given, and then what you saved is shorter than ${n} bytes and cannot be continued (start over).`;
  return (
    `stdout got ${what}, ${n} bytes; the checkpoint is "${plan.checkpoint}".${pipe} To continue, cut your saved output OUT back to ` +
    `${n} bytes (its last page may be cut mid-write), only if it holds at least that many, and append the rest:\n` +
    `  if [ "$(wc -c < OUT)" -ge ${n} ]; then truncate -s ${n} OUT && ${plan.command} >> OUT; ` +
    `else echo "OUT holds fewer than ${n} bytes: it lost data and cannot be continued; start over" >&2; false; fi`
  );
}

/**
 * Before --resume appends to the file stdout writes to (a terminal or pipe cannot be checked): it must hold exactly
 * the checkpoint's bytes, whole records and no NUL, so the rest lines up with it. An empty file (`> OUT` where `>>`
 * was meant) would get only the rest: refused unless --force, which warns.
 */
async function checkStdoutFile(ctx: Ctx, ck: Checkpoint, checkpoint: string, force: boolean): Promise<void> {
  const st = stdoutFile(ctx);
  if (!st?.isFile()) return;
  const fd = (ctx.io.stdout as unknown as { fd: number }).fd;
  const name = stdoutName(fd);
  const { size } = st;
  if (size === 0) {
    const rest = `pages ${count(ck.pages + 1)} on${FORMAT_SPECS[ck.format as Format].line ? ', without the header' : ''}`;
    if (force) {
      ctx.out.warn(`--force: stdout (${name}) is an empty file: it gets only ${rest}, not the first ${count(ck.bytes)} bytes the checkpoint "${checkpoint}" counts`);
      return;
    }
    throw new UsageError(
      `cannot resume into an empty file: stdout (${name}) would get only ${rest}, while the checkpoint "${checkpoint}" counts ` +
        `${count(ck.bytes)} bytes before them. Append to the file that holds them with >> (… --resume >> OUT, not > OUT), ` +
        `or add --force to write only the rest here`,
    );
  }
  if (size < ck.bytes) {
    throw new UsageError(
      `cannot resume: stdout (${name}) has ${size} bytes, fewer than the ${ck.bytes} the checkpoint "${checkpoint}" counts: ` +
        `the saved output lost data (a pipe's reader may have dropped the last page(s)) and cannot be continued; start over`,
    );
  }
  if (size > ck.bytes) {
    // Appending to a saved output that was not cut back to the checkpoint would leave half a page inside it.
    throw new UsageError(
      `cannot resume: stdout (${name}) is a file of ${size} bytes, but the checkpoint "${checkpoint}" counts ${ck.bytes}: ` +
        `cut it back to ${ck.bytes} bytes first (truncate -s ${ck.bytes} OUT), then append with >> OUT`,
    );
  }
  const fh = await openToRead(fd, st);
  if (!fh) return;
  const problem = await savedPagesProblem(fh, ck).finally(() => fh.close());
  if (problem) throw new UsageError(`cannot resume: stdout (${name}) ${problem}; the checkpoint "${checkpoint}" does not describe it`);
}

/** What stdout is, when it is a file descriptor (a test's stream is not): fstat of it, or null. */
function stdoutFile(ctx: Ctx): ReturnType<typeof fstatSync> | null {
  const fd = (ctx.io.stdout as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return null;
  try {
    return fstatSync(fd);
  } catch {
    return null;
  }
}

/** The path of the file behind `fd`, for messages; "a file" when the system does not say. */
function stdoutName(fd: number): string {
  try {
    return `"${readlinkSync(`/proc/self/fd/${fd}`)}"`;
  } catch {
    return 'a file';
  }
}

/** The same file as `fd` (opened write-only by the shell's >>), opened again to be read; null where that is not possible. */
async function openToRead(fd: number, st: ReturnType<typeof fstatSync>) {
  const fh = await open(`/proc/self/fd/${fd}`, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(() => null);
  if (!fh) return null;
  const again = await fh.stat().catch(() => null);
  if (again && again.dev === st.dev && again.ino === st.ino) return fh;
  await fh.close();
  return null;
}

function newProgress(ctx: Ctx): Progress {
  return new Progress({ stream: ctx.io.stderr, tty: true, enabled: ctx.io.stderrIsTTY && !ctx.globals.quiet, columns: ctx.io.columns });
}

function scopeOf(opts: { squid?: string; run?: string }): ResultScope {
  const squid = opts.squid;
  const run = opts.run;
  if ((squid === undefined) === (run === undefined)) {
    throw new UsageError(
      squid === undefined
        ? 'pass exactly one of --squid or --run (neither was given)'
        : '--squid and --run cannot be used together: pass exactly one of them',
    );
  }
  return squid !== undefined ? { squid: nonEmpty('--squid', squid) } : { run: nonEmpty('--run', run) };
}

/** The format of an -o FILE: the one given, else the file's extension (csv for any other). */
export function fileFormat(path: string, explicit: Format | null): Format {
  if (explicit && FORMAT_SPECS[explicit].terminal) throw new UsageError('--format table is for terminals; with -o use csv, tsv, json or ndjson');
  if (explicit) return explicit;
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  return FILE_FORMATS[ext] ?? 'csv';
}

async function* counted<T>(ctx: Ctx, src: AsyncIterable<T>, seen: Tally, progress: Progress): AsyncGenerator<T> {
  for await (const r of src) {
    yield r;
    if (ctx.io.stderrIsTTY) {
      const total = seen.total;
      progress.update({
        fraction: total ? seen.shown / total : null,
        text: `${count(seen.shown)}${total !== null ? ` of ${count(total)}` : ''} records`,
      });
    }
  }
}

function startOverText(where: { partial: string | null; checkpoint: string }): string {
  const leftovers = [where.partial, where.checkpoint].filter((p): p is string => p !== null);
  return `to start over, delete ${leftovers.map((p) => `"${p}"`).join(' and ')} and run the command without --resume`;
}

/**
 * A new export (without --resume) finding what an interrupted one left: never reused or overwritten behind the user's
 * back, as it holds pages that took time to read (exit 2 naming it). Null when nothing is in the way.
 */
function leftoverRefusal(where: { partial: string | null; checkpoint: string }, ck: Checkpoint | null, partialThere: boolean, output: string | undefined): UsageError | null {
  if (ck && (where.partial === null || partialThere)) {
    return new UsageError(`an interrupted export is waiting to be continued (${count(ck.pages)} page${ck.pages === 1 ? '' : 's'} in "${where.checkpoint}"): add --resume to continue it; ${startOverText(where).replace(' without --resume', ' again')}`);
  }
  if (partialThere) return new UsageError(`"${where.partial}" exists (another export of ${output} running, or one that stopped before its first page): delete it if no export is running`);
  return null;
}

/**
 * The refusal a new `--all -o output` export would give for an interrupted one's leftovers, found up front by a
 * command that does paid work before it exports (sq go starts a run): nothing is removed here, outside the export's lock.
 */
export async function refuseInterruptedExport(output: string, format: Format): Promise<void> {
  if (!FORMAT_SPECS[format].resumable) return;
  const where = siblings(output);
  const refused = leftoverRefusal(where, await readCheckpoint(where.checkpoint, startOverText(where)), await exists(where.partial), output);
  if (refused) throw refused;
}
