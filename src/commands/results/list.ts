import { defineVerb } from '../../command.js';
import type { Ctx } from '../../context.js';
import type { Envelope } from '../../api/pages.js';
import type { Format, Output } from '../../output/types.js';
import { createOutput } from '../../output/index.js';
import { resolveSquid } from '../../api/resolve.js';
import { crawlerAttributeNames, crawlerOf, resultColumns, resultPages, type Result, type ResultScope } from '../../api/results.js';
import { UsageError } from '../../errors.js';
import { AtomicFile, checkOutputTarget } from '../../io/atomic-file.js';
import { Progress, count } from '../../io/progress.js';
import { nonEmpty } from '../../validate/index.js';
import { pagingFlags, pagingHint, pagingOptions, records, tally, type Tally } from '../../io/paging.js';

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
    '-o FILE writes to a temp file renamed into place when complete (nothing is left behind on error or Ctrl-C); the format ' +
    'comes from --format, else the extension (.csv, .tsv, .json, .ndjson/.jsonl; others: csv). Only a regular file is ' +
    'replaced (it keeps its mode; a new file is 0600): a device, FIFO, socket, directory or symlink is refused; -o - is stdout. Without --limit, --page or ' +
    '--all, shows the first 100. Requests to /v1/results are paced at one per 550 ms (the service allows 2 per second).',
  options: [
    { flags: '--squid <squid>', description: 'results of every run of this squid (id, id prefix or exact name)' },
    { flags: '--run <run>', description: 'results of this run only' },
    { flags: '--task <task>', description: 'only the results of this task' },
    ...pagingOptions(DEFAULT_LIMIT),
    { flags: '-o, --output <file>', description: 'write the records to this regular file (atomically) instead of stdout; - is stdout' },
  ],
  examples: [
    'sq results list --squid "Paris restaurants" --limit 20',
    'sq results list --run <run> --all --format ndjson -o results.ndjson',
    'sq results list --squid "Paris restaurants" --all -o results.csv',
  ],
  async run(ctx, _args, opts) {
    const scopeRef = scopeOf(opts);
    const task = opts.task === undefined ? undefined : nonEmpty('--task', opts.task);
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    const flagged = opts.output === undefined ? undefined : nonEmpty('--output', opts.output);
    const output = flagged === '-' ? undefined : flagged;
    const settings = ctx.outputSettings();
    const format = output === undefined ? settings.format : fileFormat(output, settings.explicitFormat ? settings.format : null);
    if (output !== undefined) await checkOutputTarget('-o', output);

    const http = await ctx.http();
    let scope: ResultScope;
    let squidRecord: Record<string, unknown> | undefined;
    if ('squid' in scopeRef) {
      const squid = await resolveSquid(http, scopeRef.squid);
      scope = { squid: squid.id };
      squidRecord = squid.record;
    } else scope = scopeRef;

    const tabular = format !== 'json' && format !== 'ndjson' && !settings.fields;
    let attributes: string[] | null = null;
    if (tabular) {
      const crawler = await crawlerOf(http, scope, squidRecord);
      if (crawler) attributes = await crawlerAttributeNames(http, crawler);
    }

    const it = resultPages(http, scope, { ...paging.request, task, onWarning: (m) => ctx.out.warn(m) })[Symbol.asyncIterator]();
    // The first page is read before anything is written: without the crawler's attributes, its keys make the header.
    const first = await it.next();
    const columns = resultColumns(attributes, first.done ? [] : first.value.data).map((key) => ({ key }));
    const seen = tally();
    async function* all(): AsyncGenerator<Envelope<Result>> {
      if (first.done) return;
      yield first.value;
      for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
    }

    if (output === undefined) {
      await ctx.out.list(records(all(), seen), { columns, maskSecrets: false });
      pagingHint(ctx, paging, seen, 'results');
      return;
    }

    const file = await AtomicFile.create(output, { onCleanup: (fn) => ctx.onCleanup(fn) });
    const out: Output = createOutput(
      { stdout: file.stream, stderr: ctx.io.stderr },
      { ...settings, format, color: false, stdoutIsTTY: false, columns: 0 },
    );
    const progress = new Progress({ stream: ctx.io.stderr, tty: true, enabled: ctx.io.stderrIsTTY && !ctx.globals.quiet, columns: ctx.io.columns });
    let n: number;
    try {
      n = await out.list(counted(ctx, records(all(), seen), seen, progress), { columns, maskSecrets: false });
    } finally {
      progress.clear();
    }
    await file.commit();
    ctx.out.info(`Wrote ${count(n)} record${n === 1 ? '' : 's'} to ${output} (${format})`);
    pagingHint(ctx, paging, seen, 'results');
  },
});

function scopeOf(opts: Record<string, unknown>): ResultScope {
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
