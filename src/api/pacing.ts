// Client-side pacing: one token bucket per documented path prefix, at 90% of the documented limit, so the server
// never has to refuse us (repeated 429s can get the caller's IP blocked). The buckets' state lives in a store: this
// process's memory, or a small file every sq process of the machine shares (pacing-state.ts), so parallel sq calls
// with one key draw on one budget.

import { sleep as wait } from './sleep.js';

export interface BucketSpec {
  /** Tokens added per second. */
  rate: number;
  /** Bucket size. */
  burst: number;
}

export const BUCKETS: Record<string, BucketSpec> = {
  squids: { rate: 1.8, burst: 10 },
  runs: { rate: 1.8, burst: 10 },
  tasks: { rate: 1.35, burst: 8 },
  runtasks: { rate: 1.35, burst: 8 },
  // 2 req/s documented: one request every 550 ms, no burst.
  results: { rate: 1 / 0.55, burst: 1 },
  default: { rate: 1, burst: 5 },
};

/**
 * The longest wait an X-RateLimit-Reset may impose. Every documented window is one minute or shorter, so a reset
 * further away than that (plus 5 s for clock skew and whole-second rounding) is garbage, not a reason to hang: after
 * this wait the next request goes out and, if the server still refuses, the 429 give-up applies (exit 5).
 */
export const MAX_RESET_WAIT_MS = 65_000;
/** A bucket is never paused longer than this, whatever a shared state file says: longer than any 429 give-up. */
export const MAX_PAUSE_MS = 6 * 60_000;
/** X-RateLimit-Reset below this (September 2001) cannot be a UNIX time of now: it is seconds until the reset. */
const EPOCH_SECONDS_MIN = 1e9;

/**
 * How long to wait for the server's window to reset, from X-RateLimit-Reset (a UNIX time in seconds, measured against
 * the server's clock; some services send seconds-until-reset instead, which a small number is taken as). Null when the
 * header is missing, negative or not a number: nothing to wait for. A reset in the past is 0; a far one is capped.
 */
export function resetWaitMs(reset: number | null, serverNowMs: number): number | null {
  if (reset === null || !Number.isFinite(reset) || reset < 0) return null;
  const ms = reset < EPOCH_SECONDS_MIN ? reset * 1000 : reset * 1000 - serverNowMs;
  return Math.min(MAX_RESET_WAIT_MS, Math.max(0, ms));
}

/** The bucket a path belongs to: /v1/runs/x/tasks is a runs request; /v1/runtasks has its own limit. */
export function bucketFor(path: string): string {
  const m = /^\/v1\/([a-z_]+)/.exec(path);
  const seg = m?.[1];
  return seg && seg in BUCKETS && seg !== 'default' ? seg : 'default';
}

export interface BucketState {
  tokens: number;
  /** Wall-clock ms of the last refill. */
  last: number;
  /** Wall-clock ms before which nothing may be sent (429 Retry-After, or Remaining hit 0). */
  pausedUntil: number;
}

/** Where buckets keep their state. `update` runs one decision on a bucket's state at a time, with the time to use. */
export interface BucketStore {
  update<T>(name: string, spec: BucketSpec, fn: (s: BucketState, now: number) => T): T | Promise<T>;
  /** Resolves when every update asked for so far is written. */
  idle(): Promise<void>;
}

export function freshState(spec: BucketSpec, now: number): BucketState {
  return { tokens: spec.burst, last: now, pausedUntil: 0 };
}

export class MemoryStore implements BucketStore {
  private states = new Map<string, BucketState>();
  constructor(private readonly now: () => number) {}

  update<T>(name: string, spec: BucketSpec, fn: (s: BucketState, now: number) => T): T {
    const now = this.now();
    let s = this.states.get(name);
    if (!s) this.states.set(name, (s = freshState(spec, now)));
    return fn(s, now);
  }

  async idle(): Promise<void> {}
}

function refill(s: BucketState, spec: BucketSpec, now: number): void {
  const elapsed = Math.max(0, now - s.last) / 1000;
  s.last = now;
  s.tokens = Math.min(spec.burst, s.tokens + elapsed * spec.rate);
}

/** Take a token: 0 when taken, else the ms to wait before asking again. */
function take(s: BucketState, spec: BucketSpec, now: number): number {
  if (now < s.pausedUntil) return s.pausedUntil - now;
  refill(s, spec, now);
  if (s.tokens >= 1) {
    s.tokens -= 1;
    return 0;
  }
  return Math.max(1, Math.ceil(((1 - s.tokens) / spec.rate) * 1000));
}

function pause(s: BucketState, now: number, ms: number): void {
  s.pausedUntil = Math.max(s.pausedUntil, now + Math.min(ms, MAX_PAUSE_MS));
  s.tokens = 0;
}

export class Bucket {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly spec: BucketSpec,
    now: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly store: BucketStore = new MemoryStore(now),
    private readonly name = 'bucket',
  ) {}

  /** Wait for a token. Callers are served in order. */
  acquire(): Promise<void> {
    const next = this.queue.then(() => this.take());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async take(): Promise<void> {
    for (;;) {
      // Waiting happens here, outside the store's update (for a shared store: outside the lock).
      const wait = await this.store.update(this.name, this.spec, (s, now) => take(s, this.spec, now));
      if (wait <= 0) return;
      await this.sleep(wait);
    }
  }

  /** Stop the whole bucket for `ms` (a 429's Retry-After, or an exhausted window). */
  pause(ms: number): void {
    this.apply((s, now) => pause(s, now, ms));
  }

  /**
   * Tighten from the server's view: never hold more tokens than it says remain, and when it says none remain,
   * wait for its window to reset (`resetInMs`, from resetWaitMs).
   */
  observe(remaining: number | null, resetInMs: number | null): void {
    // A window with at least a burst left changes nothing (tokens never exceed the burst): no second trip through the
    // shared state's lock on every answer.
    if (remaining === null || remaining >= this.spec.burst) return;
    this.apply((s, now) => {
      refill(s, this.spec, now);
      if (remaining < s.tokens) s.tokens = Math.max(0, remaining);
      if (remaining <= 0 && resetInMs !== null && resetInMs > 0) pause(s, now, resetInMs);
    });
  }

  /** Applied at once for memory; for a shared store, in order before this process's next decision. */
  private apply(fn: (s: BucketState, now: number) => void): void {
    try {
      const r = this.store.update(this.name, this.spec, fn);
      if (r instanceof Promise) r.catch(() => undefined);
    } catch {
      // A store that cannot be written only costs the tightening.
    }
  }
}

export class Pacer {
  private buckets = new Map<string, Bucket>();
  private readonly store: BucketStore;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => wait(ms),
    store?: BucketStore,
  ) {
    this.store = store ?? new MemoryStore(now);
  }

  bucket(path: string): Bucket {
    const key = bucketFor(path);
    let b = this.buckets.get(key);
    if (!b) {
      b = new Bucket(BUCKETS[key], this.now, this.sleep, this.store, key);
      this.buckets.set(key, b);
    }
    return b;
  }

  /** Resolves when every tightening and pause so far is stored (so a process about to exit shares them). */
  idle(): Promise<void> {
    return this.store.idle();
  }
}
