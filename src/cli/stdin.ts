// Every read of stdin or of a file the user names (-f, --file, --input, --cookies-file, --with-token,
// --password-stdin) goes through here, so that each one is bounded and can be stopped: a stop signal (Ctrl-C, a CI
// timeout's SIGTERM) ends a read that waits for data that never comes, and a producer that never stops
// (`yes | sq plan -f -`) is cut off at a stated size instead of filling memory.
import { close, constants, createReadStream, fstat, open, type Stats } from 'node:fs';
import { Socket } from 'node:net';
import { isatty, ReadStream as TtyReadStream } from 'node:tty';
import { promisify } from 'node:util';
import type { Ctx } from './context.js';
import { UsageError } from '../errors.js';

/** The most sq reads from one input file or from stdin: account, delivery and task files, request bodies, cookies. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

const openAsync = promisify(open);
const fstatAsync = promisify(fstat);

/**
 * At most `max` bytes of a stream, or null when it holds more (reading stops there). Rejects with the signal's reason
 * (an InterruptedError: exit 130, 143…) as soon as `signal` is aborted, whether or not any data came.
 */
export function readBounded(stream: NodeJS.ReadableStream, max: number, signal?: AbortSignal): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (stop: boolean, settle: () => void) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      signal?.removeEventListener('abort', onAbort);
      // Nothing more is read: an endless producer is cut off, a waiting read is dropped.
      if (stop) (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      settle();
    };
    const onData = (c: Buffer | string) => {
      const b = Buffer.isBuffer(c) ? c : Buffer.from(c);
      size += b.length;
      if (size > max) return finish(true, () => resolve(null));
      chunks.push(b);
    };
    const onEnd = () => finish(false, () => resolve(Buffer.concat(chunks)));
    const onError = (err: Error) => finish(true, () => reject(err));
    const onAbort = () => finish(true, () => reject(signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    stream.on('data', onData).on('end', onEnd).on('error', onError);
    stream.resume();
  });
}

/** At most `max` bytes of stdin as UTF-8 text, or null when it holds more; stopped by `ctx.signal`. */
export async function readStdinUpTo(ctx: Pick<Ctx, 'io' | 'signal'>, max: number): Promise<string | null> {
  return (await readBounded(ctx.io.stdin, max, ctx.signal))?.toString('utf8') ?? null;
}

/**
 * The text of a file flag's value, or stdin for "-": at most `max` bytes (else a UsageError naming the flag and the
 * cap), stopped by a stop signal. A file that cannot be read is a UsageError naming the flag. A FIFO (or
 * `<(command)`) is read as it is written, without blocking the process while no writer has come.
 */
export async function readInput(
  ctx: Pick<Ctx, 'io' | 'signal'>,
  flag: string,
  file: string,
  max = MAX_INPUT_BYTES,
): Promise<string> {
  return (await readInputBytes(ctx, flag, file, max)).toString('utf8');
}

/** readInput's bytes, as they are (a file sent on, such as a task upload's CSV). */
export async function readInputBytes(
  ctx: Pick<Ctx, 'io' | 'signal'>,
  flag: string,
  file: string,
  max = MAX_INPUT_BYTES,
): Promise<Buffer> {
  const bytes =
    file === '-' ? await readBounded(ctx.io.stdin, max, ctx.signal) : await readPath(flag, file, max, ctx.signal);
  if (bytes === null) {
    throw new UsageError(
      `${flag}: ${file === '-' ? 'stdin' : `"${file}"`} holds more than ${sizeText(max)}, the most sq reads from one input`,
    );
  }
  return bytes;
}

async function readPath(flag: string, file: string, max: number, signal: AbortSignal): Promise<Buffer | null> {
  const cannot = (err: NodeJS.ErrnoException) =>
    new UsageError(`${flag}: cannot read "${file}" (${err.code ?? err.message})`);
  let fd: number;
  let st: Stats;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait, in a thread no signal reaches, for a writer.
    fd = await openAsync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw cannot(err as NodeJS.ErrnoException);
  }
  try {
    st = await fstatAsync(fd);
  } catch (err) {
    close(fd, () => undefined);
    throw cannot(err as NodeJS.ErrnoException);
  }
  if (st.isDirectory()) {
    close(fd, () => undefined);
    throw new UsageError(`${flag}: "${file}" is a directory, not a file`);
  }
  if (st.isFile() && st.size > max) {
    close(fd, () => undefined);
    return null;
  }
  // A FIFO or pipe through the event loop (it waits for a writer, then reads to its end); a terminal as a terminal;
  // a regular file or another device (/dev/zero: the cap ends it) through the thread pool.
  const stream: NodeJS.ReadableStream =
    st.isFIFO() || st.isSocket()
      ? new Socket({ fd, readable: true, writable: false })
      : isatty(fd)
        ? new TtyReadStream(fd)
        : createReadStream('', { fd });
  return readBounded(stream, max, signal).catch((err: unknown) => {
    throw signal.aborted ? err : cannot(err as NodeJS.ErrnoException);
  });
}

/** 16 MiB, 4 KiB, 512 bytes. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
