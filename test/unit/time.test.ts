// Every timestamp form of the service parses to the same instant (api-reference §15); nothing else is guessed at.
import { describe, expect, it } from 'vitest';
import { compareApiTime, parseApiTime } from '../../src/lib/api-time.js';

const T = Date.UTC(2025, 1, 10, 14, 27, 45);

describe('parseApiTime', () => {
  it.each([
    ['2025-02-10T14:27:45Z', T],
    ['2025-02-10T14:27:45.847633', T + 847],
    ['2025-02-10T14:27:45', T],
    ['2025-02-10T14:27:45.123Z', T + 123],
    ['2025-02-10T15:27:45+01:00', T],
    ['2025/02/10 14:27:45', T],
    ['10/02/2025 14:27:45', T],
  ])('%s', (text, ms) => expect(parseApiTime(text)).toBe(ms));

  it.each([[''], ['yesterday'], ['2025-02-30T00:00:00'], ['2025-02-10T25:00:00Z'], [1739197665], [null]])(
    '%j is not a timestamp',
    (v) => expect(parseApiTime(v)).toBeNull(),
  );
});

describe('compareApiTime', () => {
  it('orders the "…Z" and microsecond forms by instant, not by text', () => {
    // As text, "…45Z" sorts after "…45.5": the instant says the other way round.
    const list = ['2025-02-10T14:27:45.500000', '2025-02-10T14:27:45Z', 'not a time', '2025-02-10T14:27:44.999999'];
    expect([...list].sort(compareApiTime)).toEqual([
      '2025-02-10T14:27:44.999999',
      '2025-02-10T14:27:45Z',
      '2025-02-10T14:27:45.500000',
      'not a time',
    ]);
  });
});
