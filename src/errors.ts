// Typed errors. Each carries its exit code (cli-contract.md); only main.ts turns them into output and codes.
export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  NOT_FOUND: 3,
  AUTH: 4,
  RATE_LIMITED: 5,
  RUN_FAILED: 6,
  TIMEOUT: 7,
  PARTIAL: 8,
  /** A run's estimate is above --max-credits / SQ_MAX_CREDITS / the profile's max-credits: nothing was started. */
  OVER_BUDGET: 9,
  /** `sq plan`: the account differs from the file (returned by the verb, not an error). */
  CHANGES: 10,
  /** "No" at a confirmation: nothing was sent (gh has its own code for a cancel too). */
  CANCELLED: 11,
  INTERRUPTED: 130,
} as const;

/** The name of an exit code (`sq mcp` tool errors carry it): NOT_FOUND for 3; INTERRUPTED for every stop signal. */
export function exitCodeName(code: number): string {
  if (code > 128 && code < 160) return 'INTERRUPTED';
  return Object.entries(ExitCode).find(([, c]) => c === code)?.[0] ?? `EXIT_${code}`;
}

export class SqError extends Error {
  readonly exitCode: number = ExitCode.FAILURE;
  /** HTTP status when the error came from a response. */
  status: number | null = null;
  /** Seconds the server asked us to wait, when known. */
  retryAfter: number | null = null;
  /** Extra lines printed after the message (hints, per-item reports). */
  details: string[] = [];

  constructor(
    message: string,
    opts: { status?: number | null; retryAfter?: number | null; details?: string[]; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.retryAfter !== undefined) this.retryAfter = opts.retryAfter;
    if (opts.details) this.details = opts.details;
  }
}

/** Bad flags, arguments or input files; always raised before any request is sent. */
export class UsageError extends SqError {
  override readonly exitCode = ExitCode.USAGE;
}

export class NotFoundError extends SqError {
  override readonly exitCode = ExitCode.NOT_FOUND;
}

export class AuthError extends SqError {
  override readonly exitCode = ExitCode.AUTH;
}

/** The API answered with an error, or the network failed. */
export class ApiError extends SqError {
  // A number, not the literal: a write cut short by Ctrl-C is still an API error, but exits as interrupted.
  override readonly exitCode: number = ExitCode.FAILURE;
}

export class RateLimitError extends SqError {
  override readonly exitCode = ExitCode.RATE_LIMITED;
}

export class RunFailedError extends SqError {
  override readonly exitCode = ExitCode.RUN_FAILED;
  /** The run as it ended, when a wait for it ended so (runs watch and runs start --wait print it). */
  run?: Record<string, unknown>;
}

export class TimeoutError extends SqError {
  override readonly exitCode = ExitCode.TIMEOUT;
  /** The run as it stood when the wait gave up, when what timed out was a wait for a run. */
  run?: Record<string, unknown>;
}

export class PartialFailureError extends SqError {
  override readonly exitCode = ExitCode.PARTIAL;
}

/** A run's estimate is above the cap (--max-credits, SQ_MAX_CREDITS, `sq config set max-credits`): nothing was started. */
export class OverBudgetError extends SqError {
  override readonly exitCode = ExitCode.OVER_BUDGET;
}

/** The signals that end a command cleanly (temp files removed), with their numbers on Linux and macOS. */
export const STOP_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** Ctrl-C (130), or another stop signal: 128 + its number, as a shell reports a process it killed. */
export class InterruptedError extends SqError {
  override readonly exitCode: number;
  constructor(readonly signal: StopSignal = 'SIGINT') {
    super(signal === 'SIGINT' ? 'interrupted' : `interrupted (${signal})`);
    this.exitCode = 128 + STOP_SIGNALS[signal];
  }
}

/**
 * A stop signal cut a batch of changes short (sq apply, delivery apply): the exit code is the signal's (130, 143,
 * 129…), as for any interrupted command, and the message says what was done and what was not.
 */
export function interruptedBatch(reason: unknown, summary: string, details: string[] = []): InterruptedError {
  const stop = new InterruptedError(reason instanceof InterruptedError ? reason.signal : 'SIGINT');
  stop.message = `${stop.message}: ${summary}`;
  stop.details = details;
  return stop;
}

/** A user answered "no" at a confirmation: nothing was sent. Exit 11, its own code, so a script can tell it from a failure. */
export class CancelledError extends SqError {
  override readonly exitCode = ExitCode.CANCELLED;
}

export interface PlannedRequest {
  method: string;
  /** Path with query, e.g. /v1/delivery?squid=abc */
  path: string;
  body?: unknown;
}

/** Not a failure: a --dry-run verb reached a write. main.ts prints the writes planned so far (exit 0). */
export class DryRunStop extends Error {
  constructor(readonly planned: PlannedRequest[]) {
    super('dry run: nothing was sent');
    this.name = 'DryRunStop';
  }
}

/** Every problem found, as one usage error (exit 2): the first after `prefix` (and before `suffix`), the rest its details. */
export function refuseProblems(problems: string[], prefix: string, suffix = ''): void {
  if (problems.length === 0) return;
  const [first, ...rest] = problems;
  throw new UsageError(`${prefix}${first}${suffix}`, { details: rest.map((p) => `  also: ${p}`) });
}
