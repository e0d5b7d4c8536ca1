import { readFile } from 'node:fs/promises';
import { defineVerb } from '../../command.js';
import { resolveSquid } from '../../api/resolve.js';
import { normalizeTask, parseTaskFile } from '../../api/tasks.js';
import { UsageError } from '../../errors.js';
import { printPlanned } from '../../io/dry-run.js';
import { readAllStdin } from '../../io/stdin.js';
import { nonEmpty, requireFlag } from '../../validate/index.js';
import { TASK_LIST_COLUMNS } from './columns.js';

export default defineVerb({
  name: 'add',
  summary: 'Add tasks to a squid (POST /v1/tasks); duplicates are skipped by the API',
  description:
    'Each value becomes one task {<key>: value} (key "url" unless --key). --file reads one value per line, or a JSON ' +
    'array of task objects (e.g. [{"keyword":"pizza","city":"Paris"}]); "-" reads stdin. Values and --file combine.',
  args: ['[values...]'],
  options: [
    { flags: '--squid <squid>', description: 'squid id, prefix or exact name (required)' },
    { flags: '--key <name>', description: 'task parameter each value is sent as', defaultText: 'url' },
    { flags: '--file <file>', description: 'values (one per line) or a JSON array of task objects; "-" for stdin' },
  ],
  examples: [
    'sq tasks add --squid "Paris restaurants" "https://www.google.com/maps/search/pizza+paris"',
    'sq tasks add --squid "Paris restaurants" --key keyword sushi ramen',
    'sq tasks add --squid 3fa8 --file urls.txt --json',
  ],
  async run(ctx, values, opts) {
    const ref = requireFlag(opts, '--squid', 'which squid gets the tasks');
    const key = opts.key === undefined ? 'url' : nonEmpty('--key', opts.key).trim();
    const tasks: Record<string, unknown>[] = values.filter((v) => v.trim() !== '').map((v) => ({ [key]: v }));
    if (opts.file !== undefined) {
      const file = nonEmpty('--file', opts.file);
      const text =
        file === '-'
          ? await readAllStdin(ctx.io.stdin)
          : await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
              throw new UsageError(`--file: cannot read "${file}" (${err.code ?? err.message})`);
            });
      tasks.push(...parseTaskFile(text, key));
    }
    if (tasks.length === 0) throw new UsageError('no tasks given: pass values (e.g. URLs) or --file <file>');

    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    const body = { squid: squid.id, tasks };
    if (ctx.globals.dryRun) {
      printPlanned(ctx, [{ method: 'POST', path: '/v1/tasks', body }]);
      return;
    }
    const res = ((await http.post('/v1/tasks', body)) ?? {}) as Record<string, unknown>;
    const created = Array.isArray(res.tasks) ? res.tasks.map(normalizeTask) : [];
    const dup = typeof res.duplicated_count === 'number' ? res.duplicated_count : 0;
    const fmt = ctx.outputSettings().format;
    if (fmt === 'json' || fmt === 'ndjson') await ctx.out.record(res);
    else await ctx.out.list(created, { columns: TASK_LIST_COLUMNS });
    ctx.out.info(`Added ${created.length} task${created.length === 1 ? '' : 's'} to squid ${squid.name || squid.id}; ${dup} duplicate${dup === 1 ? '' : 's'} skipped.`);
  },
});
