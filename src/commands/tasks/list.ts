import { defineVerb } from '../../cli/command.js';
import { resolveSquid } from '../../api/resolve.js';
import { normalizeTask, TASKS_PATH } from '../../api/tasks.js';
import { enumFlag, required } from '../../validate/index.js';
import { DEFAULT_LIMIT, pagingFlags, pagingOptions, printList } from '../../cli/paging.js';
import { TASK_LIST_COLUMNS } from './_shared/columns.js';
import { shellWord } from '../../io/shell.js';

const TYPES = ['url', 'params'] as const;

export default defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the tasks of a squid (GET /v1/tasks?squid=)',
  description:
    '--type is the detail level of the list, not a filter: url (the API default) shows each task briefly, ' +
    'params with fuller detail. Every task of the squid is listed either way.',
  options: [
    { flags: '--squid <squid>', description: 'squid id, prefix or exact name (required)', complete: 'squid' },
    { flags: '--type <type>', description: 'detail level', choices: TYPES, defaultText: 'url' },
    ...pagingOptions(DEFAULT_LIMIT),
  ],
  examples: [
    'sq tasks list --squid "Paris restaurants"',
    'sq tasks list --squid 3fa8 --type params --all --format ndjson',
  ],
  async run(ctx, _args, opts) {
    const ref = required('--squid', opts.squid, "which squid's tasks to list");
    const type = opts.type === undefined ? undefined : enumFlag('--type', opts.type, TYPES);
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    await printList(ctx, http, TASKS_PATH, {
      paging,
      query: { squid: squid.id, type },
      noun: 'tasks',
      columns: TASK_LIST_COLUMNS,
      map: normalizeTask,
      empty:
        `No tasks in squid ${JSON.stringify(squid.name || squid.id)}. ` +
        `Add one: sq tasks add --squid ${shellWord(ref)} VALUE (or --file FILE)`,
    });
  },
});
