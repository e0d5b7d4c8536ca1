// `sq mcp`: the MCP server. Each tool call runs its verb in-process with --json (main.ts's run() with captured
// streams), so a tool has exactly the verb's requests, pacing (shared with every sq process through the cache dir),
// retries, error mapping and masking: its result is the JSON the verb prints, and an error is the verb's message
// with its exit code's name. Only protocol messages go to stdout.
import { Readable, Transform, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Ctx } from '../cli/context.js';
import { exitCodeName, UsageError } from '../errors.js';
import { importPackage } from '../import-package.js';
import { VERSION } from '../version.js';
import { toolDefs, type Access, type ToolArgs, type ToolDef } from './tools.js';

type Sdk = typeof import('./sdk.js');

/** Who may call what: --allow-writes (write tools), --allow-writes=all (deletes and billing too), or a list of tools. */
export type Allow = { level: 'read' | 'write' | 'all' } | { names: ReadonlySet<string> };

export function parseAllowWrites(value: string | true | undefined): Allow {
  if (value === undefined) return { level: 'read' };
  if (value === true) return { level: 'write' };
  if (value.trim() === 'all') return { level: 'all' };
  const writes = toolDefs().filter((t) => t.access !== 'read').map((t) => t.name);
  const names = value.split(',').map((s) => s.trim());
  const wrong = names.filter((n) => !writes.includes(n));
  if (!value.trim() || wrong.length) {
    throw new UsageError(`--allow-writes: ${wrong.length ? `unknown write tool "${wrong.filter(Boolean)[0] ?? ''}"` : 'empty list'}; give nothing (the write tools but deletes and billing), "all", or a comma-separated list of: ${writes.join(', ')}`);
  }
  return { names: new Set(names) };
}

export function allowed(allow: Allow, name: string, access: Access): boolean {
  if (access === 'read') return true;
  if ('names' in allow) return allow.names.has(name);
  return allow.level === 'all' || (allow.level === 'write' && access === 'write');
}

interface VerbOutcome {
  code: number;
  stdout: string;
  /** The error the verb printed (--json: one object on stderr), when it failed. */
  error: { code: number; status: number | null; message: string; details?: string[] } | null;
  /** Hints and warnings it printed on stderr. */
  notes: string;
}

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void) {
    this.text += String(chunk);
    done();
  }
}

/** The verbs running now: when the client closes stdin, their answers are still sent before the server closes. */
const running = new Set<Promise<unknown>>();

/** Runs `sq ARGV --json` in this process, as the CLI would, with the server's key, profile and base URL. */
async function runVerb(ctx: Ctx, argv: string[], stdin: string | undefined, signal: AbortSignal, flags: string[] = []): Promise<VerbOutcome> {
  const run = ctx.runCommand;
  if (!run) throw new Error('sq mcp runs its tools through main.ts, which sets ctx.runCommand');
  const g = ctx.globals;
  const at = argv.indexOf('--');
  const [head, tail] = at < 0 ? [argv, []] : [argv.slice(0, at), argv.slice(at)];
  // Options go before the '--' that starts the positional arguments (a squid named "--all" stays a name).
  const globals = [...flags, '--json', '--no-input', '--no-color', ...(g.profile ? [`--profile=${g.profile}`] : []), ...(g.baseUrl ? [`--base-url=${g.baseUrl}`] : []), ...(g.insecureHttp ? ['--insecure-http'] : [])];
  const out = new Capture();
  const err = new Capture();
  const done = run([...head, ...globals, ...tail], {
    io: { stdout: out, stderr: err, stdin: Readable.from(stdin === undefined ? [] : [stdin]), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, columns: 100 },
    env: ctx.env,
    now: ctx.now,
    sleep: ctx.sleep,
    signal,
  });
  running.add(done);
  const code = await done.finally(() => running.delete(done));
  let error: VerbOutcome['error'] = null;
  const notes: string[] = [];
  for (const line of err.text.split('\n')) {
    if (!line) continue;
    if (code !== 0 && !error && line.startsWith('{"error":')) {
      try {
        error = (JSON.parse(line) as { error: NonNullable<VerbOutcome['error']> }).error;
        continue;
      } catch {
        // not the error object: a note
      }
    }
    notes.push(line);
  }
  return { code, stdout: out.text, error, notes: notes.join('\n') };
}

type Content = { type: 'text'; text: string };
interface ToolResult {
  [key: string]: unknown;
  content: Content[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function errorText(code: number, message: string, details: string[] = []): string {
  return [`${exitCodeName(code)} (exit ${code}): ${message}`, ...details].join('\n');
}

/** The tool's answer: the verb's JSON as text and as structured content, or a tool error with the CLI's message. */
async function callTool(ctx: Ctx, tool: ToolDef, args: ToolArgs, allowAll: boolean, signal: AbortSignal): Promise<ToolResult> {
  let argv: string[];
  try {
    argv = tool.argv(args);
  } catch (e) {
    if (e instanceof UsageError) return { isError: true, content: [{ type: 'text', text: errorText(e.exitCode, `${tool.name}: ${e.message}`) }] };
    throw e;
  }
  const write: string[] = [];
  if (tool.access !== 'read') {
    if (args.dry_run === true) write.push('--dry-run');
    // The write was allowed when the server started; apply's own --yes (deletions, more billing) only with =all.
    if (tool.name !== 'apply' || allowAll) write.push('--yes');
  }
  const r = await runVerb(ctx, argv, tool.stdin?.(args), signal, write);
  let data: unknown = null;
  const text = r.stdout.trim();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  const content: Content[] = [];
  // The verb's JSON, compact (an agent pays for every byte).
  if (text) content.push({ type: 'text', text: typeof data === 'string' ? data : JSON.stringify(data) });
  if (r.code !== 0) {
    const e = r.error ?? { code: r.code, status: null, message: r.notes || 'failed' };
    content.unshift({ type: 'text', text: errorText(r.code, e.message, e.details) });
    if (r.notes && r.error) content.push({ type: 'text', text: r.notes });
    return { isError: true, content };
  }
  if (r.notes) content.push({ type: 'text', text: r.notes });
  const structured = tool.shape ? tool.shape(data, args) : Array.isArray(data) ? { items: data } : data && typeof data === 'object' ? (data as Record<string, unknown>) : { value: data };
  return { content, structuredContent: structured };
}

export interface ServeOptions {
  allow: Allow;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
}

/** Serves until the client closes stdin (or sq is stopped). */
export async function serveMcp(ctx: Ctx, opts: ServeOptions): Promise<void> {
  const sdk = await importPackage<Sdk>('#mcp-sdk');
  const { McpServer, ResourceTemplate, StdioServerTransport, z } = sdk;
  const server = new McpServer(
    { name: 'sq', title: 'sq: the lobstr account', version: VERSION },
    {
      instructions:
        'Tools mirror the sq CLI\'s verbs (noun_verb) and return what `sq <noun> <verb> --json` prints, secrets masked. ' +
        'Squids take an id, a unique id prefix or an exact name; runs and tasks an id or a unique id prefix.',
    },
  );
  const defs = toolDefs();
  const allowAll = 'level' in opts.allow && opts.allow.level === 'all';
  const refused = new Map<string, Access>();
  for (const tool of defs) {
    if (!allowed(opts.allow, tool.name, tool.access)) {
      refused.set(tool.name, tool.access);
      continue;
    }
    const shape = tool.input(z);
    const outputSchema = tool.list
      ? { items: z.array(z.unknown()), next_cursor: z.string().optional() }
      : undefined;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description + (tool.access === 'read' ? '' : ' dry_run: true returns the planned request and sends nothing.'),
        inputSchema: shape,
        ...(outputSchema ? { outputSchema } : {}),
        annotations:
          tool.access === 'read'
            ? { title: tool.title, readOnlyHint: true, openWorldHint: false }
            : { title: tool.title, readOnlyHint: false, destructiveHint: !!tool.destructive, idempotentHint: !!tool.idempotent, openWorldHint: false },
      },
      (args: ToolArgs, extra: { signal: AbortSignal }) => callTool(ctx, tool, args, allowAll, AbortSignal.any([ctx.signal, extra.signal])),
    );
  }
  // A call of a write tool this server does not serve says how to allow it (the SDK's own text says only "not found").
  const internal = server as unknown as { createToolError(message: string): ToolResult };
  const toolError = internal.createToolError.bind(server);
  internal.createToolError = (message: string) => {
    const name = /Tool (\S+) not found$/.exec(message)?.[1];
    const access = name === undefined ? undefined : refused.get(name);
    if (!access) return toolError(message);
    // Each suggestion is a whole command in its own backticks, so an agent or a user can run it as quoted.
    const how =
      access === 'all'
        ? `\`sq mcp --allow-writes=all\` (every write tool), or \`sq mcp --allow-writes=${name}\` (a list serves exactly the tools it names)`
        : `\`sq mcp --allow-writes\``;
    return toolError(errorText(2, `${name} is a write tool and this server is read-only for it: start it with ${how}`));
  };

  const json = async (argv: string[], uri: string, signal: AbortSignal) => {
    const r = await runVerb(ctx, argv, undefined, signal);
    if (r.code !== 0) throw new Error(errorText(r.code, r.error?.message ?? r.notes, r.error?.details));
    return { contents: [{ uri, mimeType: 'application/json', text: r.stdout.trim() }] };
  };
  const listed = async (argv: string[], prefix: string, signal: AbortSignal) => {
    const r = await runVerb(ctx, argv, undefined, signal);
    if (r.code !== 0) throw new Error(errorText(r.code, r.error?.message ?? r.notes, r.error?.details));
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    return {
      resources: rows
        .filter((row) => typeof row.id === 'string')
        .map((row) => ({ uri: `${prefix}${String(row.id)}`, name: String(row.name ?? row.squid_name ?? row.id), mimeType: 'application/json' })),
    };
  };
  const idOf = (v: string | string[]) => (Array.isArray(v) ? v[0] : v);
  server.registerResource(
    'squid',
    new ResourceTemplate('sq://squids/{id}', { list: (extra) => listed(['squids', 'list', '--limit=100'], 'sq://squids/', extra.signal) }),
    { title: 'Squid', description: 'A squid as `sq squids get <id> --json` shows it (id, id prefix or exact name)', mimeType: 'application/json' },
    (uri, vars, extra) => json(['squids', 'get', '--', decodeURIComponent(idOf(vars.id))], uri.href, extra.signal),
  );
  server.registerResource(
    'run',
    new ResourceTemplate('sq://runs/{id}', { list: (extra) => listed(['runs', 'list', '--limit=20'], 'sq://runs/', extra.signal) }),
    { title: 'Run', description: 'A run as `sq runs get <id> --json` shows it; listed: the 20 most recent runs', mimeType: 'application/json' },
    (uri, vars, extra) => json(['runs', 'get', '--', decodeURIComponent(idOf(vars.id))], uri.href, extra.signal),
  );
  server.registerResource(
    'status',
    'sq://status',
    { title: 'Account status', description: 'The account at a glance, as `sq status --json`', mimeType: 'application/json' },
    (uri, extra) => json(['status'], uri.href, extra.signal),
  );

  // Only protocol messages on stdout: the transport keeps the real stdout, anything else written there goes to stderr.
  const real = process.stdout.write;
  const protocolOut =
    opts.stdout === process.stdout
      ? new Writable({ write: (chunk, _enc, done) => void real.call(process.stdout, chunk as Uint8Array, undefined, (e?: Error | null) => done(e ?? null)) })
      : (opts.stdout as Writable);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  ctx.onCleanup(() => {
    process.stdout.write = real;
  });
  // A line that is JSON with an id but not a JSON-RPC message (no "jsonrpc": "2.0", or neither a method nor a
  // result/error) is answered here with its own id: the SDK's transport only reports it (below, where the line is gone),
  // and an error with id null leaves the client waiting for an answer to that id forever.
  const invalidRequest = (id: string | number) =>
    void transport.send({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' } } as never);
  let pending = '';
  const utf8 = new StringDecoder('utf8'); // a character split across two chunks stays whole
  const screened = new Transform({
    transform(chunk: Buffer | string, _enc, done) {
      pending += typeof chunk === 'string' ? chunk : utf8.write(chunk);
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const kept = lines.filter((line) => {
        const id = invalidRequestId(line);
        if (id === undefined) return true;
        invalidRequest(id);
        ctx.io.stderr.write('sq mcp: a message that is not JSON-RPC 2.0\n');
        return false;
      });
      done(null, kept.map((l) => `${l}\n`).join(''));
    },
    flush(done) {
      done(null, pending + utf8.end());
    },
  });
  (opts.stdin as Readable).pipe(screened);
  const transport = new StdioServerTransport(screened, protocolOut);
  // The SDK's transport drops a line that is not JSON-RPC (it only reports it): answer it, as JSON-RPC asks.
  transport.onerror = (error: Error) => {
    const parse = error instanceof SyntaxError;
    const invalid = error?.name === 'ZodError' || error?.constructor?.name === 'ZodError';
    if (parse || invalid) {
      void transport.send({ jsonrpc: '2.0', id: null, error: { code: parse ? -32700 : -32600, message: parse ? `Parse error: ${error.message}` : 'Invalid Request: not a JSON-RPC 2.0 message' } } as never);
    }
    ctx.io.stderr.write(`sq mcp: ${invalid ? 'a message that is not JSON-RPC 2.0' : error.message.split('\n')[0]}\n`);
  };
  const closed = new Promise<void>((resolve) => {
    opts.stdin.once('end', resolve);
    opts.stdin.once('close', resolve);
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  if (!ctx.globals.quiet) ctx.io.stderr.write(`sq mcp ${VERSION}: serving ${defs.length - refused.size} tools on stdio (${refused.size ? `${refused.size} write tools off` : 'writes allowed'})\n`);
  await closed;
  // `echo '…' | sq mcp`: stdin ends at once, and the answers still go out (a stop signal does not wait).
  const tick = () => new Promise((r) => setImmediate(r));
  await tick();
  while (running.size && !ctx.signal.aborted) {
    await Promise.allSettled([...running]);
    await tick();
    await tick();
  }
  await server.close();
}

/** The id of a line that is a JSON object with a usable id but is not a JSON-RPC 2.0 message; else undefined. */
export function invalidRequestId(line: string): string | number | undefined {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return undefined;
  const m = msg as Record<string, unknown>;
  if (typeof m.id !== 'string' && !(typeof m.id === 'number' && Number.isInteger(m.id))) return undefined;
  const valid = m.jsonrpc === '2.0' && (typeof m.method === 'string' || 'result' in m || 'error' in m);
  return valid ? undefined : m.id;
}
