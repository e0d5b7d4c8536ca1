// tasks_list, tasks_add, tasks_delete.
import {
  dryRun,
  flags,
  listInput,
  listOutput,
  listPage,
  objOutput,
  prefixSquid,
  squidArg,
  taskArg,
  taskVerb,
  ToolError,
  type ToolDef,
  verbRec,
} from './kit.js';

export const tasksList: ToolDef = {
  name: 'tasks_list',
  title: 'List tasks',
  access: 'read',
  description: 'The tasks (URLs or parameter sets) of a squid.',
  input: (z) => ({
    squid: squidArg(z),
    type: z
      .enum(['url', 'params'])
      .optional()
      .describe('detail level, not a filter: url (default) brief, params fuller; every task is listed'),
    ...listInput(z, 'tasks'),
  }),
  output: listOutput,
  run: (t, a) => listPage(t, a, 'tasks_list', ['tasks', 'list', ...flags({ '--squid': a.squid, '--type': a.type })]),
};

export const tasksAdd: ToolDef = {
  name: 'tasks_add',
  title: 'Add tasks',
  access: 'write',
  description:
    'Add tasks to a squid: values (one task each, sent as the task-level input `key`, default url), or tasks: objects ' +
    'of one task-input group of crawlers_get each, for a task of several fields ({"city": "Paris", "country": "France"}).',
  input: (z) => ({
    squid: squidArg(z),
    values: z.array(z.string().min(1)).min(1).optional().describe('one task per value'),
    tasks: z
      .array(taskArg(z))
      .min(1)
      .optional()
      .describe('one task per item: an object of task inputs by wire name (a multi-field task), or a value'),
    key: z.string().optional().describe('task-level input each value is sent as (default url)'),
    dry_run: dryRun(z),
  }),
  output: (z) => objOutput(z),
  run: async (t, a) => {
    const list = (a.tasks ?? a.values) as unknown[] | undefined;
    if (!list || (a.tasks !== undefined && a.values !== undefined))
      throw new ToolError(2, 'tasks_add: give exactly one of "values" (strings) and "tasks" (objects or strings)');
    const add = taskVerb(String(a.squid), list, a.key);
    return verbRec(t, add.argv, { write: true, stdin: add.stdin });
  },
};

export const tasksDelete: ToolDef = {
  name: 'tasks_delete',
  title: 'Delete a task',
  access: 'all',
  destructive: true,
  idempotent: true,
  description: 'Delete a task of a squid.',
  input: (z) => ({
    task: z.string().min(1).describe('task id or unique id prefix'),
    squid: prefixSquid(z),
    dry_run: dryRun(z),
  }),
  output: (z) => objOutput(z),
  run: (t, a) =>
    verbRec(t, ['tasks', 'delete', ...flags({ '--squid': a.squid }), '--', String(a.task)], { write: true }),
};
