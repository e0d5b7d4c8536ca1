// A tool call of `sq mcp`: its verbs run in-process with --json (main.ts's run() with captured streams), their
// answer or error made the tool's; path arguments kept inside --root; the calls in flight drained when the server stops.
import { constants } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { downloadUrl } from '../api/runs.js';
import type { Ctx } from '../cli/context.js';
import type { Page } from '../api/records.js';
import { keyFile } from './keys.js';
import { MCP_SECRET_ENV } from '../account/delivery-file.js';
import { exitCodeName, InterruptedError } from '../errors.js';
import type { Allow } from './access.js';
import { ToolError, type Access, type ToolArgs, type ToolDef, type ToolEnv } from './tools/kit.js';
import type { Rec } from '../lib/guards.js';

export type Sdk = typeof import('./sdk.js');

/** The largest file a tool reads under --root. */
export const ROOT_FILE_MAX_BYTES = 1024 * 1024;
/** The default cap of one JSON-RPC message (--max-message-bytes). */
export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;
/**
 * When stdin ends, calls in flight get this long to answer before they are cancelled. `echo … | sq mcp` must answer
 * what it read: half a second was too short for a call on a loaded machine (the e2e test of it failed once in four
 * runs beside another suite) or one that waits on the API's pacing. A host that wants the server gone sooner sends
 * SIGTERM after closing stdin, as MCP's shutdown sequence has it, which cancels the calls at once.
 */
const STDIN_GRACE_MS = 10_000;

interface VerbOutcome {
  code: number;
  stdout: string;
  /** The last list page's envelope the verb read (what the API says about more pages), if it read one. */
  page: Page<unknown> | null;
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
export async function runVerb(
  ctx: Ctx,
  argv: string[],
  stdin: string | undefined,
  signal: AbortSignal,
  flags: string[] = [],
  env: Record<string, string | undefined> = ctx.env,
): Promise<VerbOutcome> {
  const run = ctx.runCommand;
  if (!run) throw new Error('sq mcp runs its tools through main.ts, which sets ctx.runCommand');
  const g = ctx.globals;
  const at = argv.indexOf('--');
  const [head, tail] = at < 0 ? [argv, []] : [argv.slice(0, at), argv.slice(at)];
  // Options go before the '--' that starts the positional arguments (a squid named "--all" stays a name).
  const globals = [
    ...flags,
    '--json',
    '--no-input',
    '--no-color',
    ...(g.profile ? [`--profile=${g.profile}`] : []),
    ...(g.baseUrl ? [`--base-url=${g.baseUrl}`] : []),
    ...(g.insecureHttp ? ['--insecure-http'] : []),
  ];
  const out = new Capture();
  const err = new Capture();
  let page: Page<unknown> | null = null;
  const done = run([...head, ...globals, ...tail], {
    onPage: (p) => {
      page = p;
    },
    io: {
      stdout: out,
      stderr: err,
      stdin: Readable.from(stdin === undefined ? [] : [stdin]),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      columns: 100,
    },
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
  return { code, stdout: out.text, error, notes: notes.join('\n'), page: page as Page<unknown> | null };
}

/** What a verb run for sq mcp is told of the server: its --root ('' without) and its --secret-env allow-list. */
export function mcpVerbEnv(opts: Pick<ServeOptions, 'root' | 'secretEnv'>): Record<string, string> {
  return { SQ_MCP_ROOT: opts.root ?? '', [MCP_SECRET_ENV]: (opts.secretEnv ?? []).join(',') };
}

/** Whether a failed write reached the server: the CLI's own words for each case (src/api/http-errors.ts). */
function requestStateOf(message: string): 'not_sent' | 'unknown' | undefined {
  if (/may have reached the server/.test(message)) return 'unknown';
  if (/was not sent|connection refused|host not found|timed out connecting/.test(message)) return 'not_sent';
  return undefined;
}

type Content = { type: 'text'; text: string };
export interface ToolResult {
  [key: string]: unknown;
  content: Content[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function errorText(code: number, message: string, details: string[] = []): string {
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

/**
 * A file argument inside --root: no "..", no symbolic link out, a regular file of at most 1 MiB. Opened once, checked
 * on its descriptor and read from it (capped): what was checked is what is read, whatever is swapped in meanwhile.
 */
async function inRoot(
  root: string | undefined,
  arg: string,
  name: string,
  tool: string,
): Promise<{ text: string; path: string }> {
  const refuse = (why: string): never => {
    throw new ToolError(
      2,
      `${tool}: "${name}" ${why}; this server reads files only inside its --root directory` +
        (root ? ` (${root})` : ' (started without --root: pass the document inline)'),
    );
  };
  if (!root) refuse('is a path');
  const base = root as string;
  if (arg.split(/[\\/]/).includes('..')) refuse('leads out of the directory ("..")');
  // Loaded here, on a tool call that reads a file: node:fs/promises brings readline with it (Node 24), and a server's
  // start (initialize, tools/list) needs none of it.
  const { open, realpath } = process.getBuiltinModule('node:fs/promises');
  const [realBase, real] = await Promise.all([
    realpath(base),
    realpath(resolve(base, arg)).catch((e: NodeJS.ErrnoException) => refuse(`cannot be read (${e.code ?? 'error'})`)),
  ]);
  const rel = relative(realBase, real);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel))
    refuse('is outside the directory (a symbolic link, or an absolute path, leads out)');
  const fh = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)).catch(
    (e: NodeJS.ErrnoException) => refuse(`cannot be read (${e.code ?? 'error'})`),
  );
  try {
    const st = await fh.stat();
    if (!st.isFile()) refuse('is not a regular file');
    if (st.size > ROOT_FILE_MAX_BYTES) refuse(`is over the ${ROOT_FILE_MAX_BYTES}-byte (1 MiB) cap`);
    // Read to one byte past the cap: a file that grew since its stat is refused, never cut.
    const buf = Buffer.alloc(ROOT_FILE_MAX_BYTES + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got)
      got = (await fh.read(buf, n, buf.length - n, n)).bytesRead;
    if (n > ROOT_FILE_MAX_BYTES) refuse(`is over the ${ROOT_FILE_MAX_BYTES}-byte (1 MiB) cap`);
    return { text: buf.subarray(0, n).toString('utf8'), path: real };
  } finally {
    await fh.close();
  }
}

export interface Shared {
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
export async function callTool(s: Shared, tool: ToolDef, args: ToolArgs, signal: AbortSignal): Promise<ToolResult> {
  const { ctx, opts } = s;
  const allowAll = 'level' in opts.allow && opts.allow.level === 'all';
  const dryRun = tool.access !== 'read' && args.dry_run === true;
  const write = tool.access !== 'read';
  const env: ToolEnv = {
    secretEnv: new Set(opts.secretEnv ?? []),
    confirmAbove: opts.confirmAbove ?? 100,
    keys: s.keys,
    keyFile: keyFile(ctx),
    dryRun,
    async verb(argv, o = {}) {
      const flags: string[] = [];
      if (o.write) {
        if (dryRun) flags.push('--dry-run');
        // The write was allowed when the server started; apply's own --yes (deletions, more billing) only with =all.
        if (argv[0] !== 'apply' || allowAll) flags.push('--yes');
      }
      const r = await runVerb(ctx, argv, o.stdin, signal, flags, { ...ctx.env, ...o.env, ...mcpVerbEnv(opts) });
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
      return { code: r.code, data, page: r.page };
    },
    async downloadUrl(runId) {
      // The CSV export (the default) is never converted in the background; a conversion still going is "not ready".
      const url = await downloadUrl(await ctx.http(), runId);
      return typeof url === 'string' ? url : null;
    },
    rootFile: (arg, name) => inRoot(opts.root, arg, name, tool.name),
  };
  try {
    const answer = await tool.run(env, args);
    return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    // No structuredContent: a client checks it against the tool's outputSchema even on an error. request_state, when a
    // write's fate is unknown or it was certainly not sent, is the text's last line. The CLI's flags are named as the
    // tool's arguments the agent gave (--param → "params").
    const name = argNames(tool, s.sdk);
    const text = errorText(e.code, name(e.message), [
      ...e.details.map(name),
      ...(e.requestState ? [`request_state: ${e.requestState}`] : []),
    ]);
    return { isError: true, content: [{ type: 'text', text }] };
  }
}

/**
 * The calls in flight when stdin ends get up to STDIN_GRACE_MS to answer (`echo … | sq mcp` answers what it read), then
 * are cancelled; on a stop signal they are cancelled at once (their signal is the command's). Either way the server is
 * gone soon after, whatever the API does: within a second of a signal, within ~11 s of the end of stdin.
 */
export async function drain(s: Shared): Promise<void> {
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

/** The CLI's flags that are not their argument's name with - for _ (sq's --param is the tool's params). */
const FLAG_ARGS: Record<string, string> = { '--param': 'params', '--timeout': 'wait_seconds', '--file': 'tasks' };

/** A message with each CLI flag the tool has an argument for named as that argument: `--password-env` → "password_env". */
export function argNames(tool: ToolDef, sdk: Pick<Sdk, 'z'>): (text: string) => string {
  let args: Set<string> | undefined;
  const named = (text: string) =>
    text.replace(/(?<![\w-])--([a-z][a-z-]*)/g, (whole, flag: string) => {
      args ??= new Set(Object.keys(tool.input(sdk.z as never)));
      const arg = [FLAG_ARGS[`--${flag}`], flag.replace(/-/g, '_')].find((a) => a !== undefined && args!.has(a));
      return arg === undefined ? whole : `"${arg}"`;
    });
  // A command line quoted in `backticks` is a command to type: left whole.
  return (text) =>
    text
      .split(/(`[^`]*`)/)
      .map((part, i) => (i % 2 ? part : named(part)))
      .join('');
}
