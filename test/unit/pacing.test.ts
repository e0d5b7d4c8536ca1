import { describe, expect, it } from 'vitest';
import { Bucket, BUCKETS, MAX_RESET_WAIT_MS, bucketFor, resetWaitMs } from '../../src/api/pacing.js';
import { fakeTime } from '../helpers/clock.js';

describe('pacing buckets', () => {
  it.each([
    ['/v1/squids', 'squids'],
    ['/v1/squids/abc/empty', 'squids'],
    ['/v1/runs/abc/tasks', 'runs'],
    ['/v1/runtasks', 'runtasks'],
    ['/v1/tasks/upload/1', 'tasks'],
    ['/v1/results', 'results'],
    ['/v1/me', 'default'],
    ['/v1/delivery', 'default'],
  ])('%s is paced as %s', (path, bucket) => {
    expect(bucketFor(path)).toBe(bucket);
  });

  it('results are spaced 550 ms apart with no burst', async () => {
    const clock = fakeTime();
    const b = new Bucket(BUCKETS.results, clock.now, clock.sleep);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      await b.acquire();
      times.push(clock.t);
    }
    expect(times).toEqual([0, 550, 1100, 1650, 2200]);
  });

  it('squids allow a burst of 10, then 1.8 per second', async () => {
    const clock = fakeTime();
    const b = new Bucket(BUCKETS.squids, clock.now, clock.sleep);
    for (let i = 0; i < 10; i++) await b.acquire();
    expect(clock.t).toBe(0);
    await b.acquire();
    expect(clock.t).toBe(Math.ceil(1000 / 1.8));
  });

  it('a pause (429 Retry-After) holds the whole bucket', async () => {
    const clock = fakeTime();
    const b = new Bucket(BUCKETS.squids, clock.now, clock.sleep);
    await b.acquire();
    b.pause(2000);
    await b.acquire();
    expect(clock.t).toBeGreaterThanOrEqual(2000);
  });

  it('Remaining 0 from the server waits for its reset', async () => {
    const clock = fakeTime();
    const b = new Bucket(BUCKETS.runs, clock.now, clock.sleep);
    await b.acquire();
    b.observe(0, 7000);
    await b.acquire();
    expect(clock.t).toBeGreaterThanOrEqual(7000);
  });

  it('Remaining below our tokens tightens the bucket', async () => {
    const clock = fakeTime();
    const b = new Bucket(BUCKETS.squids, clock.now, clock.sleep);
    b.observe(1, null);
    await b.acquire();
    expect(clock.t).toBe(0);
    await b.acquire();
    expect(clock.t).toBeGreaterThan(0);
  });
});

describe('X-RateLimit-Reset', () => {
  const serverNow = 1_700_000_000_000;
  it.each([
    [null, null],
    [Number.NaN, null],
    [-5, null],
    [1_700_000_030, 30_000],
    [1_699_999_000, 0],
    [99_999_999_999, MAX_RESET_WAIT_MS],
    // Seconds until the reset, as some services send it.
    [3, 3000],
    [0, 0],
    [3600, MAX_RESET_WAIT_MS],
  ])('%s → wait %s ms', (reset, wait) => {
    expect(resetWaitMs(reset, serverNow)).toBe(wait);
  });
});
