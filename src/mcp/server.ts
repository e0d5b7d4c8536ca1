// `sq mcp`: the MCP server. Each tool call runs verbs in-process with --json (main.ts's run() with captured streams),
// so a tool has exactly the verbs' requests, pacing (shared with every sq process through the cache dir), retries,
// error mapping and masking (src/mcp/tools.ts says which verbs). Over stdio (lines read here: capped, linear) or
// Streamable HTTP (--http: the SDK's transport behind a Bearer token and an Origin check). Only protocol messages go
// to stdout.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { Ctx } from '../cli/context.js';
import { downloadUrl } from '../api/runs.js';
import { exitCodeName, InterruptedError, UsageError } from '../errors.js';
import { importPackage } from '../import-package.js';
import { VERSION } from '../version.js';
import { toolDefs, ToolError, type Access, type ToolArgs, type ToolDef, type ToolEnv } from './tools.js';

type Sdk = typeof import('./sdk.js');
type SdkHttp = typeof import('./sdk-http.js');
type Rec = Record<string, unknown>;

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

/** The largest file a tool reads under --root. */
export const ROOT_FILE_MAX_BYTES = 1024 * 1024;
/** The default cap of one JSON-RPC message (--max-message-bytes). */
export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;
/** When stdin ends, calls in flight get this long to answer before they are cancelled (the server exits within 1 s). */
const STDIN_GRACE_MS = 500;

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

/** The verbs running now: a stop signal or the end of stdin cancels them, and waits for them to end. */
const running = new Set<Promise<unknown>>();

/** Runs `sq ARGV --json` in this process, as the CLI would, with the server's key, profile and base URL. */
async function runVerb(ctx: Ctx, argv: string[], stdin: string | undefined, signal: AbortSignal, flags: string[] = [], env: Record<string, string | undefined> = ctx.env): Promise<VerbOutcome> {
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
    env,
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

/** Whether a failed write reached the server: the CLI's own words for each case (src/api/http-errors.ts). */
function requestStateOf(message: string): 'not_sent' | 'unknown' | undefined {
  if (/may have reached the server/.test(message)) return 'unknown';
  if (/was not sent|connection refused|host not found|timed out connecting/.test(message)) return 'not_sent';
  return undefined;
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

export interface ServeOptions {
  allow: Allow;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** --root: the directory tools may read files in; none: no tool takes a path. */
  root?: string;
  /** --secret-env: the environment variables a write may read a secret from. */
  secretEnv?: readonly string[];
  /** --max-message-bytes */
  maxMessageBytes?: number;
  /** --confirm-above: credits over which go/runs_start answer needs_confirmation. */
  confirmAbove?: number;
  /** --http HOST:PORT */
  http?: { host: string; port: number };
  /** --token-env: the Bearer token's value. */
  token?: string;
}

/** A path argument inside --root: no "..", no symbolic link out, a regular file of at most 1 MiB. */
async function inRoot(root: string | undefined, arg: string, name: string, tool: string): Promise<string> {
  const refuse = (why: string): never => {
    throw new ToolError(2, `${tool}: "${name}" ${why}; this server reads files only inside its --root directory${root ? ` (${root})` : ' (started without --root: pass the document inline)'}`);
  };
  if (!root) refuse('is a path');
  const base = root as string;
  if (arg.split(/[\\/]/).includes('..')) refuse('leads out of the directory ("..")');
  const [realBase, real] = await Promise.all([realpath(base), realpath(resolve(base, arg)).catch((e: NodeJS.ErrnoException) => refuse(`cannot be read (${e.code ?? 'error'})`))]);
  const rel = relative(realBase, real);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) refuse('is outside the directory (a symbolic link, or an absolute path, leads out)');
  const fh = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)).catch((e: NodeJS.ErrnoException) => refuse(`cannot be read (${e.code ?? 'error'})`));
  try {
    const st = await fh.stat();
    if (!st.isFile()) refuse('is not a regular file');
    if (st.size > ROOT_FILE_MAX_BYTES) refuse(`is over the ${ROOT_FILE_MAX_BYTES}-byte (1 MiB) cap`);
  } finally {
    await fh.close();
  }
  return real;
}

interface Shared {
  ctx: Ctx;
  opts: ServeOptions;
  sdk: Sdk;
  defs: ToolDef[];
  refused: Map<string, Access>;
  keys: Map<string, Promise<Rec>>;
  /** Aborted when the server stops taking calls (stdin ended): cancels the calls in flight. */
  stopCalls: AbortController;
}

/** The answer of a tool: one JSON text part and the same object as structuredContent; a ToolError as a tool error. */
async function callTool(s: Shared, tool: ToolDef, args: ToolArgs, signal: AbortSignal): Promise<ToolResult> {
  const { ctx, opts } = s;
  const allowAll = 'level' in opts.allow && opts.allow.level === 'all';
  const dryRun = tool.access !== 'read' && args.dry_run === true;
  const write = tool.access !== 'read';
  const env: ToolEnv = {
    secretEnv: new Set(opts.secretEnv ?? []),
    confirmAbove: opts.confirmAbove ?? 100,
    keys: s.keys,
    dryRun,
    async verb(argv, o = {}) {
      const flags: string[] = [];
      if (o.write) {
        if (dryRun) flags.push('--dry-run');
        // The write was allowed when the server started; apply's own --yes (deletions, more billing) only with =all.
        if (argv[0] !== 'apply' || allowAll) flags.push('--yes');
      }
      const r = await runVerb(ctx, argv, o.stdin, signal, flags, { ...ctx.env, SQ_MCP_ROOT: opts.root ?? '', ...o.env });
      if (r.code !== 0 && !(o.ok ?? []).includes(r.code)) {
        const e = r.error ?? { code: r.code, status: null, message: r.notes || 'failed' };
        throw new ToolError(r.code, e.message, e.details, write && o.write ? requestStateOf(e.message) : undefined);
      }
      const text = r.stdout.trim();
      let data: unknown = null;
      if (text) {
        try {
          data = JSON.parse(text);
        } catch {
          data = text;
        }
      }
      return { code: r.code, data };
    },
    async downloadUrl(runId) {
      // The CSV export (the default) is never converted in the background; a conversion still going is "not ready".
      const url = await downloadUrl(await ctx.http(), runId);
      return typeof url === 'string' ? url : null;
    },
    path: (arg, name) => inRoot(opts.root, arg, name, tool.name),
  };
  try {
    const answer = await tool.run(env, args);
    return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    // No structuredContent: a client checks it against the tool's outputSchema even on an error. request_state, when a
    // write's fate is unknown or it was certainly not sent, is the text's last line.
    const text = errorText(e.code, e.message, [...e.details, ...(e.requestState ? [`request_state: ${e.requestState}`] : [])]);
    return { isError: true, content: [{ type: 'text', text }] };
  }
}

const INSTRUCTIONS =
  'sq acts on the user\'s lobstr.io account: it reads it, and with --allow-writes changes it and SPENDS CREDITS. ' +
  'The model: a crawler (what to scrape; find it with crawlers_search, read it with crawlers_get) → a squid (a crawler ' +
  'plus squid-level params; squids_create) → tasks (one per task-level input value, usually a URL; tasks_add) → a run ' +
  '(runs_start, which spends credits). Inputs have a level: task inputs go in tasks, squid inputs in params, and ' +
  'function inputs are paid add-ons billed per row, some ON BY DEFAULT: turn them off in params ' +
  '("functions.NAME": false) unless the user wants them. Before a run call squids_estimate; go and runs_start answer ' +
  'needs_confirmation above the server\'s credit threshold: ask the user, then call again with confirm: true. ' +
  'go does crawler + inputs → squid, tasks, run in one call; give it an idempotency_key so a retry never starts a ' +
  'second run. Waits last at most 50 s: on still_running: true call runs_wait again. Lists return 20 rows: pass ' +
  'next_cursor back as cursor; fields keeps only the columns you need. results_url gives the user\'s download link. ' +
  'Squids take an id, a unique id prefix or an exact name; runs and tasks an id or a unique id prefix. No tool reads ' +
  'local files unless the server runs with --root; plan and apply take the document inline.';

/** One MCP server (stdio has one; --http one per session), its tools and resources registered. */
function buildServer(s: Shared) {
  const { ctx, sdk, defs, refused, opts } = s;
  const { McpServer, ResourceTemplate, z } = sdk;
  const server = new McpServer({ name: 'sq', title: 'sq: the lobstr account', version: VERSION }, { instructions: INSTRUCTIONS });
  for (const tool of defs) {
    if (refused.has(tool.name)) continue;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description + (tool.access === 'read' ? '' : ' dry_run: true returns the planned request and sends nothing.'),
        inputSchema: tool.input(z),
        // A write's answer may be its dry run ({dry_run, requests}): its keys are then all optional.
        outputSchema: z.looseObject(tool.access === 'read' ? tool.output(z) : Object.fromEntries(Object.entries(tool.output(z)).map(([k, v]) => [k, v.optional()]))),
        // Every tool calls the hosted API (openWorldHint): an answer is data from outside, not the server's own.
        annotations:
          tool.access === 'read'
            ? { title: tool.title, readOnlyHint: true, openWorldHint: true }
            : { title: tool.title, readOnlyHint: false, destructiveHint: !!tool.destructive, idempotentHint: !!tool.idempotent, openWorldHint: true },
      },
      (args: ToolArgs, extra: { signal: AbortSignal }) => callTool(s, tool, args, AbortSignal.any([ctx.signal, extra.signal, s.stopCalls.signal])),
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
    const r = await runVerb(ctx, argv, undefined, signal, [], { ...ctx.env, SQ_MCP_ROOT: opts.root ?? '' });
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
  return server;
}

/** Serves until the client closes stdin (stdio), or until a stop signal (either). */
export async function serveMcp(ctx: Ctx, opts: ServeOptions): Promise<void> {
  const sdk = await importPackage<Sdk>('#mcp-sdk');
  const defs = toolDefs();
  const refused = new Map<string, Access>();
  for (const tool of defs) if (!allowed(opts.allow, tool.name, tool.access)) refused.set(tool.name, tool.access);
  const shared: Shared = { ctx, opts, sdk, defs, refused, keys: new Map(), stopCalls: new AbortController() };
  const served = `${defs.length - refused.size} tools (${refused.size ? `${refused.size} write tools off` : 'writes allowed'})`;

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

  if (opts.http) return serveHttp(shared, protocolOut, served);

  const server = buildServer(shared);
  const transport = new LineTransport(opts.stdin as Readable, protocolOut, opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, sdk, (m) => ctx.io.stderr.write(`sq mcp: ${m}\n`));
  const closed = new Promise<void>((resolve) => {
    transport.ended = resolve;
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  if (!ctx.globals.quiet) ctx.io.stderr.write(`sq mcp ${VERSION}: serving ${served} on stdio\n`);
  await closed;
  await drain(shared);
  await server.close();
  // A stop signal: its exit code (143, 130, 129), once the calls in flight were cancelled and answered.
  if (ctx.signal.aborted) throw ctx.signal.reason;
}

/**
 * The calls in flight when stdin ends get a moment to answer (`echo … | sq mcp` answers what it read), then are
 * cancelled; on a stop signal they are cancelled at once (their signal is the command's). Either way the server is gone
 * within a second, whatever the API does.
 */
async function drain(s: Shared): Promise<void> {
  const tick = () => new Promise((r) => setImmediate(r));
  const settled = (ms: number) =>
    Promise.race([
      (async () => {
        await tick();
        while (running.size) {
          await Promise.allSettled([...running]);
          await tick();
          await tick();
        }
      })(),
      new Promise((r) => setTimeout(r, ms).unref()),
    ]);
  if (!s.ctx.signal.aborted) await settled(STDIN_GRACE_MS);
  // The calls' answers say why they stopped (exit code 130 as for any cancelled command, INTERRUPTED).
  const why = new InterruptedError();
  why.message = 'cancelled: the client closed stdin';
  s.stopCalls.abort(why);
  await settled(300);
  // Let the answers of the cancelled calls reach the transport.
  await tick();
}

/**
 * stdio, line by line, as MCP's stdio transport asks (one JSON-RPC message per line), read here rather than by the
 * SDK's transport: a line over --max-message-bytes is answered -32600 and skipped as it streams in, never held whole;
 * a line is kept as its chunks and joined once at its newline (the SDK's buffer grows by concatenation, quadratic on a
 * long line); a line that is not JSON-RPC 2.0 is answered with its id when it has one.
 */
class LineTransport {
  onmessage?: (message: unknown) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  ended: () => void = () => {};
  private parts: Buffer[] = [];
  private size = 0;
  /** The start of an over-long line (for its id), while the rest of it is skipped. */
  private skipping: Buffer | null = null;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly max: number,
    private readonly sdk: Sdk,
    private readonly log: (message: string) => void,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', (chunk: Buffer | string) => this.data(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    const end = () => {
      if (this.parts.length && !this.skipping) this.line();
      this.ended();
    };
    this.input.once('end', end);
    this.input.once('close', end);
    this.input.once('error', end);
  }

  private data(chunk: Buffer) {
    let at = 0;
    while (at <= chunk.length) {
      const nl = chunk.indexOf(10, at);
      this.take(chunk.subarray(at, nl < 0 ? chunk.length : nl));
      if (nl < 0) return;
      this.line();
      at = nl + 1;
    }
  }

  private take(part: Buffer) {
    if (!part.length) return;
    if (this.skipping) return;
    this.size += part.length;
    if (this.size > this.max) {
      // Over the cap: keep its first KiB (where "id" usually stands) and drop the rest as it comes.
      const head = Buffer.concat([...this.parts, part.subarray(0, 1024)]).subarray(0, 1024);
      this.parts = [];
      this.skipping = head;
      // Answered now, not at the line's end (which may never come): the client stops waiting for this id.
      const id = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,15})\s*[,}]/.exec(head.toString('utf8'))?.[1];
      this.reply(id === undefined ? null : (JSON.parse(id) as string | number), -32600, `Invalid Request: the message is over ${this.max} bytes (sq mcp --max-message-bytes)`);
      this.log(`a message over ${this.max} bytes was skipped`);
      return;
    }
    this.parts.push(part);
  }

  private line() {
    const skipped = this.skipping;
    const text = skipped ? '' : Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    this.skipping = null;
    if (skipped) return;
    if (!text.trim()) return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      this.reply(null, -32700, `Parse error: ${(e as Error).message.split('\n')[0].slice(0, 200)}`);
      this.log('a line that is not JSON');
      return;
    }
    const id = invalidRequestId(msg);
    const parsed = id === undefined ? this.sdk.JSONRPCMessageSchema.safeParse(msg) : null;
    if (!parsed?.success) {
      this.reply(id ?? null, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
      this.log('a message that is not JSON-RPC 2.0');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(id: string | number | null, code: number, message: string) {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } });
  }

  send(message: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (!this.output.write(`${JSON.stringify(message)}\n`)) this.output.once('drain', () => resolve());
      else resolve();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.pause();
    this.onclose?.();
  }
}

/** The id of a message that is a JSON object with a usable id but is not a JSON-RPC 2.0 message; else undefined. */
export function invalidRequestId(msg: unknown): string | number | undefined {
  if (typeof msg === 'string') {
    try {
      return invalidRequestId(JSON.parse(msg));
    } catch {
      return undefined;
    }
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return undefined;
  const m = msg as Record<string, unknown>;
  if (typeof m.id !== 'string' && !(typeof m.id === 'number' && Number.isInteger(m.id))) return undefined;
  const valid = m.jsonrpc === '2.0' && (typeof m.method === 'string' || 'result' in m || 'error' in m);
  return valid ? undefined : m.id;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i;

/**
 * --http HOST:PORT: MCP's Streamable HTTP transport (the SDK's), one session per client. Every request needs the
 * Bearer token (401 without it); a browser page of another origin is refused (403: DNS rebinding); a body over
 * --max-message-bytes is 413. The first line on stdout is {"url", "token"} (token null when --token-env gave it).
 */
async function serveHttp(s: Shared, out: Writable, served: string): Promise<void> {
  const { ctx, opts } = s;
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const want = Buffer.from(`Bearer ${token}`);
  const max = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const host = opts.http!.host;
  // The HTTP transport is a module of its own (sdk-http.ts): a stdio server never loads it.
  const { StreamableHTTPServerTransport } = await importPackage<SdkHttp>('#mcp-sdk-http');
  const sessions = new Map<string, InstanceType<SdkHttp['StreamableHTTPServerTransport']>>();
  const servers = new Set<{ close(): Promise<void> }>();
  let origins: string[] = [];
  const fail = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const auth = Buffer.from(String(req.headers.authorization ?? ''));
    if (auth.length !== want.length || !timingSafeEqual(auth, want)) return fail(res, 401, 'Unauthorized: send Authorization: Bearer <the token sq mcp --http printed>', { 'www-authenticate': 'Bearer' });
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.includes(origin)) return fail(res, 403, `Forbidden: Origin ${origin} is not this server's`);
    // The SDK reads a body whole: its size is known first (a POST without Content-Length, chunked, is 411).
    if (req.method === 'POST' && req.headers['content-length'] === undefined) return fail(res, 411, 'Length Required: send the message with a Content-Length');
    if (Number(req.headers['content-length'] ?? 0) > max) return fail(res, 413, `the message is over ${max} bytes (sq mcp --max-message-bytes)`);
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (!transport) {
      if (sid !== undefined) return fail(res, 404, 'Session not found: initialize a new one');
      if (req.method !== 'POST') return fail(res, 400, 'Bad Request: no session; POST an initialize request first');
      const t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id: string) => void sessions.set(id, t) });
      t.onclose = () => {
        if (t.sessionId) sessions.delete(t.sessionId);
      };
      const server = buildServer(s);
      servers.add(server);
      await server.connect(t);
      transport = t;
    }
    await transport.handleRequest(req, res);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      ctx.io.stderr.write(`sq mcp: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
      if (!res.headersSent) fail(res, 500, 'Internal error');
      else res.end();
    });
  });
  await new Promise<void>((done, reject) => {
    http.once('error', (e: NodeJS.ErrnoException) => reject(new UsageError(`--http: cannot listen on ${host}:${opts.http!.port} (${e.code ?? e.message})`)));
    http.listen(opts.http!.port, host, () => done());
  });
  const port = (http.address() as { port: number }).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  origins = [`http://${shown}:${port}`, ...(LOOPBACK.test(host) ? [`http://localhost:${port}`, `http://127.0.0.1:${port}`] : [])];
  const url = `http://${shown}:${port}/mcp`;
  // A token sq made is printed for the client; one the caller gave (--token-env) is theirs already, and this line goes
  // to CI and agent logs: it is not repeated.
  out.write(`${JSON.stringify({ url, token: opts.token === undefined ? token : null })}\n`);
  if (!LOOPBACK.test(host)) ctx.io.stderr.write(`warning: sq mcp listens on ${host}, not loopback: anyone who reaches it with the token acts on the account${s.opts.allow && 'level' in s.opts.allow && s.opts.allow.level === 'read' ? '' : ' and may spend its credits'}\n`);
  if (!ctx.globals.quiet) ctx.io.stderr.write(`sq mcp ${VERSION}: serving ${served} on ${url}\n`);
  await new Promise<void>((done) => ctx.signal.addEventListener('abort', () => done(), { once: true }));
  s.stopCalls.abort();
  await drain(s);
  await Promise.allSettled([...servers].map((x) => x.close()));
  http.closeAllConnections();
  await new Promise((done) => http.close(() => done(null)));
  throw ctx.signal.reason;
}
