import { defineVerb } from '../../command.js';
import { printPlanned } from '../../io/dry-run.js';
import { nonEmpty } from '../../validate/index.js';
import { confirmOrCancel, preflightConfirm } from '../../io/confirm.js';
import { seg } from '../../api/path.js';

export default defineVerb({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a task (DELETE /v1/tasks/{id})',
  description: 'Asks for confirmation on a terminal; scripts pass --yes.',
  args: ['<task>'],
  examples: ['sq tasks delete 9b1e0c7d2f4a4b6c8d0e1f2a3b4c5d6e', 'sq tasks delete 9b1e0c7d2f4a4b6c8d0e1f2a3b4c5d6e --yes --json'],
  async run(ctx, [ref]) {
    const id = nonEmpty('<task>', ref).trim();
    await preflightConfirm(ctx);
    const path = `/v1/tasks/${seg('task id', id)}`;
    if (ctx.globals.dryRun) {
      printPlanned(ctx, [{ method: 'DELETE', path }]);
      return;
    }
    await confirmOrCancel(ctx, `Delete task ${id}?`);
    const http = await ctx.http();
    const res = await http.delete(path);
    ctx.out.success(`Deleted task ${id}`);
    await ctx.out.record(res ?? { id, object: 'task', deleted: true }, { title: 'Task deleted' });
  },
});
