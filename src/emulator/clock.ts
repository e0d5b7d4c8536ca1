// Business time of the emulator: runs, webhook retries and billing checks are scheduled on it.
// Rate-limit windows never use it (they always run on real time, see ratelimit.ts).

type TimerCallback = () => void | Promise<void>;

export interface Clock {
  readonly mode: 'real' | 'virtual';
  /** Milliseconds since the epoch, in business time. */
  now(): number;
  /** Schedule fn after `ms` of business time; returns an id for cancel(). */
  schedule(ms: number, fn: TimerCallback): number;
  cancel(id: number): void;
  /**
   * Move business time forward by `ms`, running every timer that falls due, in due order
   * (timers scheduled by a running timer are honoured if they fall inside the window).
   * Each callback is awaited before the next runs. On a real clock this is refused.
   */
  advance(ms: number): Promise<void>;
  /** Number of timers waiting. */
  pending(): number;
  /** Stop all timers (shutdown). */
  stop(): void;
}

interface Timer {
  id: number;
  due: number;
  seq: number;
  fn: TimerCallback;
}

export class VirtualClock implements Clock {
  readonly mode = 'virtual' as const;
  private current: number;
  private timers = new Map<number, Timer>();
  private nextId = 1;
  private seq = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(start: number = Date.now()) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  schedule(ms: number, fn: TimerCallback): number {
    const id = this.nextId++;
    this.timers.set(id, { id, due: this.current + Math.max(0, ms), seq: this.seq++, fn });
    return id;
  }

  cancel(id: number): void {
    this.timers.delete(id);
  }

  pending(): number {
    return this.timers.size;
  }

  advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) return Promise.reject(new RangeError('ms must be a non-negative number'));
    // Serialise concurrent advances so timers always run in order.
    const run = this.chain.then(() => this.runUntil(this.current + ms));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async runUntil(target: number): Promise<void> {
    for (;;) {
      let next: Timer | undefined;
      for (const t of this.timers.values()) {
        if (t.due > target) continue;
        if (!next || t.due < next.due || (t.due === next.due && t.seq < next.seq)) next = t;
      }
      if (!next) break;
      this.timers.delete(next.id);
      if (next.due > this.current) this.current = next.due;
      try {
        await next.fn();
      } catch {
        // A failing timer must not stop the clock; the owner records its own failures.
      }
    }
    this.current = Math.max(this.current, target);
  }

  stop(): void {
    this.timers.clear();
  }
}

/** Real time, optionally sped up: with timeScale 60, one real second is one business minute. */
export class RealClock implements Clock {
  readonly mode = 'real' as const;
  private readonly origin = Date.now();
  private timers = new Map<number, NodeJS.Timeout>();
  private nextId = 1;

  constructor(private readonly timeScale = 1) {
    if (!(timeScale > 0)) throw new RangeError('timeScale must be > 0');
  }

  now(): number {
    return this.origin + Math.round((Date.now() - this.origin) * this.timeScale);
  }

  schedule(ms: number, fn: TimerCallback): number {
    const id = this.nextId++;
    const handle = setTimeout(
      () => {
        this.timers.delete(id);
        Promise.resolve()
          .then(fn)
          .catch(() => undefined);
      },
      Math.max(0, ms / this.timeScale),
    );
    handle.unref?.();
    this.timers.set(id, handle);
    return id;
  }

  cancel(id: number): void {
    const h = this.timers.get(id);
    if (h) clearTimeout(h);
    this.timers.delete(id);
  }

  pending(): number {
    return this.timers.size;
  }

  advance(): Promise<void> {
    return Promise.reject(new Error('the clock is real: start the emulator with --clock virtual to move time'));
  }

  stop(): void {
    for (const h of this.timers.values()) clearTimeout(h);
    this.timers.clear();
  }
}
