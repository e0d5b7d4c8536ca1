import { defineVerb } from '../../cli/command.js';
import { nonEmpty } from '../../validate/index.js';
import { idOf, PREFIX_NOTE, TASK_SQUID_OPTION } from '../_shared/ref.js';
import { confirmOrCancel, preflightConfirm } from '../../cli/confirm.js';
import { deleteTask } from '../../api/tasks.js';

export default defineVerb({
  name: 'delete',
  writes: true,
  aliases: ['rm'],
  summary: 'Delete a task (DELETE /v1/tasks/{id})',
  description: `Asks for confirmation on a terminal; scripts pass --yes. <task> ${PREFIX_NOTE}; nothing is sent for an ambiguous prefix.`,
  args: ['<task>'],
  options: [TASK_SQUID_OPTION],
  examples: [
    'sq tasks delete 9b1e0c7d2f4a4b6c8d0e1f2a3b4c5d6e',
    'sq tasks delete 9b1e0c7d2f4a4b6c8d0e1f2a3b4c5d6e --yes --json',
  ],
  async run(ctx, [ref], opts) {
    nonEmpty('<task>', ref);
    await preflightConfirm(ctx);
    const id = (await idOf(ctx, 'task', ref, opts)).trim();
    await confirmOrCancel(ctx, `Delete task ${id}?`);
    const http = await ctx.http();
    const res = await deleteTask(http, id);
    ctx.out.success(`Deleted task ${id}`);
    await ctx.out.record(res ?? { id, object: 'task', deleted: true }, { title: 'Task deleted' });
  },
});
