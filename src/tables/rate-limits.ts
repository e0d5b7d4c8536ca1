// The platform's documented rate limits (spec "Rate limits", rate-limiting.mdx), per key and path prefix
// (/v1/<prefix>): data only, the one table both the client's pacing (at 90%) and the emulator's limiter (as they are)
// read. test/unit/shared-tables.test.ts checks it against the spec's table.
export const RATE_LIMITS: Readonly<Record<string, { limit: number; windowMs: number }>> = {
  squids: { limit: 120, windowMs: 60_000 },
  runs: { limit: 120, windowMs: 60_000 },
  tasks: { limit: 90, windowMs: 60_000 },
  runtasks: { limit: 90, windowMs: 60_000 },
  results: { limit: 2, windowMs: 1_000 },
};
