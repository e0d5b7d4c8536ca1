import { defineVerb } from '../../command.js';
import type { Ctx } from '../../context.js';
import type { Envelope } from '../../api/pages.js';
import type { Format, Output } from '../../output/types.js';
import { createOutput } from '../../output/index.js';
import { resolveSquid } from '../../api/resolve.js';
import { crawlerAttributeNames, crawlerOf, resultColumns, resultPages, type Result, type ResultScope } from '../../api/results.js';
import { SqError, UsageError } from '../../errors.js';
import { AtomicFile, checkOutputTarget } from '../../io/atomic-file.js';
import { Progress, count } from '../../io/progress.js';
import { nonEmpty } from '../../validate/index.js';
import { pageFilter, pagingFlags, pagingHint, pagingOptions, records, tally, type Paging, type Tally } from '../../io/paging.js';
import { MAX_PAGE_SIZE } from '../../api/pages.js';
import { Sink, readerGone } from '../../output/sink.js';
import {
  CHECKPOINT_VERSION,
  RESUMABLE_FORMATS,
  ResultsChangedError,
  checkTotal,
  exists,
  lockExport,
  mismatch,
  readCheckpoint,
  removeCheckpoint,
  siblings,
  writeCheckpoint,
  type Checkpoint,
} from '../../io/checkpoint.js';
import { shellWord } from '../../io/shell.js';
import { Writable } from 'node:stream';
import { lstat } from 'node:fs/promises';
import { fstatSync } from 'node:fs';
import { resolve } from 'node:path';

const DEFAULT_LIMIT = 100;
const FILE_FORMATS: Record<string, Format> = { csv: 'csv', tsv: 'tsv', tab: 'tsv', json: 'json', ndjson: 'ndjson', jsonl: 'ndjson' };

export default defineVerb({
  name: 'list',
  aliases: ['ls', 'export'],
  summary: 'List or export the results of a squid or of one run',
  description:
    'List results (GET /v1/results) of a squid (--squid) or of one run (--run): exactly one of them. --all reads every page ' +
    'and writes each record as it arrives, so memory stays flat for any size. CSV/TSV columns are stable: id, squid, run, ' +
    'scraping_time, then the crawler\'s result fields in their documented order (a field a row lacks is an empty cell). ' +
    '-o FILE writes to a temp file renamed into place when complete, so FILE appears whole or not at all; the format ' +
    'comes from --format, else the extension (.csv, .tsv, .json, .ndjson/.jsonl; others: csv). Only a regular file is ' +
    'replaced (it keeps its mode; a new file is 0600): a device, FIFO, socket, directory or symlink is refused; -o - is stdout. Without --limit, --page or ' +
    '--all, shows the first 100. Requests to /v1/results are paced at one per 550 ms (the service allows 2 per second).\n\n' +
    'Resuming: when an --all -o FILE export in ndjson, csv or tsv fails or is interrupted (Ctrl-C, exit 130) after at ' +
    'least one whole page, the pages written so far stay in .FILE.sq-partial with a checkpoint in .FILE.sq-checkpoint, ' +
    'and stderr shows the command to continue: the same one with --resume. --resume checks that the checkpoint matches ' +
    'the command (scope, --task, format, --fields, page size; else exit 2, before any request), cuts the partial file back ' +
    'to the end of its last whole page, reads only the pages after it, then renames the file into place and removes the ' +
    'checkpoint. If the squid\'s result count changed meanwhile (a run still adding results), --resume refuses (exit 1) and ' +
    'changes nothing: delete the two hidden files and export again. --resume with no checkpoint is exit 2; a new export ' +
    'while a checkpoint or partial file exists is exit 2 too (resume it, or delete them). Two exports or resumes of one file ' +
    'never run at once: the second is exit 2 naming the first\'s pid (a lock beside the checkpoint). JSON (one array) is not resumable.\n\n' +
    'To stdout, --all --checkpoint CKPT (ndjson, csv, tsv) writes each page in one write and, once it is written whole, ' +
    'records in CKPT the pages and bytes written so far; on success CKPT is removed. A write error (a full disk) or a ' +
    'reader that goes away (| head) is exit 1 and keeps CKPT. After a failure, cut your saved output back to the ' +
    '"bytes" in CKPT (the last page may have been cut mid-write) and append the rest with --resume; the CSV/TSV header ' +
    'is not written again. When stdout is a file that is neither empty nor CKPT\'s size, --resume refuses (exit 2). ' +
    '--checkpoint does not go with -o (which keeps its checkpoint beside FILE).',
  options: [
    { flags: '--squid <squid>', description: 'results of every run of this squid (id, id prefix or exact name)' },
    { flags: '--run <run>', description: 'results of this run only' },
    { flags: '--task <task>', description: 'only the results of this task' },
    ...pagingOptions(DEFAULT_LIMIT),
    { flags: '-o, --output <file>', description: 'write the records to this regular file (atomically) instead of stdout; - is stdout' },
    { flags: '--resume', description: 'continue an interrupted --all export from its last whole page (-o FILE, or --checkpoint)' },
    { flags: '--checkpoint <file>', description: 'with --all to stdout (ndjson, csv, tsv): record the pages written, for --resume' },
  ],
  examples: [
    'sq results list --squid "Paris restaurants" --limit 20',
    'sq results list --run <run> --all --format ndjson -o results.ndjson',
    'sq results list --squid "Paris restaurants" --all -o results.csv',
    'sq results list --squid "Paris restaurants" --all -o results.csv --resume',
    'sq results list --run <run> --all --format ndjson --checkpoint ckpt.json > out.ndjson',
    'truncate -s "$(jq .bytes ckpt.json)" out.ndjson && sq results list --run <run> --all --format ndjson --checkpoint ckpt.json --resume >> out.ndjson',
  ],
  async run(ctx, _args, opts) {
    const scopeRef = scopeOf(opts);
    const task = opts.task === undefined ? undefined : nonEmpty('--task', opts.task);
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    pageFilter(ctx, paging, tally());
    const flagged = opts.output === undefined ? undefined : nonEmpty('--output', opts.output);
    const output = flagged === '-' ? undefined : flagged;
    const settings = ctx.outputSettings();
    const format = output === undefined ? settings.format : fileFormat(output, settings.explicitFormat ? settings.format : null);
    if (output !== undefined) await checkOutputTarget('-o', output);
    const plan = await resumePlan(ctx, opts, { scopeRef, task, paging, output, format });
    try {
      await exportResults(ctx, { scopeRef, task, paging, output, format, plan });
    } catch (err) {
      // Whatever stopped it (a fault, a signal, a FIFO put at the target meanwhile), an export with whole pages on
      // disk is told how to continue.
      if (plan?.saved && !(err instanceof ResultsChangedError)) {
        ctx.out.info(resumeHint(plan, plan.saved), { force: true });
      }
      throw err;
    }
  },
});

async function exportResults(
  ctx: Ctx,
  o: { scopeRef: ResultScope; task: string | undefined; paging: Paging; output: string | undefined; format: Format; plan: ResumePlan | null },
): Promise<void> {
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
  } else scope = scopeRef;

  const continued = plan?.ck ?? null;
  const tabular = format !== 'json' && format !== 'ndjson' && !settings.fields;
  let attributes: string[] | null = null;
  if (tabular && !continued) {
    const crawler = await crawlerOf(http, scope, squidRecord);
    if (crawler) attributes = await crawlerAttributeNames(http, crawler);
  }

  const request = continued ? { pageSize: continued.page_size, startPage: continued.pages + 1, earlier: continued.records } : paging.request;
  const it = resultPages(http, scope, { ...request, task, onWarning: (m) => ctx.out.warn(m) })[Symbol.asyncIterator]();
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

  if (plan) {
    await resumableExport(ctx, plan, { pages: all(), seen, columns, format, scope, scopeRef, task, output });
    return;
  }

  if (output === undefined) {
    await ctx.out.list(records(all(), seen), { columns, maskSecrets: false, ...pageFilter(ctx, paging, seen) });
    pagingHint(ctx, paging, seen, 'results');
    return;
  }

  const file = await AtomicFile.create(output, { onCleanup: (fn) => ctx.onCleanup(fn) });
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
}

/**
 * Flag checks and the checkpoint's validation, all before any request. Null when the export is not resumable
 * (not --all, or a JSON array to a file, or stdout without --checkpoint): then it runs as before.
 */
async function resumePlan(
  ctx: Ctx,
  opts: { resume?: boolean; checkpoint?: string },
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
  if (ctx.globals.profile) words.push('--profile', ctx.globals.profile);
  if (ctx.globals.baseUrl) words.push('--base-url', ctx.globals.baseUrl);
  const leftovers = [where.partial, where.checkpoint].filter((p): p is string => p !== null);
  const plan: ResumePlan = {
    ...where,
    ck: null,
    saved: null,
    total: null,
    command: words.map(shellWord).join(' '),
    startOver: `to start over, delete ${leftovers.map((p) => `"${p}"`).join(' and ')} and run the command without --resume`,
  };

  // Before reading anything of the export: what is read next must not be changing under another process's hands.
  await lockExport(where.checkpoint, o.output !== undefined ? `-o ${o.output}` : `--checkpoint ${ckFlag}`, (fn) => ctx.onCleanup(fn));
  const ck = await readCheckpoint(where.checkpoint);
  const partialThere = where.partial !== null && (await exists(where.partial));
  if (!resume) {
    // A leftover is never reused or overwritten behind the user's back: it holds pages that took time to read.
    if (ck && (where.partial === null || partialThere)) {
      throw new UsageError(`an interrupted export is waiting to be continued (${count(ck.pages)} page${ck.pages === 1 ? '' : 's'} in "${where.checkpoint}"): add --resume to continue it; ${plan.startOver.replace(' without --resume', ' again')}`);
    }
    if (partialThere) {
      throw new UsageError(`"${where.partial}" exists (another export of ${o.output} running, or one that stopped before its first page): delete it if no export is running`);
    }
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
  if (where.partial === null) {
    // Appending to a saved output that was not cut back to the checkpoint would leave a hole or a half page inside it.
    const size = stdoutFileSize(ctx);
    if (size !== null && size > 0 && size !== ck.bytes) {
      throw new UsageError(
        `cannot resume: stdout is a file of ${size} bytes, but the checkpoint "${where.checkpoint}" counts ${ck.bytes}: ` +
          `cut it back to ${ck.bytes} bytes first (truncate -s ${ck.bytes} OUT), then append with >> OUT (or write to a new, empty file)`,
      );
    }
  } else {
    // lstat: the data is continued only in the regular file sq made, never through a link planted in its place.
    const st = await lstat(where.partial).catch(() => null);
    const why = !st ? 'is missing' : !st.isFile() ? 'is not a regular file' : st.size < ck.bytes ? `has ${st.size} bytes, fewer than the ${ck.bytes} its checkpoint counts` : null;
    if (why) throw new UsageError(`cannot resume: "${where.partial}" ${why}; ${plan.startOver}`);
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
): Promise<void> {
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
}

async function openPartial(ctx: Ctx, output: string, plan: ResumePlan): Promise<AtomicFile> {
  const file = await AtomicFile.create(output, {
    onCleanup: (fn) => ctx.onCleanup(fn),
    tempPath: plan.partial!,
    resumeAt: plan.ck?.bytes,
  });
  // The earlier pages are the user's data: a failure now must not delete them.
  if (plan.ck) file.keep();
  return file;
}

function resumeHint(plan: ResumePlan, ck: Checkpoint): string {
  const total = plan.total ?? ck.total_results;
  const what = `${count(ck.pages)} whole page${ck.pages === 1 ? '' : 's'} (${count(ck.records)}${total !== null ? ` of ${count(total)}` : ''} records)`;
  if (plan.partial !== null) {
    return `Kept ${what} in "${plan.partial}". To continue from page ${ck.pages + 1}, run:\n  ${plan.command}`;
  }
  return (
    `stdout got ${what}, ${ck.bytes} bytes; the checkpoint is "${plan.checkpoint}". To continue, cut the saved output ` +
    `back to ${ck.bytes} bytes (its last page may be cut mid-write) and append the rest:\n  truncate -s ${ck.bytes} OUT && ${plan.command} >> OUT`
  );
}

/** The size of the regular file stdout writes to, or null when it is not one (a terminal, pipe, device, or a test's stream). */
function stdoutFileSize(ctx: Ctx): number | null {
  const fd = (ctx.io.stdout as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return null;
  try {
    const st = fstatSync(fd);
    return st.isFile() ? st.size : null;
  } catch {
    return null;
  }
}

function newProgress(ctx: Ctx): Progress {
  return new Progress({ stream: ctx.io.stderr, tty: true, enabled: ctx.io.stderrIsTTY && !ctx.globals.quiet, columns: ctx.io.columns });
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
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

function fileFormat(path: string, explicit: Format | null): Format {
  if (explicit === 'table') throw new UsageError('--format table is for terminals; with -o use csv, tsv, json or ndjson');
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
