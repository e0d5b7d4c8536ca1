// run(argv) -> exit code. The only place where errors become exit codes and get printed.
// main() never calls process.exit, so the whole CLI runs in-process in tests.
import type { ContextInit } from './factory.js';
import {
  DryRunStop,
  ExitCode,
  SqError,
  UsageError,
  InterruptedError,
  STOP_SIGNALS,
  type StopSignal,
} from '../errors.js';
import { redactText } from '../lib/secrets.js';
import { terminalSafe } from '../output/cells.js';
import { specOf } from '../output/formats.js';
import { scanArgv } from '../startup/argv.js';
import { noticeWanted } from '../update/wanted.js';
import { mark } from '../startup/trace.js';
import { readGlobals } from '../cli/global-flags.js';

export async function run(argv: string[], init: ContextInit = {}): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    // Fast path: `sq --version` loads nothing else.
    const { VERSION } = await import('../version.js');
    (init.io?.stdout ?? process.stdout).write(`${VERSION}\n`);
    return ExitCode.OK;
  }

  const controller = new AbortController();
  const ownSignal = !init.signal;
  // Every stop signal runs the same cleanup as Ctrl-C (temp files removed); a second one kills at once.
  const onSignal = (signal: StopSignal) => controller.abort(new InterruptedError(signal));
  const signals = Object.keys(STOP_SIGNALS).filter(
    (s) => process.platform !== 'win32' || s !== 'SIGQUIT',
  ) as StopSignal[];
  if (ownSignal) for (const s of signals) process.once(s, onSignal);
  const { createContext } = await import('./factory.js');
  const ctx = createContext({ ...init, signal: init.signal ?? controller.signal });
  mark('context');
  ctx.runCommand = run;
  let update: Promise<import('../update/notice.js').PendingNotice | null> | null = null;
  try {
    if (argv[0] === '__update-check') {
      // Hidden: the update notice's check, in a process of its own (src/update/notice.ts). Silent, always exit 0.
      const [{ checkAndStore }, { cacheDir }] = await Promise.all([
        import('../update/notice.js'),
        import('../lib/cache-dir.js'),
      ]);
      const dir = cacheDir(ctx.env);
      if (dir !== undefined) await checkAndStore(ctx.env, dir, ctx.now(), true).catch(() => undefined);
      return ExitCode.OK;
    }
    if (argv[0] === '__complete') {
      // Hidden: what the completion scripts ask on a Tab. Fast (no command tree) and silent whatever happens.
      const { complete } = await import('../completion/values.js');
      return await complete(ctx, argv.slice(1), () => controller.abort());
    }
    const { plainLine } = await import('./dispatch.js');
    // Globals are needed to print an error even when parsing fails before the action.
    ctx.globals = readGlobals(peekGlobals(argv));
    // A plain line (`sq me --json`) runs straight from the specs; any other is commander's to parse (dispatch.ts).
    const plain = await plainLine(argv);
    const parse = plain ? () => plain.run(ctx) : await commanderParse(ctx, argv);
    // The update notice (at most once a day, on a terminal, never in CI): the check runs while the command does.
    if (noticeWanted(ctx.io, ctx.env) && !QUIET_NOUNS.has(scanArgv(argv).noun ?? '')) {
      update = import('../update/notice.js').then((m) => m.startUpdateCheck(ctx)).catch(() => null);
    }
    mark('command tree');
    await parse();
    mark('command run');
    // The command's last writes may still fail (a full disk): that is the command failing, not exit 0.
    await ctx.flush();
    return ctx.exitCode;
  } catch (err) {
    if (!(err instanceof DryRunStop)) return report(ctx, err);
    try {
      const { printPlanned } = await import('../cli/dry-run.js');
      await printPlanned(ctx, err.planned);
      await ctx.flush();
      return ctx.exitCode;
    } catch (failed) {
      return report(ctx, failed);
    }
  } finally {
    // After the command's output and its error, if any; never for an interrupted one, never failing it.
    try {
      if (update && !ctx.signal.aborted) (await update)?.finish();
    } catch {
      // a notice never fails a command
    }
    await ctx.cleanup();
    if (ownSignal) for (const s of signals) process.removeListener(s, onSignal);
  }
}

/** commander's tree for the line, and its parse of it, which runs the action. */
async function commanderParse(ctx: import('../cli/context.js').Ctx, argv: string[]): Promise<() => Promise<void>> {
  const program = await (await import('./program.js')).buildProgram(ctx, argv);
  return async () => void (await program.parseAsync(argv, { from: 'user' }));
}

/** Commands whose output is for another program or that run as servers: no notice after them. */
const QUIET_NOUNS = new Set(['completion', 'mcp', 'emulator', 'webhook']);

/** A rough read of the output-related globals for errors raised before commander's preAction runs. */
function peekGlobals(argv: string[]): Record<string, unknown> {
  const { options: o } = scanArgv(argv);
  const value = (name: string) => (typeof o.get(name) === 'string' ? o.get(name) : undefined);
  return {
    json: o.has('--json') || undefined,
    jq: value('--jq'),
    template: value('--template'),
    verbose: o.has('--verbose') || o.has('-v') || undefined,
    quiet: o.has('--quiet') || o.has('-q') || undefined,
    color: o.has('--no-color') ? false : undefined,
    format: value('--format'),
  };
}

interface CommanderLikeError {
  code?: string;
  exitCode?: number;
  message: string;
}

function report(ctx: import('../cli/context.js').Ctx, err: unknown): number {
  const ce = err as CommanderLikeError;
  if (ce && typeof ce.code === 'string' && ce.code.startsWith('commander.')) {
    if (ce.code === 'commander.helpDisplayed' || ce.code === 'commander.version' || ce.code === 'commander.help')
      return ExitCode.OK;
    // Commander's own messages already name the option and the allowed choices. An unknown `--name=value` is quoted
    // whole, and the value may be a key typed where it does not belong (`--token=…`): name the flag only.
    const msg = ce.message.replace(/^error:\s*/, '').replace(/'(--?[\w-]+)=[^']*'/g, "'$1=…'");
    return print(ctx, new UsageError(msg), ExitCode.USAGE);
  }
  if (isPromptExit(err) || (ctx.signal.aborted && !(err instanceof SqError && !(err instanceof InterruptedError)))) {
    // The command's own InterruptedError first: it may carry a report of what was done (apply).
    const stop =
      err instanceof InterruptedError
        ? err
        : ctx.signal.reason instanceof InterruptedError
          ? ctx.signal.reason
          : new InterruptedError();
    return print(ctx, stop, stop.exitCode);
  }
  if (err instanceof SqError) return print(ctx, err, err.exitCode);
  const e = err instanceof Error ? err : new Error(String(err));
  return print(ctx, e, ExitCode.FAILURE);
}

function isPromptExit(err: unknown): boolean {
  return err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError');
}

function print(ctx: import('../cli/context.js').Ctx, err: Error, code: number): number {
  const sq = err instanceof SqError ? err : null;
  ctx.addSecret(ctx.env.SQ_TOKEN);
  // Messages quote API data (a squid's name in "did you mean"): no secret and no control character reaches stderr.
  const clean = (s: string) => terminalSafe(redactText(s, ctx.secrets()));
  const message = clean(err.message || 'unexpected error');
  const stderr = ctx.io.stderr;
  // JSON for a program: with --json (or a JSON --format), or --jq/--template off a terminal. A person at a terminal
  // reads a line of text, whatever filter the command had (cli-contract.md: "With --json, an error is also JSON").
  const filter = ctx.globals.jq !== undefined || ctx.globals.template !== undefined;
  if (ctx.globals.json || specOf(ctx.globals.format)?.json || (filter && !ctx.io.stderrIsTTY)) {
    const details = (sq?.details ?? []).map(clean);
    const body = {
      error: {
        code,
        status: sq?.status ?? null,
        message,
        retry_after: sq?.retryAfter ?? null,
        ...(details.length ? { details } : {}),
      },
    };
    stderr.write(`${JSON.stringify(body)}\n`);
  } else {
    // A filter's error quotes the filter on a line of its own: on a terminal, one line says it all.
    const filterError = /^--(jq|template)\b/.test(message);
    const text = filterError ? message.replace(/:?\n+/g, ': ') : message;
    stderr.write(`${err instanceof InterruptedError ? '' : 'error: '}${text}\n`);
    for (const d of sq?.details ?? []) stderr.write(`${clean(d)}\n`);
    // (--help says nothing about a jq program's mistake.)
    if (code === ExitCode.USAGE && !ctx.globals.quiet && !filterError) stderr.write('Run with --help for usage.\n');
  }
  if (ctx.globals.verbose && !sq && err.stack) stderr.write(`${clean(err.stack)}\n`);
  return code;
}
