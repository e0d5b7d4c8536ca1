// Client-side pacing: one token bucket per documented path prefix, at 90% of the documented limit, so the server
// never has to refuse us (repeated 429s can get the caller's IP blocked).

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

/** The bucket a path belongs to: /v1/runs/x/tasks is a runs request; /v1/runtasks has its own limit. */
export function bucketFor(path: string): string {
  const m = /^\/v1\/([a-z_]+)/.exec(path);
  const seg = m?.[1];
  return seg && seg in BUCKETS && seg !== 'default' ? seg : 'default';
}

export class Bucket {
  private tokens: number;
  private last: number;
  /** Wall-clock ms before which nothing may be sent (429 Retry-After, or Remaining hit 0). */
  private pausedUntil = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly spec: BucketSpec,
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {
    this.tokens = spec.burst;
    this.last = now();
  }

  /** Wait for a token. Callers are served in order. */
  acquire(): Promise<void> {
    const next = this.queue.then(() => this.take());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async take(): Promise<void> {
    for (;;) {
      const now = this.now();
      if (now < this.pausedUntil) {
        await this.sleep(this.pausedUntil - now);
        continue;
      }
      this.refill(now);
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.sleep(Math.ceil(((1 - this.tokens) / this.spec.rate) * 1000));
    }
  }

  private refill(now: number): void {
    const elapsed = (now - this.last) / 1000;
    this.last = now;
    this.tokens = Math.min(this.spec.burst, this.tokens + elapsed * this.spec.rate);
  }

  /** Stop the whole bucket for `ms` (a 429's Retry-After, or an exhausted window). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
    this.tokens = 0;
  }

  /**
   * Tighten from the server's view: never hold more tokens than it says remain, and when it says none remain,
   * wait for its window to reset. `resetInMs` is measured against the response's Date header, not our clock.
   */
  observe(remaining: number | null, resetInMs: number | null): void {
    if (remaining === null) return;
    this.refill(this.now());
    if (remaining < this.tokens) this.tokens = Math.max(0, remaining);
    if (remaining <= 0 && resetInMs !== null && resetInMs > 0) this.pause(resetInMs);
  }
}

export class Pacer {
  private buckets = new Map<string, Bucket>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  bucket(path: string): Bucket {
    const key = bucketFor(path);
    let b = this.buckets.get(key);
    if (!b) {
      b = new Bucket(BUCKETS[key], this.now, this.sleep);
      this.buckets.set(key, b);
    }
    return b;
  }
}
