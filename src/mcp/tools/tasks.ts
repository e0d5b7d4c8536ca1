// tasks_list, tasks_add, tasks_delete.
import { dryRun, flags, listInput, listOutput, listPage, objOutput, prefixSquid, rec, squidArg, type ToolDef } from './kit.js';

export const tasksList: ToolDef = {
  name: 'tasks_list', title: 'List tasks', access: 'read',
  description: 'The tasks (URLs or parameter sets) of a squid.',
  input: (z) => ({ squid: squidArg(z), type: z.enum(['url', 'params']).optional().describe('task type (default url)'), ...listInput(z, 'tasks') }),
  output: listOutput,
  run: (t, a) => listPage(t, a, 'tasks_list', ['tasks', 'list', ...flags({ '--squid': a.squid, '--type': a.type })]),
};

export const tasksAdd: ToolDef = {
  name: 'tasks_add', title: 'Add tasks', access: 'write',
  description: 'Add tasks to a squid: one per value, sent as the task-level input `key` (default url).',
  input: (z) => ({
    squid: squidArg(z),
    values: z.array(z.string().min(1)).min(1).describe('one task per value'),
    key: z.string().optional().describe('task-level input each value is sent as (default url)'),
    dry_run: dryRun(z),
  }),
  output: (z) => objOutput(z),
  run: async (t, a) => rec((await t.verb(['tasks', 'add', ...flags({ '--squid': a.squid, '--key': a.key }), '--', ...(a.values as string[])], { write: true })).data),
};

export const tasksDelete: ToolDef = {
  name: 'tasks_delete', title: 'Delete a task', access: 'all', destructive: true, idempotent: true,
  description: 'Delete a task of a squid.',
  input: (z) => ({ task: z.string().min(1).describe('task id or unique id prefix'), squid: prefixSquid(z), dry_run: dryRun(z) }),
  output: (z) => objOutput(z),
  run: async (t, a) => rec((await t.verb(['tasks', 'delete', ...flags({ '--squid': a.squid }), '--', String(a.task)], { write: true })).data),
};
