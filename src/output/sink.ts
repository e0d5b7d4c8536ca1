// A writer over a stream that respects backpressure and treats a vanished reader (EPIPE) as a quiet stop; and the
// stdout the CLI writes to when fd 1 is a file or a device.
import { writeSync } from 'node:fs';
import { Writable } from 'node:stream';

interface StreamState {
  closed: boolean;
  error: Error | null;
}

// One listener per stream, shared by every Output built on it (in-process tests build many on the same stream).
const states = new WeakMap<NodeJS.WritableStream, StreamState>();

function watch(stream: NodeJS.WritableStream): StreamState {
  const known = states.get(stream);
  if (known) return known;
  const state: StreamState = { closed: false, error: null };
  stream.on('error', (err: NodeJS.ErrnoException) => {
    state.closed = true;
    // A reader that went away (`sq … | head`) is normal; anything else (a full disk) must surface.
    if (!readerGone(err)) state.error = err;
  });
  states.set(stream, state);
  return state;
}

/** The error a write gets when the reader went away (`sq … | head`), rather than a failure of the output itself. */
export function readerGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ECONNRESET';
}

type WriteFn = (fd: number, buf: Uint8Array, offset: number, length: number) => number;

/** Writes all of `buf` to `fd`, however few bytes each write(2) takes, until a write fails (ENOSPC) and throws. */
export function writeAll(fd: number, buf: Uint8Array, write: WriteFn = writeSync): void {
  for (let off = 0; off < buf.length; ) {
    const n = write(fd, buf, off, buf.length - off);
    if (!(n > 0)) throw Object.assign(new Error(`write wrote ${n} of ${buf.length - off} bytes`), { code: 'EIO' });
    off += n;
  }
}

/** A Writable over a file or device descriptor (stdout redirected to a file): each chunk is written whole, and an
 * error reaches the write's callback and 'error' (Node's own stdout for a file ignores short writes). */
export function fdWriter(fd: number, name: string, write?: WriteFn): Writable & { fd: number } {
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      try {
        writeAll(fd, chunk, write);
        cb();
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        e.message = `cannot write to ${name}: ${e.message}`;
        cb(e);
      }
    },
  });
  return Object.assign(stream, { fd });
}

export class Sink {
  private readonly state: StreamState;

  /** `shown`: what each chunk becomes before it is written (control characters escaped for a terminal). */
  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly shown?: (chunk: string) => string,
  ) {
    this.state = watch(stream);
  }

  /** How much text to gather before a write: what the stream buffers before it asks its writer to wait. */
  get batchSize(): number {
    return (
      (this.stream as NodeJS.WritableStream & { writableHighWaterMark?: number }).writableHighWaterMark || 16 * 1024
    );
  }

  get closed(): boolean {
    const s = this.stream as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
    return this.state.closed || s.destroyed === true || s.writableEnded === true;
  }

  private check(): boolean {
    if (this.state.error) {
      const err = this.state.error;
      this.state.error = null;
      throw err;
    }
    return !this.closed;
  }

  /** Fire and forget, for short human messages and single records. */
  writeNow(chunk: string): void {
    if (!this.check()) return;
    this.stream.write(this.shown ? this.shown(chunk) : chunk);
  }

  /** Waits for 'drain' when the stream's buffer is full, so a long list never piles up in memory. */
  async write(chunk: string): Promise<void> {
    if (!this.check()) return;
    if (this.stream.write(this.shown ? this.shown(chunk) : chunk)) return;
    if (this.closed) return;
    await this.settled();
    this.check();
  }

  /** Waits until everything written has gone out, then throws the error a write met (a reader gone is none). */
  async flush(): Promise<void> {
    const s = this.stream as NodeJS.WritableStream & { writableLength?: number };
    // Write callbacks come in order: an empty write's comes once every earlier write is out or has failed.
    if (!this.closed && (s.writableLength ?? 0) > 0) await new Promise<void>((resolve) => s.write('', () => resolve()));
    // A failed write reports its error from process.nextTick callbacks, which all run before the promise callbacks that
    // follow them. Not setImmediate: a turn of the event loop would also run whatever V8 has queued by then.
    await new Promise((resolve) => process.nextTick(resolve));
    this.check();
  }

  private settled(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.stream.removeListener('drain', done);
        this.stream.removeListener('close', done);
        this.stream.removeListener('error', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('close', done);
      this.stream.on('error', done);
    });
  }
}
