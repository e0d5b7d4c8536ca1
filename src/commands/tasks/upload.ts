import { basename } from 'node:path';
import { defineVerb } from '../../cli/command.js';
import { resolveSquid } from '../../api/resolve.js';
import { uploadSummary, uploadTasks, waitForUpload } from '../../api/tasks.js';
import { ApiError, UsageError } from '../../errors.js';
import { durationFlag, required } from '../../validate/index.js';
import { readInputBytes } from '../../cli/stdin.js';
import { UPLOAD_COLUMNS } from './_shared/columns.js';
import { rememberUpload } from './_shared/uploads.js';

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

export default defineVerb({
  name: 'upload',
  writes: true,
  summary: 'Upload tasks from a CSV/TSV file (POST /v1/tasks/upload, multipart)',
  description:
    'The header row names the task parameters (e.g. url, or category,city,country). The API processes the file in the ' +
    'background: --wait polls every 1.5 s until it is done and prints inserted/duplicates/invalid/valid; a FAILURE ' +
    'exits 1, --timeout exits 7. Without --wait, check later with `sq tasks upload-status <id>`.',
  args: ['<file>'],
  options: [
    { flags: '--squid <squid>', description: 'squid id, prefix or exact name (required)', complete: 'squid' },
    { flags: '--wait', description: 'wait until the upload is processed and print its summary' },
    { flags: '--timeout <duration>', description: 'give up waiting after this long, at most 7d (with --wait)', defaultText: '10m' },
  ],
  examples: ['sq tasks upload --squid "Paris restaurants" tasks.csv --wait', 'sq tasks upload --squid 3fa8 tasks.tsv --json'],
  async run(ctx, [file], opts) {
    const ref = required('--squid', opts.squid, 'which squid gets the tasks');
    if (opts.timeout !== undefined && !opts.wait) throw new UsageError('--timeout only applies with --wait');
    const timeoutMs = opts.timeout === undefined ? DEFAULT_TIMEOUT_MS : durationFlag('--timeout', opts.timeout);
    // Through the one bounded reader of user files: a FIFO nobody writes to ends on Ctrl-C or SIGTERM (a plain
    // readFile waited in a thread no signal reaches), and a file over 16 MiB is refused by name.
    const content = await readInputBytes(ctx, '<file>', file);
    if (content.length === 0) throw new UsageError(`<file>: "${file}" is empty; it needs a header row and task rows`);

    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    const form = new FormData();
    const type = /\.tsv$/i.test(file) ? 'text/tab-separated-values' : 'text/csv';
    form.append('file', new Blob([content], { type }), basename(file));
    form.append('squid', squid.id);
    const res = ((await uploadTasks(http, form)) ?? {}) as Record<string, unknown>;
    const id = typeof res.id === 'string' ? res.id : String(res.id ?? '');
    rememberUpload(ctx, http, { id, squid: squid.name || squid.id, file: basename(file) });
    if (!opts.wait) {
      await ctx.out.record(res, { title: 'Upload accepted', columns: [{ key: 'id' }, { key: 'object' }] });
      ctx.out.info(`Processing in the background; check with: sq tasks upload-status ${id}`);
      return;
    }
    const status = await ctx.out.spin(`Processing ${basename(file)}`, () =>
      waitForUpload(http, id, timeoutMs, { now: () => ctx.now(), sleep: (ms) => ctx.sleep(ms) }),
    );
    await ctx.out.record(status, { title: 'Upload', columns: UPLOAD_COLUMNS });
    const s = uploadSummary(status);
    if (String(s.state).toUpperCase() === 'FAILURE') {
      throw new ApiError(`upload ${id} failed: ${String(s.valid ?? 0)} valid and ${String(s.invalid ?? '?')} invalid rows; check the header names against \`sq crawlers params\``);
    }
    ctx.out.success(`Upload done: ${String(s.inserted ?? 0)} inserted, ${String(s.duplicates ?? 0)} duplicates, ${String(s.invalid ?? 0)} invalid`);
  },
});
