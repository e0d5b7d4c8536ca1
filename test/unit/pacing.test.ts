// The pacing decisions (src/api/pacing.ts) as pure functions of a prefix's state and the time, by table; then the
// Bucket that runs them, on a fake clock.
import { describe, expect, it } from 'vitest';
import {
  Bucket,
  DOCUMENTED,
  MAX_RESET_WAIT_MS,
  UNSEEN,
  UNSEEN_MARGIN,
  bucketFor,
  comfortable,
  emptyState,
  markAnswer,
  markPause,
  markSent,
  reserveOf,
  resetWaitMs,
  verdict,
  waitNotice,
  type PaceState,
  type ServerBudget,
} from '../../src/api/pacing.js';
import { fakeTime } from '../helpers/clock.js';

const T = 1_700_000_000_000;

describe('the prefix a path is paced under', () => {
  it.each([
    ['/v1/squids', 'squids'],
    ['/v1/squids/abc/empty', 'squids'],
    ['/v1/runs/abc/tasks', 'runs'],
    ['/v1/runtasks', 'runtasks'],
    ['/v1/tasks/upload/1', 'tasks'],
    ['/v1/results', 'results'],
    ['/v1/me', 'me'],
    ['/v1/delivery', 'delivery'],
    ['/v1/squidsx', 'squidsx'],
    ['/download/file.csv', 'other'],
    ['/v1/', 'other'],
  ])('%s → %s', (path, bucket) => {
    expect(bucketFor(path)).toBe(bucket);
  });

  it('the documented limits are kept at 90%, as counts per window', () => {
    expect(DOCUMENTED).toEqual({
      squids: { count: 108, windowMs: 60_000 },
      runs: { count: 108, windowMs: 60_000 },
      tasks: { count: 81, windowMs: 60_000 },
      runtasks: { count: 81, windowMs: 60_000 },
      results: { count: 1, windowMs: 550 },
    });
  });

  it.each([
    [null, 0],
    [2, 0],
    [12, 0],
    [120, 6],
    [600, 30],
  ])('the reserve below a Limit of %s is %s', (limit, reserve) => {
    expect(reserveOf(limit)).toBe(reserve);
  });
});

const server = (b: Partial<ServerBudget>): ServerBudget => ({
  limit: 600,
  remaining: 599,
  seq: 0,
  resetAt: T + 30_000,
  until: T + 30_000,
  ...b,
});
const state = (s: Partial<PaceState>): PaceState => ({ ...emptyState(), ...s });
const squids = DOCUMENTED.squids;
const results = DOCUMENTED.results;
const times = (n: number, from: number, step = 0) => Array.from({ length: n }, (_, i) => from + i * step);

describe('verdict: whether a request may go now', () => {
  it.each<[string, PaceState, (typeof DOCUMENTED)[string] | undefined, number, { wait: number; reason?: string }]>([
    ['cold, undocumented prefix: at once', state({}), undefined, T, { wait: 0 }],
    ['undocumented prefix, 10,000 sent in a second: still at once', state({ seq: 10_000 }), undefined, T, { wait: 0 }],
    [
      'cold, documented: 107 in the last minute, at once',
      state({ sent: times(107, T - 59_000, 100) }),
      squids,
      T,
      { wait: 0 },
    ],
    [
      'cold, documented: 108 in the last minute, wait for the oldest to leave it',
      state({ sent: times(108, T - 59_000, 100) }),
      squids,
      T,
      { wait: 1000, reason: 'window' },
    ],
    [
      'cold, documented: 108 sent over a minute ago, at once',
      state({ sent: times(108, T - 70_000, 10) }),
      squids,
      T,
      { wait: 0 },
    ],
    ['cold results: one per 550 ms', state({ sent: [T - 200] }), results, T, { wait: 350, reason: 'window' }],
    ['cold results: 550 ms after, at once', state({ sent: [T - 550] }), results, T, { wait: 0 }],
    [
      'server budget left: at once, however many the documented window holds',
      state({ seq: 200, sent: times(108, T - 1000, 5), server: server({ seq: 200 }) }),
      squids,
      T,
      { wait: 0 },
    ],
    [
      'server budget less what was sent since: 0 left, wait for Reset',
      state({ seq: 10, server: server({ limit: 12, remaining: 5, seq: 5 }) }),
      squids,
      T,
      { wait: 30_010, reason: 'budget' },
    ],
    [
      'server budget less what was sent since: 1 left, at once',
      state({ seq: 9, server: server({ limit: 12, remaining: 5, seq: 5 }) }),
      squids,
      T,
      { wait: 0 },
    ],
    [
      'at the reserve (5% of Limit): wait for Reset',
      state({ seq: 0, server: server({ limit: 600, remaining: 30 }) }),
      undefined,
      T,
      { wait: 30_010, reason: 'budget' },
    ],
    [
      'above the reserve: at once',
      state({ seq: 0, server: server({ limit: 600, remaining: 31 }) }),
      undefined,
      T,
      { wait: 0 },
    ],
    [
      'no Limit stated: no reserve',
      state({ server: server({ limit: null, remaining: 1 }) }),
      undefined,
      T,
      { wait: 0 },
    ],
    [
      'Remaining 0 and the window has reset: the Limit again',
      state({ seq: 3, server: server({ limit: 12, remaining: 0, resetAt: T - 1 }) }),
      squids,
      T,
      { wait: 0 },
    ],
    [
      'Remaining 0, window reset, no Limit stated: the documented rule',
      state({ sent: times(108, T - 1000, 1), server: server({ limit: null, remaining: 0, resetAt: T - 1 }) }),
      squids,
      T,
      { wait: 59_000, reason: 'window' },
    ],
    [
      'a new window whose end no answer told yet, used up, a request in flight: look again shortly',
      state({
        seq: 12,
        inflight: [[12, T - 5]],
        server: server({ limit: 12, remaining: 12, seq: 0, resetAt: null, until: T + 50_000 }),
      }),
      squids,
      T,
      { wait: 200, reason: 'budget' },
    ],
    // Its answers failed or were about a window over by our clock: nothing will tell its end (looking every 200 ms
    // lasted the minute the Limit is trusted: the go.test hang). The documented rule, as before any answer.
    [
      'a new window used up, nothing in flight: the documented rule, not a minute of looks',
      state({
        seq: 12,
        sent: times(12, T - 1000, 10),
        server: server({ limit: 12, remaining: 12, seq: 0, resetAt: null, until: T + 50_000 }),
      }),
      squids,
      T,
      { wait: 0 },
    ],
    [
      'results, a new window used up, nothing in flight: one per 550 ms',
      state({
        seq: 4,
        sent: [T - 100],
        server: server({ limit: 2, remaining: 2, seq: 2, resetAt: null, until: T + 59_000 }),
      }),
      results,
      T,
      { wait: 450, reason: 'window' },
    ],
    [
      'a new window used up, nothing in flight, no documented limit: at once (a 429 would pause it)',
      state({ seq: 12, server: server({ limit: 12, remaining: 12, seq: 0, resetAt: null, until: T + 50_000 }) }),
      undefined,
      T,
      { wait: 0 },
    ],
    [
      'a new window trusted for a minute only',
      state({ seq: 12, server: server({ limit: 12, remaining: 12, seq: 0, resetAt: null, until: T - 1 }) }),
      undefined,
      T,
      { wait: 0 },
    ],
    [
      'a 429 pause holds everything',
      state({ pausedUntil: T + 4000, server: server({}) }),
      undefined,
      T,
      { wait: 4000, reason: 'paused' },
    ],
  ])('%s', (_name, s, rule, now, expected) => {
    expect(verdict(s, rule, now)).toEqual(expected);
  });
});

describe('what answers and sends change', () => {
  it('an answer records the server budget, less the requests still unanswered', () => {
    const s = emptyState();
    const a = markSent(s, squids, T);
    const b = markSent(s, squids, T + 1);
    const c = markSent(s, squids, T + 2);
    // b's answer: Remaining 10; a and c are in flight and may not be counted in it yet.
    markAnswer(s, b, { limit: 12, remaining: 10, resetAt: T + 20_005 }, T + 5);
    expect(s.server).toEqual({ limit: 12, remaining: 8, seq: 3, resetAt: T + 20_005, until: T + 20_005 });
    expect(s.inflight.map(([q]) => q)).toEqual([a, c]);
    markAnswer(s, a, null, T + 6);
    expect(s.inflight.map(([q]) => q)).toEqual([c]);
    expect(s.server?.remaining).toBe(8);
  });

  it('a late answer from a window already replaced by a newer one is not believed', () => {
    const s = state({ seq: 4, server: server({ remaining: 500, seq: 4, resetAt: T + 60_000 }) });
    markAnswer(s, 1, { limit: 600, remaining: 2, resetAt: T + 1000 }, T);
    expect(s.server?.remaining).toBe(500);
  });

  it('an answer about a window that has reset since is not believed: the sends of the new window still count', () => {
    const s = state({ seq: 5, server: server({ limit: 2, remaining: 0, seq: 5, resetAt: T }) });
    // The window reset: its Limit is the budget; one request goes, and fails (the server may have counted it).
    expect(verdict(s, results, T + 10)).toEqual({ wait: 0 });
    markAnswer(s, markSent(s, results, T + 10), null, T + 12);
    // A request of the old window is answered late: Remaining 1, Reset now past. One request is left, not two.
    markAnswer(s, 5, { limit: 2, remaining: 1, resetAt: T }, T + 16);
    expect(verdict(s, results, T + 17)).toEqual({ wait: 0 });
    markSent(s, results, T + 17);
    expect(verdict(s, results, T + 18)).toEqual({ wait: 200, reason: 'budget' });
  });

  it('a new window while requests of the old one are unanswered: they count until answered, then the Limit is free', () => {
    const s = state({ seq: 7, server: server({ limit: 2, remaining: 0, seq: 7, resetAt: T }) });
    markSent(s, results, T - 30);
    markSent(s, results, T - 20);
    expect(verdict(s, results, T + 10)).toEqual({ wait: 200, reason: 'budget' });
    // Both answered about the old window (counted there): the new window's 2 are free.
    markAnswer(s, 8, { limit: 2, remaining: 1, resetAt: T }, T + 50);
    markAnswer(s, 9, { limit: 2, remaining: 0, resetAt: T }, T + 60);
    expect(verdict(s, results, T + 70)).toEqual({ wait: 0 });
    markSent(s, results, T + 70);
    expect(verdict(s, results, T + 71)).toEqual({ wait: 0 });
  });

  it('answers out of order: the one the server counted first, answered last, does not raise the count', () => {
    // The converted state of a new window of 2; requests 10 and 11 go at once.
    const s = state({ seq: 9, server: server({ limit: 2, remaining: 2, seq: 9, resetAt: null, until: T + 60_000 }) });
    const a = markSent(s, results, T + 21);
    const b = markSent(s, results, T + 24);
    // The server counted a, then b; b is answered first (Remaining 0), then a (Remaining 1).
    markAnswer(s, b, { limit: 2, remaining: 0, resetAt: T + 1000 }, T + 100);
    markAnswer(s, a, { limit: 2, remaining: 1, resetAt: T + 1000 }, T + 130);
    expect(verdict(s, results, T + 140)).toEqual({ wait: 870, reason: 'budget' });
  });

  it('a 429 pause spends the server window until it ends', () => {
    const s = state({ seq: 7, server: server({ remaining: 100, seq: 2, resetAt: T + 1000 }) });
    markPause(s, 5000, T);
    expect(s.pausedUntil).toBe(T + 5000);
    expect(s.server).toMatchObject({ remaining: 0, seq: 7, resetAt: T + 5000 });
    expect(verdict(s, undefined, T + 4999)).toEqual({ wait: 1, reason: 'paused' });
    // After it, the last Limit is the budget again.
    expect(verdict(s, undefined, T + 5000)).toEqual({ wait: 0 });
  });

  it('the documented window keeps only as many send times as it counts', () => {
    const s = emptyState();
    for (let i = 0; i < 300; i++) markSent(s, squids, T + i);
    expect(s.sent).toHaveLength(108);
    const u = emptyState();
    for (let i = 0; i < 300; i++) markSent(u, undefined, T + i);
    expect(u.sent).toHaveLength(0);
  });
});

describe('comfortable: a request that may go unseen, recorded with its answer', () => {
  const budget = (remaining: number, limit = 600): ServerBudget => ({
    limit,
    remaining,
    seq: 0,
    resetAt: T + 30_000,
    until: T + 30_000,
  });
  it.each([
    ['a prefix nobody has paced yet', emptyState(), undefined, true],
    ['a 429 pause', { ...emptyState(), pausedUntil: T + 1 }, undefined, false],
    [
      'a server budget with the margin and its reserve to spare',
      { ...emptyState(), server: budget(30 + UNSEEN_MARGIN + 1) },
      undefined,
      true,
    ],
    [
      'a server budget down to the margin and its reserve (5% of 600)',
      { ...emptyState(), server: budget(30 + UNSEEN_MARGIN) },
      undefined,
      false,
    ],
    [
      'a server budget less what was sent since it was said',
      { ...emptyState(), seq: 10, server: budget(30 + UNSEEN_MARGIN + 5) },
      undefined,
      false,
    ],
    [
      'the documented window (108 a minute on squids) with room',
      { ...emptyState(), sent: Array(108 - UNSEEN_MARGIN - 1).fill(T - 1000) },
      DOCUMENTED.squids,
      true,
    ],
    [
      'the documented window down to the margin',
      { ...emptyState(), sent: Array(108 - UNSEEN_MARGIN).fill(T - 1000) },
      DOCUMENTED.squids,
      false,
    ],
    ['results, one request every 550 ms: never', emptyState(), DOCUMENTED.results, false],
  ] as const)('%s: %s', (_what, state, rule, expected) => {
    expect(comfortable(structuredClone(state) as PaceState, rule, T)).toBe(expected);
  });

  it('an unseen request is counted with its answer: sent once, not in flight, and what the server said kept', () => {
    const s: PaceState = { ...emptyState(), seq: 4, inflight: [[4, T - 10]] };
    markAnswer(s, UNSEEN, { limit: 120, remaining: 100, resetAt: T + 20_000 }, T, DOCUMENTED.squids);
    expect(s.seq).toBe(5);
    expect(s.sent).toEqual([T]);
    // The other process's request is still in flight, and the server's Remaining is taken down by it.
    expect(s.inflight).toEqual([[4, T - 10]]);
    expect(s.server).toEqual({ limit: 120, remaining: 99, seq: 5, resetAt: T + 20_000, until: T + 20_000 });
    // A failed one counts as sent all the same: it may have reached the server.
    markAnswer(s, UNSEEN, null, T + 5, DOCUMENTED.squids);
    expect(s.seq).toBe(6);
    expect(s.sent).toEqual([T, T + 5]);
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

describe('the Bucket', () => {
  it('results, cold: spaced 550 ms apart', async () => {
    const clock = fakeTime(T);
    const b = new Bucket('results', clock.now, clock.sleep);
    const at: number[] = [];
    for (let i = 0; i < 5; i++) {
      await b.acquire();
      at.push(clock.t - T);
    }
    expect(at).toEqual([0, 550, 1100, 1650, 2200]);
  });

  it('following the server: at once while its budget lasts, then at its Reset', async () => {
    const clock = fakeTime(T);
    const b = new Bucket('squids', clock.now, clock.sleep);
    const at: number[] = [];
    // A clock-aligned window of 12 that ends at T + 40 s, then one that ends at T + 100 s.
    let remaining = 12;
    for (let i = 0; i < 14; i++) {
      const ticket = await b.acquire();
      at.push(clock.t - T);
      const end = clock.t < T + 40_000 ? T + 40_000 : T + 100_000;
      if (i === 12) remaining = 12;
      b.answered(ticket, { limit: 12, remaining: --remaining, resetAt: end });
    }
    expect(at.slice(0, 12)).toEqual(Array(12).fill(0));
    expect(at[12]).toBe(40_010);
    expect(at[13]).toBe(40_010);
  });

  it('a wait longer than 2 s is told once, with the prefix, how long and why', async () => {
    const clock = fakeTime(T);
    const lines: string[] = [];
    const b = new Bucket('squids', clock.now, clock.sleep, undefined, (l) => lines.push(l));
    const ticket = await b.acquire();
    b.answered(ticket, { limit: 12, remaining: 0, resetAt: T + 30_000 });
    await b.acquire();
    expect(lines).toEqual([
      "waiting 31 s before the next /v1/squids request: the server's rate budget for it is spent until its window resets",
    ]);
    b.pause(1500);
    await b.acquire();
    expect(lines).toHaveLength(1);
    b.pause(5000);
    await b.acquire();
    expect(lines[1]).toMatch(
      /^waiting 5 s before the next \/v1\/squids request: the server refused a request there \(429\)/,
    );
  });

  it('the notice for the documented window names it', () => {
    expect(waitNotice('runs', { wait: 12_000, reason: 'window' }, DOCUMENTED.runs)).toBe(
      'waiting 12 s before the next /v1/runs request: sq keeps to 108 requests per 60 s there (90% of the documented limit) until the server states its own',
    );
  });
});
