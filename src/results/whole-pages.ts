// A resumable export written as whole pages, each made durable before the checkpoint counts it.
import type { Ctx } from '../cli/context.js';
import type { Page, Result } from '../api/records.js';
import type { OutputSettings } from '../output/types.js';
import { finiteNumber } from '../lib/guards.js';
import type { ResultScope } from '../api/results.js';
import { SqError } from '../errors.js';
import { AtomicFile } from '../lib/atomic-file.js';
import { Progress, count } from '../io/progress.js';
import type { Tally } from '../cli/paging.js';
import { MAX_PAGE_SIZE } from '../api/pages.js';
import { Sink, readerGone } from '../output/sink.js';
import { CHECKPOINT_VERSION, removeCheckpoint, writeCheckpoint, type Checkpoint } from '../io/checkpoint.js';
import { Writable } from 'node:stream';
import { resolve } from 'node:path';

import type { ResumePlan } from './resume.js';

/**
 * The export as whole pages: each page is rendered in memory (at most 100 records), written in one write, made
 * durable, and only then counted in the checkpoint. So the checkpoint never counts bytes that are not there, and
 * whatever follows its offset is a page cut mid-write, read again on --resume.
 */
export async function resumableExport(
  ctx: Ctx,
  plan: ResumePlan,
  o: {
    pages: AsyncIterable<Page<Result>>;
    seen: Tally;
    columns: { key: string }[];
    /** The plan's settings, its format among them. */
    settings: OutputSettings;
    scope: ResultScope;
    scopeRef: ResultScope;
    task: string | undefined;
    output: string | undefined;
  },
): Promise<number> {
  const { settings } = o;
  const before = plan.ck;
  let ck: Checkpoint = before ?? newCheckpoint(o);

  let file: AtomicFile | null = null;
  const put = pageWriter(
    ctx,
    () => file,
    () => ck,
  );
  const { buffer, take } = pageBuffer();
  const out = ctx.out.to(buffer, settings);
  o.seen.shown = ck.records;

  async function* whole(): AsyncGenerator<Result> {
    for await (const page of o.pages) {
      if (o.seen.total === null && typeof page.total_results === 'number')
        plan.total = o.seen.total = page.total_results;
      if (page.data.length === 0) continue;
      if (o.output !== undefined) file ??= await openPartial(ctx, o.output, plan);
      for (const r of page.data) {
        o.seen.shown++;
        yield r;
      }
      // Resumed here once every record of the page is rendered into the buffer.
      const chunk = take();
      await put(chunk);
      ck = {
        ...ck,
        pages: ck.pages + 1,
        records: ck.records + page.data.length,
        bytes: ck.bytes + Buffer.byteLength(chunk),
        total_results: ck.total_results ?? finiteNumber(page.total_results),
      };
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
    ctx.out.info(`Wrote ${count(n)} record${n === 1 ? '' : 's'} to ${o.output} (${settings.format}${after})`);
  }
  return ck.records;
}

type Pages = Parameters<typeof resumableExport>[2];

/** The checkpoint of a new export: no page yet. */
function newCheckpoint(o: Pages): Checkpoint {
  return {
    version: CHECKPOINT_VERSION,
    command: 'results list',
    scope: o.scope,
    scope_ref: 'squid' in o.scopeRef ? o.scopeRef.squid : o.scopeRef.run,
    task: o.task ?? null,
    format: o.settings.format,
    fields: o.settings.fields,
    columns: o.columns.map((c) => c.key),
    page_size: MAX_PAGE_SIZE,
    pages: 0,
    records: 0,
    bytes: 0,
    total_results: null,
    target: o.output === undefined ? null : resolve(o.output),
    updated_at: '',
  };
}

/**
 * Writes one whole page: to the partial file, made durable, or to stdout. A failed write (a full disk, a reader gone)
 * stops the export at the last page the checkpoint (`kept`) counts.
 */
function pageWriter(
  ctx: Ctx,
  target: () => AtomicFile | null,
  kept: () => Checkpoint,
): (chunk: string) => Promise<void> {
  const stdout = new Sink(ctx.io.stdout);
  return async (chunk: string): Promise<void> => {
    if (chunk === '') return;
    const file = target();
    if (file) {
      await file.writeThrough(chunk);
      await file.sync();
      return;
    }
    // Counted in the checkpoint only once written whole: a failed write (a full disk) stops the export here.
    const ck = kept();
    const closed = () =>
      new SqError(
        `stdout was closed after ${count(ck.pages)} whole page${ck.pages === 1 ? '' : 's'} (${count(ck.records)} records): the export stopped there`,
      );
    if (stdout.closed) throw closed();
    try {
      await new Promise<void>((res, rej) => ctx.io.stdout.write(chunk, (err) => (err ? rej(err) : res())));
    } catch (err) {
      // The reader went away (`| head`): with a checkpoint the user asked to be able to continue, so it is kept.
      throw readerGone(err) ? closed() : err;
    }
  };
}

/** Where a page is rendered before it is written whole: `take` empties it. */
function pageBuffer(): { buffer: Writable; take(): string } {
  const parts: string[] = [];
  const buffer = new Writable({
    decodeStrings: false,
    write(chunk, _enc, cb) {
      parts.push(String(chunk));
      cb();
    },
  });
  return { buffer, take: () => parts.splice(0).join('') };
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

export async function* counted<T>(ctx: Ctx, src: AsyncIterable<T>, seen: Tally, progress: Progress): AsyncGenerator<T> {
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

export function newProgress(ctx: Ctx): Progress {
  return new Progress({
    stream: ctx.io.stderr,
    tty: true,
    enabled: ctx.io.stderrIsTTY && !ctx.globals.quiet,
    columns: ctx.io.columns,
  });
}
