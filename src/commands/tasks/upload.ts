import { basename } from 'node:path';
import { defineVerb } from '../../cli/command.js';
import { resolveSquid } from '../../api/resolve.js';
import { uploadSummary, uploadTasks, waitForUpload } from '../../api/tasks.js';
import { ApiError, SqError, UsageError } from '../../errors.js';
import { durationFlag, required } from '../../validate/index.js';
import { readInputBytes } from '../../cli/stdin.js';
import { UPLOAD_COLUMNS } from './_shared/columns.js';
import { rememberUpload } from './_shared/uploads.js';
import { shellWord } from '../../io/shell.js';
import { MAX_CREDITS_OPTION, spendPolicy } from '../../billing/guard.js';
import { guardNewTasks, heldToCap, refuseAboveCapBeforeUpload, taskIds } from './_shared/schedule-cap.js';

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

export default defineVerb({
  name: 'upload',
  writes: true,
  summary: 'Upload tasks from a CSV/TSV file (POST /v1/tasks/upload, multipart)',
  description:
    'The header row names the task parameters (e.g. url, or category,city,country). The API processes the file in the ' +
    'background: --wait polls every 1.5 s until it is done and prints inserted/duplicates/invalid/valid; a FAILURE ' +
    'exits 1, --timeout exits 7. Without --wait, check later with `sq tasks upload-status <id>`.\n\n' +
    'Spending: new tasks on an active scheduled squid make each scheduled run cost more. Under a cap (--max-credits, ' +
    'SQ_MAX_CREDITS, `sq config set max-credits N`) a next scheduled run already above it is exit 9 with nothing ' +
    'uploaded; else sq waits for the upload to be processed (with or without --wait) and estimates the next scheduled ' +
    'run: above the cap (exit 9), or refused on a terminal, the new tasks are removed again and the message says so.',
  args: ['<file>'],
  options: [
    { flags: '--squid <squid>', description: 'squid id, prefix or exact name (required)', complete: 'squid' },
    { flags: '--wait', description: 'wait until the upload is processed and print its summary' },
    {
      flags: '--timeout <duration>',
      description: 'give up waiting after this long, at most 7d (with --wait)',
      defaultText: '10m',
    },
    MAX_CREDITS_OPTION,
  ],
  examples: [
    'sq tasks upload --squid "Paris restaurants" tasks.csv --wait',
    'sq tasks upload --squid 3fa8 tasks.tsv --json',
  ],
  async run(ctx, [file], opts) {
    const ref = required('--squid', opts.squid, 'which squid gets the tasks');
    if (opts.timeout !== undefined && !opts.wait) throw new UsageError('--timeout only applies with --wait');
    const timeoutMs = opts.timeout === undefined ? DEFAULT_TIMEOUT_MS : durationFlag('--timeout', opts.timeout);
    // Through the one bounded reader of user files: a FIFO nobody writes to ends on Ctrl-C or SIGTERM (a plain
    // readFile waited in a thread no signal reaches), and a file over 16 MiB is refused by name.
    const content = await readInputBytes(ctx, '<file>', file);
    if (content.length === 0) throw new UsageError(`<file>: "${file}" is empty; it needs a header row and task rows`);

    const policy = await spendPolicy(ctx, opts.maxCredits);
    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    // Held to the cap (a cap, an active schedule): checked before the upload, and again once its tasks are in.
    const held = await heldToCap(ctx, http, squid.id, policy);
    if (held) await refuseAboveCapBeforeUpload(http, squid.id, policy);
    const before = held ? await taskIds(http, squid.id) : null;
    const form = new FormData();
    const type = /\.tsv$/i.test(file) ? 'text/tab-separated-values' : 'text/csv';
    form.append('file', new Blob([content], { type }), basename(file));
    form.append('squid', squid.id);
    const res = ((await uploadTasks(http, form)) ?? {}) as Record<string, unknown>;
    // Held to the cap, the tasks are checked once in: a wait or a listing cut short leaves them unchecked, and says so
    // (the file was sent, whatever the error says of its own request).
    const unchecked = (err: unknown): never => {
      if (before && err instanceof SqError)
        err.details.push(
          `The file was uploaded, and its tasks were NOT checked against the cap: once it is done, \`sq squids estimate ${shellWord(ref)}\` shows each scheduled run's cost.`,
        );
      throw err;
    };
    const id = typeof res.id === 'string' ? res.id : String(res.id ?? '');
    rememberUpload(ctx, http, { id, squid: squid.name || squid.id, file: basename(file) });
    if (!opts.wait && !before) {
      await ctx.out.record(res, { title: 'Upload accepted', columns: [{ key: 'id' }, { key: 'object' }] });
      ctx.out.info(`Processing in the background; check with: sq tasks upload-status ${id}`);
      return;
    }
    const status = await ctx.out
      .spin(`Processing ${basename(file)}`, () =>
        waitForUpload(http, id, timeoutMs, { now: () => ctx.now(), sleep: (ms) => ctx.sleep(ms) }),
      )
      .catch(unchecked);
    if (before) {
      const added = [...(await taskIds(http, squid.id).catch(unchecked))].filter((t) => !before.has(t));
      if (added.length) await guardNewTasks(ctx, http, squid.id, ref, policy, added);
    }
    await ctx.out.record(status, { title: 'Upload', columns: UPLOAD_COLUMNS });
    const s = uploadSummary(status);
    if (String(s.state).toUpperCase() === 'FAILURE') {
      throw new ApiError(
        `upload ${id} failed: ${String(s.valid ?? 0)} valid and ${String(s.invalid ?? '?')} invalid ` +
          `rows; check the header names against \`sq crawlers params\``,
      );
    }
    ctx.out.success(
      `Upload done: ${String(s.inserted ?? 0)} inserted, ${String(s.duplicates ?? 0)} duplicates, ${String(s.invalid ?? 0)} invalid`,
    );
  },
});
