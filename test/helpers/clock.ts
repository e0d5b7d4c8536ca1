// A fake clock for code that takes `now` and `sleep` (pacing buckets, retry back-off, polling): sleeping moves time
// on at once.

/** Time starts at `start` ms and moves only when something sleeps; `t` is the current time. */
export function fakeTime(start = 0) {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms: number) => void (t += ms),
    get t() {
      return t;
    },
  };
}

/**
 * The clock of the in-process sq (test/helpers/cli.ts) and of an HttpClient a test makes: starts at the real time (or
 * `start`), and a sleep moves it on at once,
 * then lets the event loop turn once (so loopback servers and the test itself go on while sq "waits"). A sleep
 * still ends early with the signal's reason when the command is interrupted, as the real one does.
 */
export function fakeSqClock(signal?: AbortSignal, start = Date.now()) {
  const clock = fakeTime(start);
  /** Every wait sq asked for, in ms, in order. */
  const slept: number[] = [];
  return {
    now: clock.now,
    slept,
    get t(): number {
      return clock.t;
    },
    async sleep(ms: number): Promise<void> {
      if (signal?.aborted) throw signal.reason;
      slept.push(ms);
      await clock.sleep(ms);
      await new Promise((r) => setImmediate(r));
      if (signal?.aborted) throw signal.reason;
    },
  };
}

/**
 * A fake sq clock whose sleeps end only when the test calls step(): a polling command (runs watch) polls once per
 * step, however fast the machine runs it, so the test decides what each poll sees and how many requests are sent
 * (free-running, an in-process sq can poll hundreds of times while the test waits a few real milliseconds, and
 * spend a prefix's rate budget).
 */
export function gatedSqClock(signal?: AbortSignal) {
  const base = fakeSqClock(signal);
  let waiting: (() => void)[] = [];
  return {
    now: base.now,
    slept: base.slept,
    async sleep(ms: number): Promise<void> {
      // Interrupted, a sleep ends at once with the signal's reason, as the real one does.
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        waiting.push(resolve);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
      await base.sleep(ms);
    },
    /** Whether sq is waiting for a step. */
    get sleeping(): boolean {
      return waiting.length > 0;
    },
    /** Ends the sleeps sq is in. */
    step(): void {
      const w = waiting;
      waiting = [];
      for (const r of w) r();
    },
  };
}
