// The pacing decisions of today's src/api/pacing.ts, as tables: which bucket a path draws on, when each request of a
// burst may go, what a pause or the server's Remaining/Reset does to the next one, and the server's "now". No HTTP,
// a fake clock. Kept apart from pacing.test.ts so a rewrite of pacing (issue 18) can adapt it in one place.
import { describe, expect, it } from 'vitest';
import { Bucket, BUCKETS, MAX_PAUSE_MS, MAX_RESET_WAIT_MS, Pacer, bucketFor, resetWaitMs } from '../../src/api/pacing.js';
import { serverNow } from '../../src/api/http.js';
import { fakeTime } from '../helpers/clock.js';

/** The clock times at which `n` acquires in a row go, on a fresh bucket of `name`, after `before` ran at time 0. */
async function schedule(name: keyof typeof BUCKETS, n: number, before: (b: Bucket) => void = () => undefined): Promise<number[]> {
  const clock = fakeTime();
  const b = new Bucket(BUCKETS[name], clock.now, clock.sleep);
  before(b);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    await b.acquire();
    times.push(clock.t);
  }
  return times;
}

describe('the bucket of a path', () => {
  it.each([
    ['/v1/squids', 'squids'],
    ['/v1/squids/', 'squids'],
    ['/v1/squids/abc/duplicate', 'squids'],
    ['/v1/runs', 'runs'],
    ['/v1/runs/abc/stats', 'runs'],
    ['/v1/runtasks', 'runtasks'],
    ['/v1/runtasks/abc', 'runtasks'],
    ['/v1/tasks', 'tasks'],
    ['/v1/tasks/upload', 'tasks'],
    ['/v1/results', 'results'],
    ['/v1/me', 'default'],
    ['/v1/crawlers', 'default'],
    ['/v1/accounts', 'default'],
    ['/v1/billing/usage', 'default'],
    ['/v1/default', 'default'],
    ['/v1/squidsx', 'default'],
    ['/v2/squids', 'default'],
    ['/squids', 'default'],
    ['', 'default'],
  ])('%j → %s', (path, bucket) => {
    expect(bucketFor(path)).toBe(bucket);
  });

  it('a Pacer hands out one bucket per name, shared by every path of it', () => {
    const p = new Pacer(() => 0, async () => undefined);
    expect(p.bucket('/v1/runs')).toBe(p.bucket('/v1/runs/x/tasks'));
    expect(p.bucket('/v1/runs')).not.toBe(p.bucket('/v1/runtasks'));
    expect(p.bucket('/v1/me')).toBe(p.bucket('/v1/crawlers'));
  });
});

describe('when each request of a burst goes (90% of the documented limits)', () => {
  const perToken = (rate: number) => Math.ceil(1000 / rate);
  it.each([
    // [bucket, burst, then one every … ms]
    ['squids', 10, perToken(1.8)],
    ['runs', 10, perToken(1.8)],
    ['tasks', 8, perToken(1.35)],
    ['runtasks', 8, perToken(1.35)],
    ['results', 1, 550],
    ['default', 5, 1000],
  ] as const)('%s: %i at once, then one every %i ms', async (name, burst, every) => {
    expect(BUCKETS[name].burst).toBe(burst);
    const times = await schedule(name, burst + 3);
    expect(times.slice(0, burst)).toEqual(Array(burst).fill(0));
    const after = times.slice(burst);
    // Each later token is at most 1 ms later than an exact share of the rate (waits round up to whole ms).
    after.forEach((t, i) => {
      expect(t).toBeGreaterThanOrEqual((i + 1) * (1000 / BUCKETS[name].rate) - 1);
      expect(t).toBeLessThanOrEqual((i + 1) * every);
    });
  });
});

describe('a pause, and what the server says remains', () => {
  it.each([
    // [what happens at time 0 after one request, bucket, time of the next request]
    ['pause 2 s', 'squids', (b: Bucket) => b.pause(2000), 2000],
    ['pause 0', 'squids', (b: Bucket) => b.pause(0), 556],
    ['pause 2 s, then 1 s (the longer holds)', 'squids', (b: Bucket) => (b.pause(2000), b.pause(1000)), 2000],
    ['pause beyond the cap', 'runs', (b: Bucket) => b.pause(60 * 60_000), MAX_PAUSE_MS],
    ['Remaining 0, reset in 7 s', 'runs', (b: Bucket) => b.observe(0, 7000), 7000],
    ['Remaining 0, no reset', 'runs', (b: Bucket) => b.observe(0, null), 556],
    ['Remaining 0, reset passed', 'runs', (b: Bucket) => b.observe(0, 0), 556],
    ['Remaining 3 (below our 9 tokens)', 'squids', (b: Bucket) => b.observe(3, null), 0],
    ['Remaining ≥ burst changes nothing', 'squids', (b: Bucket) => b.observe(10, 5000), 0],
    ['Remaining unknown changes nothing', 'squids', (b: Bucket) => b.observe(null, 5000), 0],
  ] as const)('%s → the next request at %i ms', async (_, name, what, next) => {
    const clock = fakeTime();
    const b = new Bucket(BUCKETS[name], clock.now, clock.sleep);
    await b.acquire();
    what(b);
    await b.acquire();
    expect(clock.t).toBe(next);
  });

  it('Remaining n leaves exactly n requests before the bucket waits', async () => {
    for (const n of [0, 1, 3, 5]) {
      const times = await schedule('squids', n + 1, (b) => b.observe(n, null));
      expect(times.slice(0, n), `Remaining ${n}`).toEqual(Array(n).fill(0));
      expect(times[n], `Remaining ${n}`).toBeGreaterThan(0);
    }
  });
});

describe('X-RateLimit-Reset → the wait (UNIX seconds on the server clock, or seconds until the reset)', () => {
  const now = 1_700_000_000_000;
  it.each([
    [null, now, null],
    [Number.NaN, now, null],
    [Number.POSITIVE_INFINITY, now, null],
    [-1, now, null],
    [0, now, 0],
    [1, now, 1000],
    [2.5, now, 2500],
    [65, now, MAX_RESET_WAIT_MS],
    [66, now, MAX_RESET_WAIT_MS],
    [999_999_999, now, MAX_RESET_WAIT_MS],
    [1_000_000_000, now, 0],
    [1_700_000_000, now, 0],
    [1_700_000_001, now, 1000],
    [1_700_000_060, now, 60_000],
    [1_700_000_066, now, MAX_RESET_WAIT_MS],
    [1_700_000_010, now + 500, 9500],
  ])('Reset %s at server time %i → %s ms', (reset, at, wait) => {
    expect(resetWaitMs(reset, at)).toBe(wait);
  });
});

describe("the server's now, from its Date header and our clock", () => {
  const local = Date.parse('2026-03-01T10:00:00.400Z');
  it.each([
    ['no header', undefined, local],
    ['not a date', 'yesterday-ish', local],
    ['a list', ['Sun, 01 Mar 2026 10:00:00 GMT'], local],
    ['same second: ours, for the sub-second part', 'Sun, 01 Mar 2026 10:00:00 GMT', local],
    ['1 s behind, within the resolution', 'Sun, 01 Mar 2026 09:59:59 GMT', local],
    ['2 s behind: skewed, the header wins', 'Sun, 01 Mar 2026 09:59:58 GMT', Date.parse('2026-03-01T09:59:58Z')],
    ['1 s ahead: skewed, the header wins', 'Sun, 01 Mar 2026 10:00:01 GMT', Date.parse('2026-03-01T10:00:01Z')],
  ] as const)('%s', (_, date, expected) => {
    expect(serverNow(date as string | string[] | undefined, local)).toBe(expected);
  });
});
