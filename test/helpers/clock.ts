// A fake clock for code that takes `now` and `sleep` (pacing buckets, retry back-off, polling): sleeping moves time
// on at once.

/** Time starts at `start` ms and moves only when something sleeps; `t` is the current time. */
export function fakeTime(start = 0) {
  let t = start;
  return { now: () => t, sleep: async (ms: number) => void (t += ms), get t() { return t; } };
}

/**
 * The clock of the in-process sq (test/helpers/cli.ts): starts at the real time, and a sleep moves it on at once,
 * then lets the event loop turn once (so loopback servers and the test itself go on while sq "waits"). A sleep
 * still ends early with the signal's reason when the command is interrupted, as the real one does.
 */
export function fakeSqClock(signal?: AbortSignal) {
  const clock = fakeTime(Date.now());
  /** Every wait sq asked for, in ms, in order. */
  const slept: number[] = [];
  return {
    now: clock.now,
    slept,
    async sleep(ms: number): Promise<void> {
      if (signal?.aborted) throw signal.reason;
      slept.push(ms);
      await clock.sleep(ms);
      await new Promise((r) => setImmediate(r));
      if (signal?.aborted) throw signal.reason;
    },
  };
}
