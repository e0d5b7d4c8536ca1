// Pacing decisions beside test/unit/pacing.test.ts (which has the tables of the rewritten pacing: the prefix of a path,
// the verdict, what answers change): the wait a Reset header asks for, and the server's "now". No HTTP.
import { describe, expect, it } from 'vitest';
import { MAX_RESET_WAIT_MS, resetWaitMs } from '../../src/api/pacing.js';
import { serverNow } from '../../src/api/pacing.js';

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
