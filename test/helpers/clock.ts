// A fake clock for code that takes `now` and `sleep` (pacing buckets): sleeping moves time on at once.

/** Time starts at `start` ms and moves only when something sleeps; `t` is the current time. */
export function fakeTime(start = 0) {
  let t = start;
  return { now: () => t, sleep: async (ms: number) => void (t += ms), get t() { return t; } };
}
