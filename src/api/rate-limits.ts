// The platform's documented rate limits, per key and path prefix (/v1/<prefix>): the one table both the client's
// pacing (pacing.ts, at 90%) and the emulator's limiter (emulator/ratelimit.ts, as they are) read.
export const RATE_LIMITS: Readonly<Record<string, { limit: number; windowMs: number }>> = {
  squids: { limit: 120, windowMs: 60_000 },
  runs: { limit: 120, windowMs: 60_000 },
  tasks: { limit: 90, windowMs: 60_000 },
  runtasks: { limit: 90, windowMs: 60_000 },
  results: { limit: 2, windowMs: 1_000 },
};
