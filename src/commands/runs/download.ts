import { lstat, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { defineVerb } from '../../cli/command.js';
import type { HttpClient, StreamResponse } from '../../api/http.js';
import { downloadUrl, getRun, runStatus, type ExportRequest } from '../../api/runs.js';
import { EXPORT_FORMATS, XLSX_MAX_ROWS, type ExportFormat } from '../../api/export-formats.js';
import { ApiError, AuthError, NotFoundError, TimeoutError, UsageError } from '../../errors.js';
import { AtomicFile, checkNewOutput, checkOutputTarget, checkTargetDir, existsError } from '../../lib/atomic-file.js';
import { humanBytes } from '../../io/progress.js';
import { newProgress } from '../../results/whole-pages.js';
import { nonEmpty, enumFlag } from '../../validate/index.js';
import { idOf, PREFIX_NOTE, RUN_SQUID_OPTION } from '../_shared/ref.js';
import type { Ctx } from '../../cli/context.js';
import { count } from '../../io/count.js';

export default defineVerb({
  name: 'download',
  summary: "Download a finished run's export as CSV, XLSX, JSON or JSONL",
  description:
    'Download the export of a run whose export is ready (export_done). --file-format csv|xlsx|json|jsonl (default csv; ' +
    'changelog 2026-06-16) picks the format; the global --fields a,b keeps only these columns of the file, in this ' +
    "order, and --omit c leaves columns out (both are checked by the platform against the run's columns; a column in " +
    'both is exit 2). XLSX holds at most 1,048,575 rows: a bigger run is exit 2 before the download. Formats other than ' +
    "CSV are converted by the platform in the background; the conversion's progress is shown while sq waits for it. " +
    'A body cut short (a reset, a stall) is fetched again from a fresh link, 3 tries in all (on stdout, only while ' +
    'nothing was written); the last failure names the bytes received and the URL (without its query). ' +
    'The file goes to a temp file in the target directory ' +
    'and is renamed into place only when complete, so an interrupted download leaves nothing behind. The default name is the ' +
    'one the server gives (<squid>_YYYYMMDD_HHMM.<format>) reduced to a plain file name (no directories, no leading ' +
    ("dots) with the format's extension, else <run>.<format>. An existing file is kept unless --force, " +
      'whether sq or -o FILE named it (exit 2 before the download, as ') +
    '`results list -o` does); --force replaces a regular file, keeping its mode (a device, FIFO, socket, directory or ' +
    'symlink is refused); -o - writes to stdout; -o DIR/ picks the directory. ' +
    `<run> ${PREFIX_NOTE}.`,
  args: ['<run>'],
  options: [
    {
      flags: '-o, --output <file>',
      description: 'where to write: a file, a directory, or - for stdout',
      defaultText: "the server's file name in the current directory",
    },
    { flags: '--force', description: "replace an existing file (-o FILE, or the server's file name)" },
    {
      flags: '--file-format <format>',
      description: 'csv, xlsx, json (an array) or jsonl',
      choices: EXPORT_FORMATS,
      defaultText: 'csv',
    },
    { flags: '--omit <columns>', description: 'leave these columns out (comma-separated)' },
    RUN_SQUID_OPTION,
  ],
  examples: [
    'sq runs download <run>',
    'sq runs download <run> -o paris.csv',
    'sq runs download <run> --file-format xlsx --fields name,phone,website',
    'sq runs download <run> --file-format jsonl --omit id -o - | head',
  ],
  async run(ctx, [ref], opts) {
    nonEmpty('<run>', ref);
    const format = (
      opts.fileFormat === undefined ? 'csv' : enumFlag('--file-format', opts.fileFormat.toLowerCase(), EXPORT_FORMATS)
    ) as ExportFormat;
    const columns = (flag: string, v: string | undefined) => {
      if (v === undefined) return undefined;
      const names = v.split(',').map((c) => c.trim());
      if (names.some((c) => c === ''))
        throw new UsageError(`${flag} takes column names separated by commas (got ${JSON.stringify(v)})`);
      return names;
    };
    // The global --fields selects the columns of what a verb prints: here, the export file's.
    const request: ExportRequest = {
      format,
      fields: columns('--fields', ctx.globals.fields),
      omit: columns('--omit', opts.omit),
    };
    // A column both kept and left out: the file had no column at all (--fields id --omit id), exit 0.
    const both = request.fields?.find((c) => request.omit?.includes(c));
    if (both !== undefined) {
      const what = '--fields keeps only the columns it names, --omit leaves columns out';
      throw new UsageError(`--fields and --omit both name the column ${JSON.stringify(both)}: ${what}`);
    }
    const output = opts.output === undefined ? undefined : nonEmpty('--output', opts.output);
    // The server's file name goes in this directory; else output is the file itself (or - for stdout).
    let dir: string | undefined;
    if (output === undefined) dir = '.';
    else if (output.endsWith('/') || (await stat(output).catch(() => null))?.isDirectory()) {
      await checkTargetDir(join(output, 'x'));
      dir = output;
    } else if (output !== '-') {
      await checkNewOutput('-o', output, !!opts.force);
    }
    const id = await idOf(ctx, 'run', ref, opts);
    const http = await ctx.http();
    if (format === 'xlsx') await refuseTooManyRows(http, id);
    // A GET of a file is safe to send again: a body cut short (a reset, a stall) is fetched anew, from a fresh link,
    // into a fresh temp file; on stdout only while nothing was written yet.
    let got: { target: string; bytes: number } | undefined;
    for (let attempt = 1; ; attempt++) {
      const { res, url } = await fetchExport(ctx, http, id, request);
      const cut: { error?: unknown } = {};
      (res.body as Readable).once('error', (e) => (cut.error = e));
      const state = { bytes: 0 };
      try {
        got = await writeBody(ctx, res, { id, format, output, dir, force: !!opts.force }, state);
        break;
      } catch (err) {
        if (cut.error === undefined || ctx.signal.aborted) throw err;
        const total = Number(res.headers['content-length']);
        const where = `${state.bytes} byte${state.bytes === 1 ? '' : 's'}${Number.isFinite(total) ? ` of ${total}` : ''} from ${shownUrl(url)}`;
        const why = cut.error instanceof Error ? cut.error.message : String(cut.error);
        if (attempt < DOWNLOAD_ATTEMPTS && !(output === '-' && state.bytes > 0)) {
          ctx.out.info(
            `the download of run ${id} stopped after ${where} (${why}); trying again (${attempt + 1} of ${DOWNLOAD_ATTEMPTS})`,
          );
          continue;
        }
        const kept = output === '-' ? ' but what stdout received' : '';
        throw new ApiError(
          `the download of run ${id} stopped after ${where} (${why})${attempt > 1 ? `, ${attempt} times` : ''}; nothing was kept${kept}`,
          {
            details: [`Download again: \`sq runs download ${id}${output ? ` -o ${output}` : ''}\`.`],
          },
        );
      }
    }
    if (got === undefined) return;
    const { target, bytes } = got;
    const settings = ctx.outputSettings();
    const done = { run: id, path: target, bytes, file_format: format };
    // With --fields naming the file's columns, the summary is printed whole (those names are not its keys).
    if (settings.explicitFormat && request.fields) ctx.io.stdout.write(`${JSON.stringify(done)}\n`);
    else if (settings.explicitFormat) await ctx.out.record(done);
    ctx.out.success(`Downloaded ${humanBytes(bytes)} to ${target}`);
  },
});

/** Tries of a download whose body is cut short. */
const DOWNLOAD_ATTEMPTS = 3;

/** A URL as an error shows it: no query (a presigned link's signature and credential live there). */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(the export link)';
  }
}

interface Target {
  id: string;
  format: ExportFormat;
  output: string | undefined;
  dir: string | undefined;
  force: boolean;
}

/** The body to stdout, or into a temp file renamed into place once whole; `state.bytes` counts what came. */
async function writeBody(
  ctx: Ctx,
  res: StreamResponse,
  t: Target,
  state: { bytes: number },
): Promise<{ target: string; bytes: number } | undefined> {
  if (t.output === '-') {
    const counted = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        state.bytes += chunk.length;
        cb(null, chunk);
      },
    });
    await pipeline(res.body, counted, ctx.io.stdout as NodeJS.WritableStream, { end: false });
    return undefined;
  }
  let target = t.output as string;
  if (t.dir !== undefined) {
    // The name is only known now, from the response headers: checked before a byte of the body is read.
    target = join(t.dir, fileName(res.headers['content-disposition'], t.id, t.format));
    try {
      await checkOutputTarget('-o', target);
      if (!t.force && (await lstat(target).catch(() => null))) {
        throw existsError(target);
      }
    } catch (err) {
      // undici reports its own abort as an error event: nobody is reading this body any more.
      (res.body as Readable).on('error', () => undefined).destroy();
      throw err;
    }
  }
  const file = await AtomicFile.create(target, { onCleanup: (fn) => ctx.onCleanup(fn), replace: t.force });
  const total = Number(res.headers['content-length']);
  const progress = newProgress(ctx);
  const meter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      state.bytes += chunk.length;
      progress.update({
        fraction: Number.isFinite(total) && total > 0 ? state.bytes / total : null,
        text: `${humanBytes(state.bytes)}${Number.isFinite(total) && total > 0 ? ` of ${humanBytes(total)}` : ''}`,
      });
      cb(null, chunk);
    },
  });
  try {
    await pipeline(res.body, meter, file.stream, { end: false, signal: ctx.signal });
    await file.commit();
  } finally {
    progress.clear();
    await file.abort();
  }
  return { target, bytes: state.bytes };
}

/** Exit 2 before the download: an XLSX sheet cannot hold the run's rows (the platform refuses it too). */
async function refuseTooManyRows(http: HttpClient, runId: string): Promise<void> {
  const rows = Number((await getRun(http, runId)).total_results);
  if (Number.isFinite(rows) && rows > XLSX_MAX_ROWS) {
    throw new UsageError(
      `--file-format xlsx: run ${runId} has ${count(rows)} rows and an XLSX sheet ` +
        `holds at most ${count(XLSX_MAX_ROWS)}; use --file-format csv, json or jsonl`,
    );
  }
}

/** How long sq waits for a background conversion, and how often it asks. */
const CONVERT_TIMEOUT_MS = 30 * 60_000;
const CONVERT_POLL_MS = 2_000;

/**
 * The export's URL: a background conversion (202) is waited for, its progress shown on a terminal's stderr and
 * noted at each quarter otherwise.
 */
async function exportUrl(ctx: Ctx, http: HttpClient, runId: string, request: ExportRequest): Promise<string | null> {
  const progress = newProgress(ctx);
  const started = ctx.now();
  let noted = -1;
  try {
    for (;;) {
      const answer = await downloadUrl(http, runId, request);
      if (answer === null || typeof answer === 'string') return answer;
      const p = answer.converting;
      progress.update({
        fraction: p,
        text: `converting to ${request.format}${p === null ? '' : ` ${Math.round(p * 100)}%`}`,
      });
      const quarter = p === null ? 0 : Math.floor(p * 4);
      if (!ctx.io.stderrIsTTY && quarter > noted) {
        noted = quarter;
        ctx.out.info(`converting to ${request.format}${p === null ? '…' : `: ${Math.round(p * 100)}%`}`);
      }
      if (ctx.now() - started > CONVERT_TIMEOUT_MS)
        throw new TimeoutError(
          `the ${request.format} conversion of run ${runId} was not ready after ${CONVERT_TIMEOUT_MS / 60_000} minutes; download again later`,
        );
      await ctx.sleep(CONVERT_POLL_MS);
    }
  } finally {
    progress.clear();
  }
}

/** The export stream; re-asks for the URL once when the presigned link was refused (they expire quickly). */
async function fetchExport(
  ctx: Ctx,
  http: HttpClient,
  runId: string,
  request: ExportRequest,
): Promise<{ res: StreamResponse; url: string }> {
  for (let attempt = 0; ; attempt++) {
    const url = await exportUrl(ctx, http, runId, request);
    if (url === null) throw await notReady(http, runId);
    try {
      return { res: await http.stream('GET', url, { noAuth: true, headers: { accept: '*/*' } }), url };
    } catch (err) {
      if (attempt === 0 && err instanceof AuthError && err.status === 403) continue;
      if (err instanceof AuthError) {
        throw new AuthError(
          `the export link of run ${runId} was refused (HTTP ${err.status}) even after asking for a fresh one`,
          { status: err.status },
        );
      }
      throw err;
    }
  }
}

/** 404 on /download means an unknown run or an export that is not ready: tell which. */
async function notReady(http: HttpClient, runId: string): Promise<NotFoundError> {
  const run = await getRun(http, runId); // an unknown run throws its own 404 here
  const status = runStatus(run) || 'unknown';
  const why = status === 'done' ? 'the run is done and its export is still being prepared' : `the run is ${status}`;
  return new NotFoundError(
    `export not ready for run ${runId}: ${why} (export_done: ${String(run.export_done ?? null)})`,
    {
      status: 404,
      details: [`Wait for it with \`sq runs watch ${runId}\`, then download again.`],
    },
  );
}

/**
 * The server's file name from content-disposition as a plain name in the target directory: path parts (/ and \\),
 * control and bidi characters, leading dots (no hidden or dot files) and names Windows reserves are dropped; <run>.csv
 * when nothing usable is left.
 */
export function fileName(cd: string | string[] | undefined, runId: string, format: ExportFormat = 'csv'): string {
  const h = Array.isArray(cd) ? cd[0] : cd;
  let name: string | null = null;
  if (h) {
    const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(h);
    const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/.exec(h);
    try {
      name = star ? decodeURIComponent(star[1].trim()) : plain ? (plain[1] ?? plain[2]) : null;
    } catch {
      name = plain ? (plain[1] ?? plain[2]) : null;
    }
  }
  const safe = (name !== null && safeName(name)) || safeName(`${runId}.${format}`) || `run.${format}`;
  // The name carries the format asked for: a server's name with another export extension gets this one.
  if (format === 'csv' || safe.toLowerCase().endsWith(`.${format}`)) return safe;
  return `${safe.replace(/\.(csv|xlsx|json|jsonl)$/i, '')}.${format}`;
}

function safeName(name: string): string | null {
  const safe = basename(name.replace(/\\/g, '/'))
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .replace(/^\.+/, '')
    .replace(/[. ]+$/, '');
  if (!safe || Buffer.byteLength(safe) > 255 || /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(safe)) return null;
  return safe;
}
