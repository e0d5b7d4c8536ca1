import { defineVerb } from '../../cli/command.js';
import { SQUIDS_PATH } from '../../api/squids.js';
import { SQUID_LIST_COLUMNS } from './_shared/columns.js';
import { nonEmpty } from '../../validate/index.js';
import { DEFAULT_LIMIT, pagingFlags, pagingOptions, printList } from '../../cli/paging.js';

export default defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List squids, newest first (GET /v1/squids)',
  options: [
    { flags: '--name <text>', description: 'only squids whose name contains this text (case-insensitive)' },
    ...pagingOptions(DEFAULT_LIMIT),
  ],
  examples: ['sq squids list', 'sq squids list --name paris', 'sq squids list --all --fields id,name --format csv'],
  async run(ctx, _args, opts) {
    const paging = pagingFlags(opts, DEFAULT_LIMIT);
    const name = opts.name === undefined ? undefined : nonEmpty('--name', opts.name);
    const http = await ctx.http();
    const empty =
      name === undefined
        ? 'No squids. Create one: sq squids create --crawler CRAWLER --name NAME (crawlers: sq crawlers list)'
        : `No squid name contains ${JSON.stringify(name)}. List them all: sq squids list`;
    await printList(ctx, http, SQUIDS_PATH, {
      paging,
      query: { name },
      noun: 'squids',
      columns: SQUID_LIST_COLUMNS,
      empty,
    });
  },
});
