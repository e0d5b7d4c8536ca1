import { lstat, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { defineVerb } from '../../cli/command.js';
import type { HttpClient, StreamResponse } from '../../api/http.js';
import { downloadUrl, getRun, runStatus } from '../../api/runs.js';
import { AuthError, NotFoundError } from '../../errors.js';
import { AtomicFile, checkNewOutput, checkOutputTarget, checkTargetDir, existsError } from '../../lib/atomic-file.js';
import { Progress, humanBytes } from '../../io/progress.js';
import { nonEmpty } from '../../validate/index.js';
import { idOf, PREFIX_NOTE, RUN_SQUID_OPTION } from '../_shared/ref.js';

export default defineVerb({
  name: 'download',
  summary: 'Download a finished run\'s CSV export',
  description:
    'Download the CSV export of a run whose export is ready (export_done). The file goes to a temp file in the target directory ' +
    'and is renamed into place only when complete, so an interrupted download leaves nothing behind. The default name is the ' +
    'one the server gives (<squid>_YYYYMMDD_HHMM.csv) reduced to a plain file name (no directories, no leading dots), else ' +
    '<run>.csv. An existing file is kept unless --force, whether sq or -o FILE named it (exit 2 before the download, as ' +
    '`results list -o` does); --force replaces a regular file, keeping its mode (a device, FIFO, socket, directory or ' +
    'symlink is refused); -o - writes to stdout; -o DIR/ picks the directory. ' +
    `<run> ${PREFIX_NOTE}.`,
  args: ['<run>'],
  options: [
    { flags: '-o, --output <file>', description: 'where to write: a file, a directory, or - for stdout', defaultText: 'the server\'s file name in the current directory' },
    { flags: '--force', description: 'replace an existing file (-o FILE, or the server\'s file name)' },
    RUN_SQUID_OPTION,
  ],
  examples: ['sq runs download <run>', 'sq runs download <run> -o paris.csv', 'sq runs download <run> -o - | head'],
  async run(ctx, [ref], opts) {
    nonEmpty('<run>', ref);
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
    const res = await fetchExport(http, id);

    if (output === '-') {
      await pipeline(res.body, ctx.io.stdout as NodeJS.WritableStream, { end: false });
      return;
    }
    let target = output as string;
    if (dir !== undefined) {
      // The name is only known now, from the response headers: checked before a byte of the body is read.
      target = join(dir, fileName(res.headers['content-disposition'], id));
      try {
        await checkOutputTarget('-o', target);
        if (!opts.force && (await lstat(target).catch(() => null))) {
          throw existsError(target);
        }
      } catch (err) {
        // undici reports its own abort as an error event: nobody is reading this body any more.
        (res.body as Readable).on('error', () => undefined).destroy();
        throw err;
      }
    }
    const file = await AtomicFile.create(target, { onCleanup: (fn) => ctx.onCleanup(fn), replace: !!opts.force });
    const total = Number(res.headers['content-length']);
    const progress = new Progress({ stream: ctx.io.stderr, tty: ctx.io.stderrIsTTY, enabled: ctx.io.stderrIsTTY && !ctx.globals.quiet, columns: ctx.io.columns });
    let bytes = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        progress.update({
          fraction: Number.isFinite(total) && total > 0 ? bytes / total : null,
          text: `${humanBytes(bytes)}${Number.isFinite(total) && total > 0 ? ` of ${humanBytes(total)}` : ''}`,
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
    const settings = ctx.outputSettings();
    if (settings.explicitFormat) await ctx.out.record({ run: id, path: target, bytes });
    ctx.out.success(`Downloaded ${humanBytes(bytes)} to ${target}`);
  },
});

/** The export stream; re-asks for the URL once when the presigned link was refused (they expire quickly). */
async function fetchExport(http: HttpClient, runId: string): Promise<StreamResponse> {
  for (let attempt = 0; ; attempt++) {
    const url = await downloadUrl(http, runId);
    if (url === null) throw await notReady(http, runId);
    try {
      return await http.stream('GET', url, { noAuth: true, headers: { accept: '*/*' } });
    } catch (err) {
      if (attempt === 0 && err instanceof AuthError && err.status === 403) continue;
      if (err instanceof AuthError) {
        throw new AuthError(`the export link of run ${runId} was refused (HTTP ${err.status}) even after asking for a fresh one`, { status: err.status });
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
  return new NotFoundError(`export not ready for run ${runId}: ${why} (export_done: ${String(run.export_done ?? null)})`, {
    status: 404,
    details: [`Wait for it with \`sq runs watch ${runId}\`, then download again.`],
  });
}

/**
 * The server's file name from content-disposition as a plain name in the target directory: path parts (/ and \\),
 * control and bidi characters, leading dots (no hidden or dot files) and names Windows reserves are dropped; <run>.csv
 * when nothing usable is left.
 */
export function fileName(cd: string | string[] | undefined, runId: string): string {
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
  return (name !== null && safeName(name)) || safeName(`${runId}.csv`) || 'run.csv';
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
