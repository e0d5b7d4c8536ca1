import { defineVerb } from '../../cli/command.js';
import { getTask, normalizeTask } from '../../api/tasks.js';
import { idOf, PREFIX_NOTE, TASK_SQUID_OPTION } from '../_shared/ref.js';

export default defineVerb({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one task with its status (GET /v1/tasks/{id})',
  description:
    'The API names the id "hash_value" here; sq adds "id" so scripts can read the same field everywhere. ' +
    `<task> ${PREFIX_NOTE}.`,
  args: ['<task>'],
  options: [TASK_SQUID_OPTION],
  examples: [
    'sq tasks get 9b1e0c7d2f4a4b6c8d0e1f2a3b4c5d6e',
    'sq tasks get 9b1e0c7d2f4a4b6c8d0e1f2a3b4c5d6e --fields id,status.status',
  ],
  async run(ctx, [ref], opts) {
    const id = await idOf(ctx, 'task', ref, opts);
    const http = await ctx.http();
    const t = normalizeTask(await getTask(http, id.trim()));
    await ctx.out.record(t, {
      title: 'Task',
      columns: [
        { key: 'id' },
        { key: 'is_active', header: 'active' },
        { key: 'created_at', header: 'created', kind: 'time' },
        { key: 'params' },
        { key: 'status.status', header: 'status', kind: 'status' },
        { key: 'status.is_done', header: 'done' },
        { key: 'status.total_results', header: 'results' },
        { key: 'status.done_reason', header: 'done reason' },
        { key: 'status.started_at', header: 'started', kind: 'time' },
        { key: 'status.ended_at', header: 'ended', kind: 'time' },
        { key: 'status.errors', header: 'errors' },
        { key: 'module', header: 'crawler module' },
      ],
    });
  },
});
