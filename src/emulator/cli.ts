// `sq emulator start` behaviour: validate options, start, print the JSON line and the export hint, run
// until SIGINT/SIGTERM, close cleanly (state file flushed).
import type { EmulatorOptions } from './index.js';

/** A word the shell reads back as is (single-quoted unless plain). */
function shellWord(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

export class EmulatorOptionError extends Error {
  constructor(
    readonly flag: string,
    message: string,
  ) {
    super(`${flag} ${message}`);
    this.name = 'EmulatorOptionError';
  }
}

/** The one set of option bounds; `sq emulator start` shows them in its help and validates with parseEmulatorOptions. */
export const PORT_MIN = 0;
export const PORT_MAX = 65_535;
export const TIME_SCALE_MIN = 1;
export const TIME_SCALE_MAX = 3600;
const RATE_LIMITS_MAX = 1000;

function num(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
}

/** Like num, but text must be decimal digits (no "1e3" or "0x10"), as for every other integer flag of sq. */
function int(v: unknown): number {
  return typeof v === 'string' && !/^\s*[+-]?\d+\s*$/.test(v) ? NaN : num(v);
}

/**
 * Validates options as commander hands them over (strings) or as code passes them (typed), and returns
 * typed options. Throws EmulatorOptionError naming the flag. The only validator of these options.
 */
export function parseEmulatorOptions(raw: Record<string, unknown>): EmulatorOptions {
  const out: EmulatorOptions = {};
  if (raw.host !== undefined) {
    if (typeof raw.host !== 'string' || raw.host.trim() === '')
      throw new EmulatorOptionError('--host', 'must be a host name or address');
    out.host = raw.host.trim();
  }
  if (raw.port !== undefined) {
    const p = int(raw.port);
    if (!Number.isInteger(p) || p < PORT_MIN || p > PORT_MAX)
      throw new EmulatorOptionError(
        '--port',
        `must be an integer from ${PORT_MIN} to ${PORT_MAX} (0 picks a free port), got ${JSON.stringify(raw.port)}`,
      );
    out.port = p;
  }
  if (raw.seed !== undefined) {
    if (raw.seed !== 'demo' && raw.seed !== 'empty')
      throw new EmulatorOptionError('--seed', `must be demo or empty, got ${JSON.stringify(raw.seed)}`);
    out.seed = raw.seed;
  }
  if (raw.clock !== undefined) {
    if (raw.clock !== 'real' && raw.clock !== 'virtual')
      throw new EmulatorOptionError('--clock', `must be real or virtual, got ${JSON.stringify(raw.clock)}`);
    out.clock = raw.clock;
  }
  if (raw.timeScale !== undefined) {
    const t = int(raw.timeScale);
    if (!Number.isInteger(t) || t < TIME_SCALE_MIN || t > TIME_SCALE_MAX)
      throw new EmulatorOptionError(
        '--time-scale',
        `must be an integer from ${TIME_SCALE_MIN} to ${TIME_SCALE_MAX} (e.g. 60 = one business minute per second), got ${JSON.stringify(raw.timeScale)}`,
      );
    out.timeScale = t;
  }
  if (raw.freePlan !== undefined) {
    if (typeof raw.freePlan !== 'boolean') throw new EmulatorOptionError('--free-plan', 'takes no value');
    out.freePlan = raw.freePlan;
  }
  if (raw.rateLimits !== undefined) {
    const r = raw.rateLimits;
    if (r === 'on' || r === 'off') out.rateLimits = r;
    else {
      const m = num(r);
      if (!Number.isFinite(m) || m <= 0 || m > RATE_LIMITS_MAX)
        throw new EmulatorOptionError(
          '--rate-limits',
          `must be on, off, or a multiplier greater than 0 and at most ${RATE_LIMITS_MAX} such as 0.05, got ${JSON.stringify(r)}`,
        );
      out.rateLimits = m;
    }
  }
  const state = raw.stateFile ?? raw.state;
  if (state !== undefined) {
    if (typeof state !== 'string' || state.trim() === '')
      throw new EmulatorOptionError('--state', 'must be a file path');
    out.stateFile = state.trim();
  }
  if (raw.token !== undefined) {
    if (typeof raw.token !== 'string' || !/^\S{8,}$/.test(raw.token))
      throw new EmulatorOptionError('token', 'must be at least 8 non-space characters');
    out.token = raw.token;
  }
  if (raw.webhookTimeoutMs !== undefined) {
    const w = num(raw.webhookTimeoutMs);
    if (!Number.isFinite(w) || w <= 0)
      throw new EmulatorOptionError('webhookTimeoutMs', 'must be a positive number of ms');
    out.webhookTimeoutMs = w;
  }
  return out;
}

interface EmulatorIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Stops the emulator like a signal would (tests, embedding). */
  signal?: AbortSignal;
}

export async function runEmulatorCommand(opts: EmulatorOptions, io: EmulatorIo): Promise<number> {
  let options: EmulatorOptions;
  try {
    options = parseEmulatorOptions(opts as Record<string, unknown>);
  } catch (e) {
    io.stderr.write(`sq emulator: ${(e as Error).message}\n`);
    return 2;
  }
  const { startEmulator } = await import('./index.js');
  let running: Awaited<ReturnType<typeof startEmulator>>;
  try {
    running = await startEmulator(options);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why =
      err.code === 'EADDRINUSE'
        ? `port ${options.port ?? 8787} is already in use; pass --port 0 for a free port`
        : err.code === 'EACCES'
          ? `not allowed to listen on ${options.host ?? '127.0.0.1'}:${options.port ?? 8787}`
          : err.message;
    io.stderr.write(`sq emulator: cannot start: ${why}\n`);
    return 1;
  }
  io.stdout.write(JSON.stringify({ base_url: running.baseUrl, token: running.token }) + '\n');
  io.stderr.write(
    `sq emulator listening on ${running.baseUrl} (clock ${options.clock ?? 'real'}, time scale ${options.timeScale ?? 1}x, ` +
      `seed ${options.seed ?? 'demo'}); to use it:\n` +
      `  export SQ_BASE_URL=${shellWord(running.baseUrl)} SQ_TOKEN=${shellWord(running.token)}\n` +
      'Press Ctrl-C to stop.\n',
  );
  const { SFTP_MISSING, sftpAvailable } = await import('./sftp.js');
  if (!sftpAvailable()) io.stderr.write(`sq emulator: ${SFTP_MISSING}.\n`);
  await new Promise<void>((resolve) => {
    const done = (): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      io.signal?.removeEventListener('abort', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
    if (io.signal?.aborted) done();
    else io.signal?.addEventListener('abort', done);
  });
  try {
    await running.close();
  } catch (e) {
    io.stderr.write(`sq emulator: could not write the state file: ${(e as Error).message}\n`);
    return 1;
  }
  io.stderr.write('sq emulator stopped.\n');
  return 0;
}
