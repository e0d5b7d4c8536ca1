import { defineVerb } from '../cli/command.js';

export default defineVerb({
  name: 'mcp',
  summary: 'Serve the account to AI agents over MCP (stdio); read-only unless --allow-writes',
  description:
    'An MCP server on stdin/stdout for Claude Code, Claude Desktop, Cursor and other agents, with the key of every command ' +
    '(--profile, SQ_TOKEN or the active profile). Its tools are sq\'s verbs, named noun_verb (squids_list, runs_get, ' +
    'results_list…): each runs the verb with --json, with the same pacing, retries and masking, and returns its JSON; an ' +
    'error is a tool error with the CLI\'s message and exit-code name (NOT_FOUND (exit 3): …). Resources: ' +
    'sq://squids/{id}, sq://runs/{id}, sq://status. Read-only by default: --allow-writes adds runs_start, runs_abort, ' +
    'tasks_add, squids_update, delivery_* and apply (each takes dry_run: true, which returns the planned request); ' +
    'the deletes (tasks_delete, squids_delete) and billing_auto_reset_set need --allow-writes=all, or ' +
    '--allow-writes=LIST, which serves exactly the write tools it names. apply deletes (prune) or raises billing only ' +
    'with --allow-writes=all. stdout carries protocol messages only; logs go to stderr.',
  options: [
    {
      flags: '--allow-writes [tools]',
      description: 'serve write tools: alone, all but deletes and billing; "all": every one; or a comma-separated list of tools',
      defaultText: 'read-only',
    },
  ],
  examples: ['sq mcp', 'claude mcp add sq -- sq mcp', 'sq mcp --allow-writes', 'sq mcp --allow-writes=runs_start,tasks_add,tasks_delete', 'sq --profile work mcp --allow-writes=all'],
  async run(ctx, _args, opts) {
    const { parseAllowWrites, serveMcp } = await import('../mcp/server.js');
    await serveMcp(ctx, { allow: parseAllowWrites(opts.allowWrites), stdin: ctx.io.stdin, stdout: ctx.io.stdout });
  },
});
