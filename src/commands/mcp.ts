import { defineVerb } from '../cli/command.js';
import { UsageError } from '../errors.js';
import { intFlag } from '../validate/index.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export default defineVerb({
  name: 'mcp',
  summary: 'Serve the account to AI agents over MCP (stdio, or Streamable HTTP); read-only unless --allow-writes',
  description:
    'An MCP server for Claude Code, Claude Desktop, Cursor and other agents, with the key of every command (--profile, ' +
    'SQ_TOKEN or the active profile): on stdin/stdout, or with --http HOST:PORT over Streamable HTTP. Its tools run ' +
    "sq's verbs (same pacing, retries and masking) and answer compact JSON (one text part and structuredContent, typed " +
    'by an outputSchema): crawlers_search, crawlers_get, squids_list, squids_get, squids_estimate, runs_list, runs_get, ' +
    'runs_wait, results_list, results_url, accounts_list, accounts_get, balance, whoami, and more; lists give 20 rows and ' +
    "a next_cursor. An error is a tool error with the CLI's message and exit-code name (NOT_FOUND (exit 3): …). " +
    'Read-only by default: --allow-writes adds squids_create, tasks_add, squids_update, go, squids_attach_account, ' +
    'squids_empty, squids_deactivate, runs_start, runs_abort, delivery_* and apply (each takes dry_run: true); the ' +
    'deletes (tasks_delete, squids_delete) and billing_auto_reset_set need --allow-writes=all, or --allow-writes=LIST, ' +
    'which serves exactly the write tools it names. go and runs_start spend credits: above --confirm-above they answer ' +
    'needs_confirmation with the estimate and start nothing until called again with confirm: true. Waits last at most ' +
    '50 s (still_running: true). An argument a tool does not take is a JSON-RPC error (-32602) naming it, never ignored. ' +
    'Files, secrets, signals and --http: sq help mcp-server.',
  options: [
    {
      flags: '--allow-writes [tools]',
      description:
        'serve write tools: alone, all but deletes and billing; "all": every one; or a comma-separated list of tools',
      defaultText: 'read-only',
    },
    {
      flags: '--root <dir>',
      description: 'the directory whose files tools may read (plan/apply "file"); without it no tool reads a file',
      defaultText: 'none',
    },
    {
      flags: '--secret-env <names>',
      description: 'environment variables a write may read a secret from (comma-separated, repeatable)',
      repeatable: true,
      defaultText: 'none',
    },
    {
      flags: '--confirm-above <credits>',
      description: 'go and runs_start answer needs_confirmation above this estimate (0-1000000000)',
      defaultText: "the profile's confirm-above (sq config), else 100",
    },
    {
      flags: '--max-message-bytes <n>',
      description: 'the largest JSON-RPC message (1024-1073741824)',
      defaultText: '1048576 (1 MiB)',
    },
    {
      flags: '--http <host:port>',
      description: 'serve Streamable HTTP on HOST:PORT (port 0: any; a port alone binds 127.0.0.1)',
    },
    {
      flags: '--token-env <name>',
      description: "with --http: the Bearer token is this environment variable's value",
      defaultText: 'a random token',
    },
  ],
  examples: [
    'sq mcp',
    'claude mcp add sq -- sq mcp',
    'sq mcp --allow-writes --confirm-above 50',
    'sq mcp --allow-writes=runs_start,tasks_add,tasks_delete',
    'sq mcp --allow-writes --secret-env SFTP_PASSWORD',
    'sq mcp --root ./infra',
    'sq mcp --http 127.0.0.1:0',
    'MCP_TOKEN=… sq mcp --http 127.0.0.1:8931 --token-env MCP_TOKEN',
  ],
  async run(ctx, _args, opts) {
    const [{ parseAllowWrites }, { serveMcp }] = await Promise.all([
      import('../mcp/access.js'),
      import('../mcp/server.js'),
    ]);
    const allow = parseAllowWrites(opts.allowWrites as string | true | undefined);
    let root: string | undefined;
    if (opts.root !== undefined) {
      const dir = String(opts.root);
      // Only with --root: node:fs/promises brings readline and the REPL's history module with it on Node 24.
      const { realpath, stat } = process.getBuiltinModule('node:fs/promises');
      const st = await stat(dir).catch(() => null);
      if (!st?.isDirectory()) throw new UsageError(`--root: ${JSON.stringify(dir)} is not a directory`);
      root = await realpath(dir);
    }
    const secretEnv = ((opts.secretEnv ?? []) as string[])
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
    const bad = secretEnv.find((n) => !ENV_NAME.test(n));
    if (bad !== undefined)
      throw new UsageError(
        `--secret-env: ${JSON.stringify(bad)} is not an environment variable name (letters, digits, _; not starting with a digit)`,
      );
    // Without --confirm-above: the profile's confirm-above (`sq config set confirm-above N`), else 100 credits.
    const confirmAbove =
      opts.confirmAbove === undefined
        ? (await (await import('../billing/guard.js')).spendPolicy(ctx, undefined)).confirmAbove
        : intFlag('--confirm-above', opts.confirmAbove, 0, 1_000_000_000);
    const maxMessageBytes =
      opts.maxMessageBytes === undefined
        ? undefined
        : intFlag('--max-message-bytes', opts.maxMessageBytes, 1024, 1024 ** 3);
    let http: { host: string; port: number } | undefined;
    if (opts.http !== undefined) {
      const m = /^(?:(\[[^\]]+\]|[^:]+|)[:])?(\d{1,5})$/.exec(String(opts.http));
      const port = m ? Number(m[2]) : NaN;
      if (!m || port > 65535)
        throw new UsageError(
          `--http: ${JSON.stringify(String(opts.http))} is not HOST:PORT (e.g. 127.0.0.1:8931, or :0 for any free port on 127.0.0.1)`,
        );
      http = { host: (m[1] || '127.0.0.1').replace(/^\[|\]$/g, ''), port };
    }
    let token: string | undefined;
    if (opts.tokenEnv !== undefined) {
      if (!http) throw new UsageError('--token-env: only with --http');
      const name = String(opts.tokenEnv);
      token = ctx.env[name];
      if (!token) throw new UsageError(`--token-env: environment variable ${name} is not set or empty`);
      if (token.length < 16 || /\s/.test(token))
        throw new UsageError(`--token-env: the value of ${name} must be at least 16 characters, without spaces`);
      ctx.addSecret(token);
    }
    await serveMcp(ctx, {
      allow,
      stdin: ctx.io.stdin,
      stdout: ctx.io.stdout,
      root,
      secretEnv,
      confirmAbove,
      maxMessageBytes,
      http,
      token,
    });
  },
});
