import { defineVerb } from '../../cli/command.js';
import { resolveSquid } from '../../api/resolve.js';
import { MAX_CREDITS_OPTION, spendPolicy } from '../../billing/guard.js';
import { capScheduledRuns } from './_shared/schedule-cap.js';
import { addTasks, normalizeTask, parseTaskFile, TASKS_PER_REQUEST, taskBatches } from '../../api/tasks.js';
import { AmbiguousWriteError, InterruptedWriteError } from '../../api/http-errors.js';
import { InterruptedError, PartialFailureError, SqError, UsageError } from '../../errors.js';
import { readInput } from '../../cli/stdin.js';
import { nonEmpty, required } from '../../validate/index.js';
import { TASK_LIST_COLUMNS } from './_shared/columns.js';

export default defineVerb({
  name: 'add',
  writes: true,
  summary: 'Add tasks to a squid (POST /v1/tasks); duplicates are skipped by the API',
  description:
    'Each value becomes one task {<key>: value} (key "url" unless --key). --file reads one value per line, or a JSON ' +
    'array of task objects (e.g. [{"category":"pizza","city":"Paris"}]); "-" reads stdin. Values and --file combine. ' +
    'Tasks are sent 500 per request; if a later request fails, the ones before it stay added (exit 8, with a report), ' +
    'and running the same command again is safe because the API skips duplicates. Ctrl-C while a request is in flight ' +
    'exits 130 with the same report: that request may or may not have added its tasks.\n\n' +
    'Spending: new tasks on an active scheduled squid make each scheduled run cost more. Under a cap (--max-credits, ' +
    'SQ_MAX_CREDITS, `sq config set max-credits N`) the next scheduled run is estimated once they are in; above the cap ' +
    '(exit 9), or refused on a terminal, the new tasks are removed again and the message says so.',
  args: ['[values...]'],
  options: [
    { flags: '--squid <squid>', description: 'squid id, prefix or exact name (required)', complete: 'squid' },
    { flags: '--key <name>', description: 'task parameter each value is sent as', defaultText: 'url' },
    { flags: '--file <file>', description: 'values (one per line) or a JSON array of task objects; "-" for stdin' },
    MAX_CREDITS_OPTION,
  ],
  examples: [
    'sq tasks add --squid "Paris restaurants" "https://www.google.com/maps/search/pizza+paris"',
    'sq tasks add --squid "Paris restaurants" --key category sushi ramen',
    'sq tasks add --squid 3fa8 --file urls.txt --json',
  ],
  async run(ctx, values, opts) {
    const ref = required('--squid', opts.squid, 'which squid gets the tasks');
    const key = opts.key === undefined ? 'url' : nonEmpty('--key', opts.key).trim();
    const tasks: Record<string, unknown>[] = values.filter((v) => v.trim() !== '').map((v) => ({ [key]: v }));
    if (opts.file !== undefined) {
      const text = await readInput(ctx, '--file', nonEmpty('--file', opts.file));
      tasks.push(...parseTaskFile(text, key));
    }
    if (tasks.length === 0) throw new UsageError('no tasks given: pass values (e.g. URLs) or --file <file>');

    const policy = await spendPolicy(ctx, opts.maxCredits);
    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    const batches = taskBatches(tasks);
    const created: Record<string, unknown>[] = [];
    let dup = 0;
    for (const [i, batch] of batches.entries()) {
      let res: Record<string, unknown>;
      try {
        res = ((await addTasks(http, squid.id, batch, i < batches.length - 1)) ?? {}) as Record<string, unknown>;
      } catch (err) {
        if (!(err instanceof SqError) || (i === 0 && !(err instanceof InterruptedWriteError))) throw err;
        // Stopped before request i+1 went out: plain "interrupted" (exit 130), nothing of it was sent.
        if (err instanceof InterruptedError) throw err;
        const sent = i * TASKS_PER_REQUEST;
        const details = [
          `The first ${sent} of ${tasks.length} tasks were accepted (${created.length} new, ${dup} duplicates); ` +
            (err instanceof AmbiguousWriteError
              ? `request ${i + 1} may or may not have added its ${batch.length}, and the rest were not sent.`
              : 'the rest were not added.'),
          'Running the same command again is safe: the API skips tasks that already exist.',
        ];
        const message = `adding tasks stopped at request ${i + 1} of ${batches.length}: ${err.message}`;
        // Ctrl-C with a request in flight: still exit 130, with the same report.
        if (err instanceof InterruptedWriteError) {
          err.message = message;
          err.details.push(...details);
          throw err;
        }
        throw new PartialFailureError(message, { status: err.status, details });
      }
      if (Array.isArray(res.tasks)) created.push(...res.tasks.map(normalizeTask));
      if (typeof res.duplicated_count === 'number') dup += res.duplicated_count;
    }
    await capScheduledRuns(ctx, http, squid.id, ref, policy, created);
    // One answer in the API's own shape, whatever the number of requests it took.
    if (ctx.out.spec.json) await ctx.out.record({ duplicated_count: dup, tasks: created });
    else await ctx.out.list(created, { columns: TASK_LIST_COLUMNS });
    // The JSON answer has both counts; CSV, TSV and the table have only the rows, so the counts go to stderr.
    if (!ctx.out.spec.json)
      ctx.out.info(
        `Added ${created.length} task${created.length === 1 ? '' : 's'} to squid ${squid.name || squid.id}; ${dup} duplicate${dup === 1 ? '' : 's'} skipped.`,
      );
  },
});
