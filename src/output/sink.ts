// A writer over a stream that respects backpressure and treats a vanished reader (EPIPE) as a quiet stop.

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
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED' && err.code !== 'ECONNRESET') state.error = err;
  });
  states.set(stream, state);
  return state;
}

export class Sink {
  private readonly state: StreamState;

  constructor(private readonly stream: NodeJS.WritableStream) {
    this.state = watch(stream);
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
    this.stream.write(chunk);
  }

  /** Waits for 'drain' when the stream's buffer is full, so a long list never piles up in memory. */
  async write(chunk: string): Promise<void> {
    if (!this.check()) return;
    if (this.stream.write(chunk)) return;
    if (this.closed) return;
    await new Promise<void>((resolve) => {
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
    this.check();
  }
}
