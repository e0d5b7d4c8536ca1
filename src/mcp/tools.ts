// The tools `sq mcp` serves: each one is a verb of the CLI, run in-process with --json (src/mcp/server.ts), so it
// has the verb's requests, pacing, retries, checks, error mapping and masking. This file only says, per tool, which
// verb, how its arguments become that verb's command line, and who may call it.
import type { ZodType } from 'zod';
import { UsageError } from '../errors.js';

type Z = (typeof import('./sdk.js'))['z'];
type Shape = Record<string, ZodType>;
export type ToolArgs = Record<string, unknown>;

/** read: always served; write: with --allow-writes; all: deletes and the billing reset, --allow-writes=all or named. */
export type Access = 'read' | 'write' | 'all';

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  access: Access;
  /** Write tools: it deletes or charges (MCP destructiveHint). */
  destructive?: boolean;
  /** Write tools: sending it twice does what sending it once does (MCP idempotentHint). */
  idempotent?: boolean;
  /** The verb prints a list: the structured result is { items, … }. */
  list?: boolean;
  input(z: Z): Shape;
  /** The sq command line (without --json and the globals); arguments after '--' are positional. */
  argv(a: ToolArgs): string[];
  /** Text the verb reads on stdin (`-f -`). */
  stdin?(a: ToolArgs): string | undefined;
  /** Turns the verb's JSON into the tool's structured result (results_list adds its cursor). */
  shape?(data: unknown, a: ToolArgs): Record<string, unknown>;
}

/** `--name=value` for each given value (the = form: a value starting with "-" stays a value). */
function flags(pairs: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [flag, v] of Object.entries(pairs)) {
    if (v === undefined || v === null || v === false) continue;
    out.push(v === true ? flag : `${flag}=${String(v)}`);
  }
  return out;
}

const str = (a: ToolArgs, k: string) => (typeof a[k] === 'string' ? (a[k] as string) : undefined);

function listInput(z: Z, defaultLimit: number): Shape {
  return {
    limit: z.number().int().min(1).max(1000).optional().describe(`how many records, at most 1000 (default ${defaultLimit})`),
    page: z.number().int().min(1).optional().describe('read this page only (page size = limit, then at most 100)'),
  };
}
const listFlags = (a: ToolArgs) => flags({ '--limit': a.limit, '--page': a.page });

const squidArg = (z: Z) => z.string().min(1).describe('squid id, unique id prefix or exact name');
const runArg = (z: Z) => z.string().min(1).describe('run id or unique id prefix (4+ hex characters)');
const prefixSquid = (z: Z) => z.string().min(1).optional().describe('look a run/task id prefix up in this squid only');
const dryRun = (z: Z) => z.boolean().optional().describe('return the planned request(s), send nothing');
const activeArg = (z: Z) => z.boolean().optional().describe('false keeps the configuration but disables it (default true)');
const active = (a: ToolArgs) => (a.active === false ? ['--inactive'] : a.active === true ? ['--active'] : []);

/** `plan`, `apply`, `delivery_apply`: the account file by path, or its YAML/JSON inline (read as `-f -`). */
function fileInput(z: Z): Shape {
  return {
    file: z.string().min(1).optional().describe('path of the YAML or JSON file, as the server process sees it'),
    yaml: z.string().min(1).optional().describe('the file\'s content inline (YAML or JSON)'),
  };
}
function fileFlags(a: ToolArgs): string[] {
  const file = str(a, 'file');
  const yaml = str(a, 'yaml');
  if ((file === undefined) === (yaml === undefined)) throw new UsageError('give exactly one of "file" (a path) and "yaml" (the content inline)');
  return file !== undefined ? [`--file=${file}`] : ['--file=-'];
}

/** results_list's cursor: the next page and the page size, opaque to the client. */
export function encodeCursor(page: number, size: number): string {
  return Buffer.from(JSON.stringify({ page, size })).toString('base64url');
}
function decodeCursor(cursor: string): { page: number; size: number } {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { page?: unknown; size?: unknown };
    if (Number.isInteger(c.page) && Number.isInteger(c.size) && (c.page as number) >= 1 && (c.size as number) >= 1 && (c.size as number) <= 100) {
      return { page: c.page as number, size: c.size as number };
    }
  } catch {
    // reported below
  }
  throw new UsageError('"cursor" is not one that results_list returned (pass next_cursor as it came)');
}
function resultsPage(a: ToolArgs): { page: number; size: number } {
  if (typeof a.cursor === 'string') return decodeCursor(a.cursor);
  return { page: 1, size: typeof a.limit === 'number' ? a.limit : 100 };
}

export function toolDefs(): ToolDef[] {
  return [
    // ---- read
    {
      name: 'squids_list', title: 'List squids', access: 'read', list: true,
      description: 'List squids (scraping jobs), newest first: `sq squids list --json`.',
      input: (z) => ({ name: z.string().optional().describe('only squids whose name contains this text'), ...listInput(z, 30) }),
      argv: (a) => ['squids', 'list', ...flags({ '--name': a.name }), ...listFlags(a)],
    },
    {
      name: 'squids_get', title: 'Show a squid', access: 'read',
      description: 'One squid: crawler, params, schedule, last run: `sq squids get <squid> --json`.',
      input: (z) => ({ squid: squidArg(z) }),
      argv: (a) => ['squids', 'get', '--', String(a.squid)],
    },
    {
      name: 'crawlers_list', title: 'List crawlers', access: 'read', list: true,
      description: 'The crawlers a squid can be built on: `sq crawlers list --json`.',
      input: (z) => listInput(z, 30),
      argv: (a) => ['crawlers', 'list', ...listFlags(a)],
    },
    {
      name: 'crawlers_params', title: 'A crawler\'s parameters', access: 'read',
      description: 'The parameters (and paid functions) a crawler takes: `sq crawlers params <crawler> --json`.',
      input: (z) => ({ crawler: z.string().min(1).describe('crawler id, name or slug') }),
      argv: (a) => ['crawlers', 'params', '--', String(a.crawler)],
    },
    {
      name: 'runs_list', title: 'List runs', access: 'read', list: true,
      description: 'Runs of a squid, or the most recent runs across squids: `sq runs list --json`.',
      input: (z) => ({ squid: squidArg(z).optional(), ...listInput(z, 20) }),
      argv: (a) => ['runs', 'list', ...flags({ '--squid': a.squid }), ...listFlags(a)],
    },
    ...(['get', 'stats', 'credits'] as const).map(
      (verb): ToolDef => ({
        name: `runs_${verb}`,
        title: { get: 'Show a run', stats: 'A run\'s progress', credits: 'What a run cost' }[verb],
        access: 'read',
        description: {
          get: 'One run: status, results, credits, export state',
          stats: 'A run\'s progress: percent done, tasks done/left, results, ETA',
          credits: 'A run\'s credits per function, total credits and results, rates',
        }[verb] + `: \`sq runs ${verb} <run> --json\`.`,
        input: (z) => ({ run: runArg(z), squid: prefixSquid(z) }),
        argv: (a) => ['runs', verb, ...flags({ '--squid': a.squid }), '--', String(a.run)],
      }),
    ),
    {
      name: 'tasks_list', title: 'List tasks', access: 'read', list: true,
      description: 'The tasks (URLs or parameter sets) of a squid: `sq tasks list --squid <squid> --json`.',
      input: (z) => ({ squid: squidArg(z), type: z.enum(['url', 'params']).optional().describe('task type (default url)'), ...listInput(z, 30) }),
      argv: (a) => ['tasks', 'list', ...flags({ '--squid': a.squid, '--type': a.type }), ...listFlags(a)],
    },
    {
      name: 'results_list', title: 'List results', access: 'read', list: true,
      description:
        'Results of a squid, a run or a task, one page per call (at most 100 records): pass next_cursor back as cursor for ' +
        'the next page; no next_cursor means the last page. `sq results list --json --limit N --page P`.',
      input: (z) => ({
        squid: squidArg(z).optional().describe('results of every run of this squid'),
        run: runArg(z).optional().describe('results of this run only'),
        task: z.string().min(1).optional().describe('only the results of this task (id or id prefix)'),
        limit: z.number().int().min(1).max(100).optional().describe('records per page, at most 100 (default 100)'),
        cursor: z.string().optional().describe('next_cursor of the previous call'),
      }),
      argv: (a) => {
        const { page, size } = resultsPage(a);
        return ['results', 'list', ...flags({ '--squid': a.squid, '--run': a.run, '--task': a.task, '--limit': size, '--page': page })];
      },
      shape: (data, a) => {
        const { page, size } = resultsPage(a);
        const items = Array.isArray(data) ? data : [];
        return { items, ...(items.length === size ? { next_cursor: encodeCursor(page + 1, size) } : {}) };
      },
    },
    {
      name: 'delivery_show', title: 'Show delivery', access: 'read',
      description: 'Where a squid\'s results go (SFTP, webhook, e-mail, sheet, S3), secrets masked: `sq delivery show --squid <squid> --json`.',
      input: (z) => ({ squid: squidArg(z) }),
      argv: (a) => ['delivery', 'show', ...flags({ '--squid': a.squid })],
    },
    {
      name: 'billing_auto_reset_get', title: 'Automatic billing reset', access: 'read',
      description: 'The automatic billing reset settings and window: `sq billing auto-reset --json`.',
      input: () => ({}),
      argv: () => ['billing', 'auto-reset'],
    },
    {
      name: 'balance', title: 'Credit balance', access: 'read',
      description: 'The credit balance; remaining = available - consumed: `sq balance --json`.',
      input: () => ({}),
      argv: () => ['balance'],
    },
    {
      name: 'status', title: 'Account status', access: 'read',
      description: 'The account at a glance: plan, credits, auto-reset, runs in progress, failures: `sq status --json`.',
      input: (z) => ({ timeout: z.string().optional().describe('give up on what has not answered by then, e.g. 20s (at most 5m)') }),
      argv: (a) => ['status', ...flags({ '--timeout': a.timeout })],
    },
    {
      name: 'plan', title: 'Plan an account file', access: 'read',
      description: 'What would change to make the account match a file (squids, tasks, delivery, billing); sends nothing: `sq plan -f FILE --json`.',
      input: fileInput,
      argv: (a) => ['plan', ...fileFlags(a)],
      stdin: (a) => str(a, 'yaml'),
    },
    // ---- write (--allow-writes)
    {
      name: 'runs_start', title: 'Start a run', access: 'write', destructive: true,
      description: 'Start a run of a squid (it spends credits): `sq runs start --squid <squid> --json`; wait: until it is done.',
      input: (z) => ({
        squid: squidArg(z),
        wait: z.boolean().optional().describe('wait until the run is done and its export is ready'),
        timeout: z.string().optional().describe('with wait: give up waiting after this long, e.g. 10m (the run continues)'),
        dry_run: dryRun(z),
      }),
      argv: (a) => ['runs', 'start', ...flags({ '--squid': a.squid, '--wait': a.wait, '--timeout': a.timeout })],
    },
    {
      name: 'runs_abort', title: 'Abort a run', access: 'write', idempotent: true,
      description: 'Stop a running run (credits spent stay spent): `sq runs abort <run> --yes --json`.',
      input: (z) => ({ run: runArg(z), squid: prefixSquid(z), dry_run: dryRun(z) }),
      argv: (a) => ['runs', 'abort', ...flags({ '--squid': a.squid }), '--', String(a.run)],
    },
    {
      name: 'tasks_add', title: 'Add tasks', access: 'write',
      description: 'Add tasks (URLs, or values of another task parameter) to a squid: `sq tasks add --squid <squid> VALUES… --json`.',
      input: (z) => ({
        squid: squidArg(z),
        values: z.array(z.string().min(1)).min(1).describe('one task per value'),
        key: z.string().optional().describe('task parameter each value is sent as (default url)'),
        dry_run: dryRun(z),
      }),
      argv: (a) => ['tasks', 'add', ...flags({ '--squid': a.squid, '--key': a.key }), '--', ...(a.values as string[])],
    },
    {
      name: 'squids_update', title: 'Update a squid', access: 'write', idempotent: true,
      description:
        'Change a squid\'s name, concurrency or params; only what is given is sent (params as `--param k=v`: a string that is ' +
        'valid JSON is read as JSON, as on the command line): `sq squids update <squid> --json`.',
      input: (z) => ({
        squid: squidArg(z),
        name: z.string().min(1).optional(),
        concurrency: z.number().int().min(1).max(20).optional(),
        params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional().describe('e.g. {"max_results": 100, "functions.contacts": true}'),
        dry_run: dryRun(z),
      }),
      argv: (a) => [
        'squids', 'update',
        ...flags({ '--name': a.name, '--concurrency': a.concurrency }),
        ...Object.entries((a.params ?? {}) as Record<string, unknown>).map(([k, v]) => `--param=${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`),
        '--', String(a.squid),
      ],
    },
    {
      name: 'delivery_webhook', title: 'Set the webhook delivery', access: 'write', idempotent: true,
      description: 'Send a squid\'s run events to a URL: `sq delivery webhook --squid <squid> --url URL --json`.',
      input: (z) => ({
        squid: squidArg(z),
        url: z.string().min(1).describe('http(s) endpoint'),
        events: z.string().optional().describe('comma-separated: run.running, run.paused, run.done, run.error, or "all" (default run.done,run.error)'),
        retry: z.boolean().optional().describe('retry failed deliveries (default true)'),
        active: activeArg(z),
        dry_run: dryRun(z),
      }),
      argv: (a) => ['delivery', 'webhook', ...flags({ '--squid': a.squid, '--url': a.url, '--events': a.events }), ...(a.retry === false ? ['--no-retry'] : []), ...active(a)],
    },
    {
      name: 'delivery_email', title: 'Set the e-mail delivery', access: 'write', idempotent: true,
      description: 'E-mail a squid\'s results when a run completes: `sq delivery email --squid <squid> --email ADDRESS --json`.',
      input: (z) => ({ squid: squidArg(z), email: z.string().min(1), notifications: z.boolean().optional().describe('false keeps the address, sends nothing'), dry_run: dryRun(z) }),
      argv: (a) => ['delivery', 'email', ...flags({ '--squid': a.squid, '--email': a.email }), ...(a.notifications === false ? ['--no-notifications'] : [])],
    },
    {
      name: 'delivery_sheet', title: 'Set the Google Sheet delivery', access: 'write', idempotent: true,
      description: 'Write a squid\'s results to a Google Sheet: `sq delivery sheet --squid <squid> --url URL --json`.',
      input: (z) => ({ squid: squidArg(z), url: z.string().min(1), mode: z.enum(['append', 'overwrite']).optional().describe('default overwrite'), active: activeArg(z), dry_run: dryRun(z) }),
      argv: (a) => ['delivery', 'sheet', ...flags({ '--squid': a.squid, '--url': a.url }), ...(a.mode ? [`--${String(a.mode)}`] : []), ...active(a)],
    },
    {
      name: 'delivery_sftp', title: 'Set the SFTP delivery', access: 'write', idempotent: true,
      description:
        'Upload a squid\'s results over SFTP: `sq delivery sftp --squid <squid> … --json`. The password never travels in ' +
        'the call: password_env names an environment variable of the sq mcp process that holds it.',
      input: (z) => ({
        squid: squidArg(z), host: z.string().min(1), port: z.number().int().min(1).max(65535).optional(), username: z.string().min(1),
        directory: z.string().min(1), password_env: z.string().min(1).describe('environment variable of the server that holds the password'),
        active: activeArg(z), dry_run: dryRun(z),
      }),
      argv: (a) => ['delivery', 'sftp', ...flags({ '--squid': a.squid, '--host': a.host, '--port': a.port, '--username': a.username, '--directory': a.directory, '--password-env': a.password_env }), ...active(a)],
    },
    {
      name: 'delivery_s3', title: 'Set the S3 delivery', access: 'write', idempotent: true,
      description: 'Upload a squid\'s results to S3; the keys come from environment variables of the sq mcp process: `sq delivery s3 --squid <squid> … --json`.',
      input: (z) => ({
        squid: squidArg(z), bucket: z.string().min(1), target_path: z.string().optional(),
        access_key_env: z.string().min(1), secret_key_env: z.string().min(1), active: activeArg(z), dry_run: dryRun(z),
      }),
      argv: (a) => ['delivery', 's3', ...flags({ '--squid': a.squid, '--bucket': a.bucket, '--target-path': a.target_path, '--access-key-env': a.access_key_env, '--secret-key-env': a.secret_key_env }), ...active(a)],
    },
    {
      name: 'delivery_test', title: 'Test a delivery channel', access: 'write', idempotent: true,
      description: 'Ask the service to try a webhook or e-mail channel (it sends a test event/e-mail): `sq delivery test <kind> --json`.',
      input: (z) => ({ kind: z.enum(['webhook', 'email']), squid: squidArg(z).optional().describe('reuse this squid\'s stored configuration'), url: z.string().optional(), email: z.string().optional(), dry_run: dryRun(z) }),
      argv: (a) => ['delivery', 'test', ...flags({ '--squid': a.squid, '--url': a.url, '--email': a.email }), '--', String(a.kind)],
    },
    {
      name: 'delivery_apply', title: 'Apply a delivery file', access: 'write', idempotent: true,
      description: 'Make delivery match a file; sends only what differs: `sq delivery apply -f FILE --json`.',
      input: (z) => ({ ...fileInput(z), dry_run: dryRun(z) }),
      argv: (a) => ['delivery', 'apply', ...fileFlags(a)],
      stdin: (a) => str(a, 'yaml'),
    },
    {
      name: 'apply', title: 'Apply an account file', access: 'write', idempotent: true, destructive: true,
      description:
        'Make the account match a file (`sq plan` first): `sq apply -f FILE --json`. Deletions (prune) and a billing change ' +
        'that can charge more are refused unless the server runs with --allow-writes=all.',
      input: (z) => ({ ...fileInput(z), dry_run: dryRun(z) }),
      argv: (a) => ['apply', ...fileFlags(a)],
      stdin: (a) => str(a, 'yaml'),
    },
    // ---- deletes and the billing reset (--allow-writes=all, or named)
    {
      name: 'tasks_delete', title: 'Delete a task', access: 'all', destructive: true, idempotent: true,
      description: 'Delete a task of a squid: `sq tasks delete <task> --yes --json`.',
      input: (z) => ({ task: z.string().min(1).describe('task id or unique id prefix'), squid: prefixSquid(z), dry_run: dryRun(z) }),
      argv: (a) => ['tasks', 'delete', ...flags({ '--squid': a.squid }), '--', String(a.task)],
    },
    {
      name: 'squids_delete', title: 'Delete a squid', access: 'all', destructive: true, idempotent: true,
      description: 'Delete a squid with its tasks and runs: `sq squids delete <squid> --yes --json`.',
      input: (z) => ({ squid: squidArg(z), dry_run: dryRun(z) }),
      argv: (a) => ['squids', 'delete', '--', String(a.squid)],
    },
    {
      name: 'billing_auto_reset_set', title: 'Set the automatic billing reset', access: 'all', destructive: true, idempotent: true,
      description: 'Turn the automatic billing reset on or off, or change its threshold and daily maximum; each reset charges the card on file: `sq billing auto-reset --enable … --yes --json`.',
      input: (z) => ({
        enabled: z.boolean().optional().describe('true turns resets on, false off'),
        threshold: z.number().int().min(1).max(100).optional().describe('usage percentage that triggers a reset'),
        max_resets: z.number().int().min(1).max(10).optional().describe('most resets in any rolling 24 hours'),
        dry_run: dryRun(z),
      }),
      argv: (a) => ['billing', 'auto-reset', ...(a.enabled === true ? ['--enable'] : a.enabled === false ? ['--disable'] : []), ...flags({ '--threshold': a.threshold, '--max-resets': a.max_resets })],
    },
  ];
}
