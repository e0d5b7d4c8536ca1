// Builds the real Ctx (or a test one, from overrides). Every dependency is created on first use.
import { fstatSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { envFlag } from '../lib/env.js';
import { isTerminal } from '../lib/terminal.js';
import { DEFAULT_GLOBALS, type Ctx, type Globals, type IO } from '../cli/context.js';
import type { Output, OutputSettings } from '../output/types.js';
import { createOutput, resolveOutputSettings } from '../output/index.js';
import type { HttpClient, RetryBudget } from '../api/http.js';
import type { HttpOptions } from '../api/http-options.js';
import type { ProfileStore } from '../config/store.js';
import type { resolveAuth } from '../config/resolve.js';
import type { Prompter } from '../cli/context.js';
import { AuthError, UsageError } from '../errors.js';
import { MAX_HTTP_TIMEOUT_MS, parseDuration } from '../validate/duration.js';
import { redactText } from '../lib/secrets.js';
import { BadStoredSettingError, resolveSetting } from '../config/settings.js';
import { cacheDir } from '../lib/cache-dir.js';
import { sleep as abortableSleep } from '../lib/sleep.js';
import { Sink, fdWriter } from '../output/sink.js';
import { mark } from '../startup/trace.js';

export interface ContextInit {
  io?: Partial<IO>;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Ctx.onPage: each list page's envelope, for an in-process caller (sq mcp). */
  onPage?: Ctx['onPage'];
  /**
   * The caller ends the process as soon as run() returns (bin/sq.js): the API's connections are left for the exit
   * to close rather than closed one by one (Node makes stderr to close a socket).
   */
  exits?: boolean;
}

function processIO(): IO {
  const file = fileStdout();
  return {
    stdout: file ?? process.stdout,
    // Made on first use (process.stderr builds the stream then): most calls write nothing there.
    get stderr() {
      return process.stderr;
    },
    // process.stdin is built on first access, and building it loads Node's fs streams and readline:
    // only the commands that read stdin pay for it. isTerminal(0) answers "is stdin a terminal" without it, and only
    // when asked (a prompt): most calls never are.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY: !file && !!process.stdout.isTTY,
    stderrIsTTY: isTerminal(2),
    get stdinIsTTY() {
      return isTerminal(0);
    },
    columns: (!file && process.stdout.columns) || 100,
  };
}

/**
 * When fd 1 is a file or a device (not a terminal, pipe or socket), a stdout that writes every chunk whole and reports
 * any error (fdWriter): Node's own ignores short writes, and a full disk ended in a truncated file and exit 0.
 */
function fileStdout(): (Writable & { fd: number }) | null {
  let st;
  try {
    st = fstatSync(1);
  } catch {
    return null;
  }
  return st.isFIFO() || st.isSocket() || (st.isCharacterDevice() && isTerminal(1)) ? null : fdWriter(1, 'stdout');
}

export function createContext(init: ContextInit = {}): Ctx & { cleanup(): Promise<void>; flush(): Promise<void> } {
  const io = contextIO(init);
  // Watched from the start: an error on stdout is kept for flush() even when no Output was built to see it.
  const stdout = new Sink(io.stdout);
  const env = init.env ?? process.env;
  const now = init.now ?? Date.now;
  const signal = init.signal ?? new AbortController().signal;
  const sleep = init.sleep ?? ((ms: number) => abortableSleep(ms, signal));

  const cleanups: (() => void | Promise<void>)[] = [];
  const secretValues: string[] = [];
  let out: Output | undefined;
  let settings: OutputSettings | undefined;
  let store: Promise<ProfileStore> | undefined;
  const clients: Clients = { byKey: new Map(), made: [], leaveConnections: init.exits === true };
  let prompter: Promise<Prompter> | undefined;
  const csvSafeSetting = csvSafeOfProfile(env, clients, (message) => out?.warn(message));

  const ctx: Ctx & { cleanup(): Promise<void>; flush(): Promise<void> } = {
    io,
    env,
    globals: { ...DEFAULT_GLOBALS } as Globals,
    exitCode: 0,
    signal,
    now,
    sleep,
    onPage: init.onPage,
    outputSettings() {
      if (!settings) {
        settings = settingsOf(ctx.globals, env, io);
        // Neither --csv-safe nor SQ_CSV_SAFE: the profile's csv-safe setting (sq config set csv-safe on), read once
        // the command has read its profile, which every command that prints API records does before it prints.
        if (!settings.csvSafe)
          Object.defineProperty(settings, 'csvSafe', { get: csvSafeSetting, enumerable: true, configurable: true });
      }
      return settings;
    },
    get out(): Output {
      out ??= outputOf(ctx, clients.made);
      return out;
    },
    async config(opts = {}) {
      store ??= openStore(env, (message) => ctx.out.warn(message));
      const s = await store;
      if (s.corrupt && !opts.allowCorrupt) throw s.corruptError();
      return s;
    },
    http(opts: { auth?: boolean; token?: string } = {}) {
      return clientFor(ctx, clients, opts);
    },
    prompter() {
      prompter ??= import('../cli/prompt.js').then((m) => m.createPrompter(io, () => ctx.canPrompt()));
      return prompter;
    },
    addSecret(value) {
      // Any length: a short value is masked where it stands whole (a field's value, a quoted "ab"; see redactText).
      if (value && !secretValues.includes(value)) secretValues.push(value);
    },
    secrets() {
      return secretValues;
    },
    canPrompt() {
      if (!ctx.globals.input) return false;
      if (envFlag(env.SQ_NO_INPUT) || envFlag(env.CI)) return false;
      return io.stdinIsTTY && io.stderrIsTTY;
    },
    onCleanup(fn) {
      cleanups.push(fn);
    },
    flush() {
      return stdout.flush();
    },
    cleanup() {
      return runCleanups(cleanups);
    },
  };
  return ctx;
}

/** The API clients of one command, and what they share. */
interface Clients {
  /** One client (and so one set of pacing buckets) per key in use: the resolved one, or one being tried by login. */
  byKey: Map<string, Promise<{ client: HttpClient; profile: string }>>;
  /** Every client made, for the output to ask whether a write went out (an unknown --fields name is then not exit 2). */
  made: HttpClient[];
  /** The retries every client of this command may spend between them, so a batch cannot storm a failing server. */
  retryBudget?: RetryBudget;
  /** The profile a client was made for, and its store: the csv-safe setting is read from it when a CSV cell is written. */
  usedProfile?: { store: ProfileStore; profile: string };
  /** ContextInit.exits: the clients' connections are left for the process's exit to close. */
  leaveConnections: boolean;
}

/** The client of the resolved key, or of `opts.token` (auth login): made once; without a key, an AuthError. */
async function clientFor(ctx: Ctx, clients: Clients, opts: { auth?: boolean; token?: string }): Promise<HttpClient> {
  const key = opts.token !== undefined ? 'login' : 'resolved';
  let c = clients.byKey.get(key);
  if (!c) {
    c = newClient(ctx, opts.token, clients);
    c.catch(() => clients.byKey.delete(key));
    clients.byKey.set(key, c);
  }
  const { client, profile } = await c;
  if (opts.auth !== false && !client.hasToken) {
    throw new AuthError(`no API key for profile "${profile}": run \`sq auth login\`, or set SQ_TOKEN`);
  }
  return client;
}

/** The command's output, masking every secret known by then or later. */
function outputOf(ctx: Ctx, made: readonly HttpClient[]): Output {
  // Relative times count from the API's clock (our clock plus the skew its Date header shows), not ours.
  const serverNow = () => ctx.now() + (made.find((c) => c.clockSkewMs !== 0)?.clockSkewMs ?? 0);
  return createOutput(ctx.io, ctx.outputSettings(), {
    secrets: ctx.secrets(),
    now: serverNow,
    writeSent: () => made.some((c) => c.sentWrite),
    signal: ctx.signal,
  });
}

/** A client for the resolved key, or for `token` (a key being tried by login); its key is a secret from then on. */
async function newClient(
  ctx: Ctx,
  token: string | undefined,
  clients: Clients,
): Promise<{ client: HttpClient; profile: string }> {
  const [{ HttpClient, RetryBudget }, { resolveAuth, checkApiKey }] = await Promise.all([
    import('../api/http.js'),
    import('../config/resolve.js'),
  ]);
  clients.retryBudget ??= new RetryBudget(10);
  // A key being tried (auth login) does not depend on the stored profiles, which login may be replacing.
  const auth = resolveAuth(ctx.globals, ctx.env, await ctx.config({ allowCorrupt: token !== undefined }));
  if (token !== undefined) auth.token = token;
  ctx.addSecret(auth.token);
  if (token === undefined && auth.token)
    checkApiKey(auth.tokenSource === 'env' ? 'SQ_TOKEN' : `the key of profile "${auth.profile}"`, auth.token);
  const client = new HttpClient({
    ...clientOptions(ctx, auth, ctx.secrets(), clients.retryBudget),
    leaveConnections: clients.leaveConnections,
  });
  ctx.onCleanup(() => client.close());
  clients.made.push(client);
  clients.usedProfile = { store: await ctx.config({ allowCorrupt: true }), profile: auth.profile };
  return { client, profile: auth.profile };
}

/** The profile's csv-safe setting, read once a client has read its profile (off until then). */
function csvSafeOfProfile(
  env: Record<string, string | undefined>,
  clients: Clients,
  warn: (message: string) => void,
): () => boolean {
  let csvSafeStored: boolean | undefined;
  return () => {
    if (csvSafeStored !== undefined) return csvSafeStored;
    const { usedProfile } = clients;
    if (!usedProfile) return false;
    try {
      csvSafeStored =
        resolveSetting('csv-safe', usedProfile.store.setting(usedProfile.profile, 'csv-safe'), env, {
          profile: usedProfile.profile,
          file: usedProfile.store.file,
        }).value === 'on';
    } catch (err) {
      // Read while cells are written: not a stop half-way through the output, but the safe side, and said.
      csvSafeStored = err instanceof BadStoredSettingError;
      if (err instanceof BadStoredSettingError) warn(`${err.message}; CSV cells are made safe meanwhile`);
    }
    return csvSafeStored;
  };
}

/** The profile store, loaded on first use; one other users can read is warned about, as it holds API keys. */
function openStore(env: Record<string, string | undefined>, warn: (message: string) => void): Promise<ProfileStore> {
  return import('../config/store.js').then((m) => {
    const s = new m.ProfileStore(env);
    if (s.exposedMode !== null) {
      const mode = s.exposedMode.toString(8).padStart(4, '0');
      warn(`${s.file} can be read by other users (mode ${mode}) and holds API keys: run \`chmod 600 "${s.file}"\``);
    }
    mark('config read');
    return s;
  });
}

/** The cleanups, last registered first; one that fails never masks the command's own outcome. */
async function runCleanups(cleanups: (() => void | Promise<void>)[]): Promise<void> {
  for (const fn of cleanups.splice(0).reverse()) {
    try {
      await fn();
    } catch {
      // cleanup must never mask the command's own outcome
    }
  }
}

/** The streams: the process's own (stdout a checked file writer when it is a file), or a test's, part by part. */
function contextIO(init: ContextInit): IO {
  const base = init.io?.stdout ? undefined : processIO();
  const stdin = init.io?.stdin;
  return {
    stdout: init.io?.stdout ?? base!.stdout,
    get stderr() {
      return init.io?.stderr ?? base!.stderr;
    },
    get stdin() {
      return stdin ?? process.stdin;
    },
    stdoutIsTTY: init.io?.stdoutIsTTY ?? base?.stdoutIsTTY ?? false,
    stderrIsTTY: init.io?.stderrIsTTY ?? base?.stderrIsTTY ?? false,
    get stdinIsTTY() {
      return init.io?.stdinIsTTY ?? base?.stdinIsTTY ?? false;
    },
    columns: init.io?.columns ?? base?.columns ?? 100,
  };
}

/** The output settings the global flags, the environment and the streams make. */
function settingsOf(g: Globals, env: Record<string, string | undefined>, io: IO): OutputSettings {
  // Every global flag the settings read is a Globals field of the same name; the others are not read.
  const { stdoutIsTTY, stderrIsTTY, columns } = io;
  return resolveOutputSettings({ ...g, env, stdoutIsTTY, stderrIsTTY, columns });
}

/** What the API client of a command is made with: its key and base URL, trace, notices, timeouts, pacing, retries. */
function clientOptions(
  ctx: Ctx,
  auth: ReturnType<typeof resolveAuth>,
  secretValues: readonly string[],
  retryBudget: RetryBudget,
): HttpOptions {
  const { env, io, signal, now, sleep } = ctx;
  return {
    baseUrl: auth.baseUrl,
    token: auth.token,
    // Like every stderr message, trace lines pass the known-secrets scrub too.
    trace: ctx.globals.verbose ? (line) => void io.stderr.write(`${redactText(line, secretValues)}\n`) : undefined,
    // A long wait for the rate budget says why (not under --quiet).
    notice: (line) => ctx.out.info(line),
    warn: (line) => ctx.out.warn(line),
    connectTimeoutMs: timeoutEnv(env, 'SQ_CONNECT_TIMEOUT'),
    headersTimeoutMs: timeoutEnv(env, 'SQ_HEADERS_TIMEOUT'),
    bodyTimeoutMs: timeoutEnv(env, 'SQ_BODY_TIMEOUT'),
    pacingDir: cacheDir(env),
    retryBudget,
    baseUrlFrom: {
      flag: '--base-url',
      env: 'SQ_BASE_URL',
      profile: `the profile "${auth.profile}"`,
      default: 'the default (no --base-url, SQ_BASE_URL or profile)',
    }[auth.baseUrlSource],
    dryRun: ctx.globals.dryRun,
    signal,
    now,
    sleep,
  };
}

function timeoutEnv(env: Record<string, string | undefined>, name: string): number | undefined {
  const v = env[name];
  if (!v) return undefined;
  const ms = parseDuration(v);
  // 0 would reach undici as "no timeout at all".
  if (ms === null || ms <= 0 || ms > MAX_HTTP_TIMEOUT_MS)
    throw new UsageError(`${name} must be a duration like 30s, 2m or 1500ms, at most 1h (got "${v}")`);
  return ms;
}
