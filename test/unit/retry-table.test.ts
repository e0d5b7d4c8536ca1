// RetryPolicy, table by table (reliability.md): what is retried and after how long, for each method and failure,
// with the random source and the clock fixed. No HTTP: the e2e and command tests cover the client that uses it.
import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../../src/errors.js';
import { MAX_RETRIES, RetryBudget, RetryPolicy, SAFE_METHODS, secondsInMessage } from '../../src/api/retry.js';
import { NOT_SENT_CODES, REFUSED_RETRIES, REFUSED_RETRY_MS } from '../../src/api/http-errors.js';

/** A policy with a fixed random value (0.5 unless given), a clock the test moves, and a budget of `budget`. */
function policy(method: string, opts: { random?: number; budget?: number } = {}) {
  let t = 1_000_000;
  const budget = new RetryBudget(opts.budget ?? 10);
  const p = new RetryPolicy(
    method,
    budget,
    () => t,
    () => opts.random ?? 0.5,
  );
  return { p, budget, tick: (ms: number) => void (t += ms) };
}

const METHODS = ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'POST', 'PUT', 'PATCH'];
const SAFE = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

describe('which methods are safe to repeat', () => {
  it.each(METHODS)('%s', (m) => {
    expect(SAFE_METHODS.has(m)).toBe(SAFE.has(m));
    expect(policy(m).p.safe).toBe(SAFE.has(m));
  });
});

describe('network errors: retried or not, by method and code (first failure)', () => {
  // [code, inBody, safe method retries, write retries]
  const table: Array<[string | undefined, boolean, boolean, boolean]> = [
    ['ECONNREFUSED', false, true, true],
    ['ENOTFOUND', false, true, true],
    ['EAI_AGAIN', false, true, true],
    ['UND_ERR_CONNECT_TIMEOUT', false, true, true],
    ['ECONNRESET', false, true, false],
    ['EPIPE', false, true, false],
    ['ETIMEDOUT', false, true, false],
    ['UND_ERR_SOCKET', false, true, false],
    ['UND_ERR_HEADERS_TIMEOUT', false, true, false],
    ['UND_ERR_BODY_TIMEOUT', false, true, false],
    ['UND_ERR_CLOSED', false, true, false],
    // A failure in the middle of the answer: the write may have acted, never repeated; a read is.
    ['ENOTFOUND', true, true, false],
    ['ECONNRESET', true, true, false],
    ['EACCES', false, false, false],
    ['ERR_SOMETHING_ELSE', false, false, false],
    [undefined, false, false, false],
  ];
  it.each(table)('%s (in body: %s): GET %s, POST %s', (code, inBody, safeRetries, writeRetries) => {
    expect(policy('GET').p.afterNetworkError(code, inBody) !== null).toBe(safeRetries);
    expect(policy('POST').p.afterNetworkError(code, inBody) !== null).toBe(writeRetries);
    expect(policy('PATCH').p.afterNetworkError(code, inBody) !== null).toBe(writeRetries);
  });

  it('the codes a write may retry are exactly the never-sent ones', () => {
    for (const c of NOT_SENT_CODES) expect(policy('POST').p.afterNetworkError(c), c).not.toBeNull();
  });
});

describe('a refused connection: one quick retry, then give up', () => {
  it.each(['GET', 'POST'])('%s', (m) => {
    const { p } = policy(m);
    const waits = Array.from({ length: 4 }, () => p.afterNetworkError('ECONNREFUSED'));
    expect(REFUSED_RETRIES).toBe(1);
    expect(waits).toEqual([REFUSED_RETRY_MS, null, null, null]);
  });
});

describe('statuses: only 502, 503 and 504 are retried, and only for safe methods', () => {
  const statuses = [400, 401, 403, 404, 409, 422, 500, 501, 502, 503, 504, 505];
  const retried = new Set([502, 503, 504]);
  it.each(statuses.flatMap((s) => METHODS.map((m) => [s, m] as const)))('%i on %s', (status, m) => {
    expect(policy(m).p.afterStatus(status) !== null).toBe(retried.has(status) && SAFE.has(m));
  });
});

describe('back-off: full jitter of min(20 s, 0.5 s × 2^attempt), at most MAX_RETRIES times', () => {
  // With random() = r, retry n (0-based) waits floor(r × min(20000, 500 × 2^n)).
  it.each([
    [0, [0, 0, 0, 0, null]],
    [0.5, [250, 500, 1000, 2000, null]],
    [0.999, [499, 999, 1998, 3996, null]],
  ] as const)('random() = %s', (r, expected) => {
    const { p } = policy('GET', { random: r });
    expect(MAX_RETRIES).toBe(4);
    expect(Array.from({ length: 5 }, () => p.afterStatus(503))).toEqual(expected);
  });

  it('network errors and statuses share the attempts', () => {
    const { p } = policy('GET');
    expect([
      p.afterStatus(503),
      p.afterNetworkError('ECONNRESET'),
      p.afterStatus(502),
      p.afterNetworkError('ETIMEDOUT'),
      p.afterStatus(504),
    ]).toEqual([250, 500, 1000, 2000, null]);
  });

  it('the 20 s cap holds for any attempt', () => {
    // The cap only shows past MAX_RETRIES with the default budget; the formula is the one asserted above, and no
    // wait ever exceeds 20 s whatever the random value.
    for (const r of [0, 0.3, 0.999999]) {
      const { p } = policy('GET', { random: r });
      for (let i = 0; i < MAX_RETRIES; i++) expect(p.afterStatus(503)!).toBeLessThanOrEqual(20_000);
    }
  });
});

describe('the retry budget a command shares', () => {
  it.each([
    [0, [null]],
    [1, [250, null]],
    [2, [250, 500, null]],
    [10, [250, 500, 1000, 2000, null]],
  ] as const)('a budget of %i', (budget, expected) => {
    const { p } = policy('GET', { budget });
    expect(Array.from({ length: expected.length }, () => p.afterStatus(503))).toEqual(expected);
  });

  it('is spent across requests, and each success earns back a tenth of a retry, up to the max', () => {
    const budget = new RetryBudget(2);
    const a = new RetryPolicy(
      'GET',
      budget,
      () => 0,
      () => 0,
    );
    const b = new RetryPolicy(
      'GET',
      budget,
      () => 0,
      () => 0,
    );
    expect([a.afterStatus(503), b.afterStatus(503), b.afterStatus(503)]).toEqual([0, 0, null]);
    for (let i = 0; i < 9; i++) a.succeeded();
    expect(budget.take()).toBe(false);
    // Ten tenths add up to 0.9999… in floating point: the eleventh success is the one that earns the retry back.
    a.succeeded();
    a.succeeded();
    expect(budget.take()).toBe(true);
    for (let i = 0; i < 100; i++) a.succeeded();
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false]);
  });

  it('a refused connection draws on it too', () => {
    expect(policy('GET', { budget: 0 }).p.afterNetworkError('ECONNREFUSED')).toBeNull();
  });
});

describe('429: the pause, from Retry-After, else the body, else 1, 2, 4, 8 s; plus up to 1 s of jitter', () => {
  const throttled = 'Request was throttled. Expected available in 3 seconds.';
  it.each([
    ['Retry-After: 7', { 'retry-after': '7' }, '', 0, 7_000],
    ['Retry-After: 7 beats the body', { 'retry-after': '7' }, throttled, 0, 7_000],
    ['Retry-After: 1.2 rounds up', { 'retry-after': '1.2' }, '', 0, 2_000],
    ['Retry-After: 0', { 'retry-after': '0' }, '', 0, 0],
    ['Retry-After: -3 is 0', { 'retry-after': '-3' }, '', 0, 0],
    ['the body', {}, throttled, 0, 3_000],
    ['nothing: 1 s', {}, '', 0, 1_000],
    ['jitter 0.5', { 'retry-after': '2' }, '', 0.5, 2_500],
    ['jitter 0.999', {}, '', 0.999, 1_999],
  ] as const)('%s', (_, headers, body, random, wait) => {
    expect(policy('GET', { random }).p.afterRateLimit(headers, body, '/v1/me')).toBe(wait);
  });

  it('without advice, the back-off doubles: 1, 2, 4, 8 s, then exit 5 at the fifth in a row', () => {
    const { p } = policy('GET', { random: 0 });
    const waits = Array.from({ length: 4 }, () => p.afterRateLimit({}, '', '/v1/runs'));
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(() => p.afterRateLimit({}, '', '/v1/runs')).toThrow(RateLimitError);
  });

  it('the give-up names the path, the attempts, the advice and the server message, as a 429 RateLimitError', () => {
    const { p } = policy('POST');
    for (let i = 0; i < 4; i++) p.afterRateLimit({ 'retry-after': '1' }, '', '/v1/runs');
    let err: unknown;
    try {
      p.afterRateLimit({ 'retry-after': '3' }, JSON.stringify({ detail: 'Slow down' }), '/v1/runs');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as Error).message).toBe('rate limited on /v1/runs after 5 attempts; retry after 3 s (Slow down)');
    expect(err).toMatchObject({ status: 429, retryAfter: 3 });
  });

  it('another status in between starts the count again', () => {
    const { p } = policy('GET', { random: 0 });
    for (let i = 0; i < 4; i++) p.afterRateLimit({}, '', '/v1/me');
    expect(p.afterStatus(503)).toBe(0);
    expect(p.afterRateLimit({}, '', '/v1/me')).toBe(1_000);
  });

  it.each([
    // [ms already waited since the first 429, Retry-After s, gives up]
    [0, 301, true],
    [0, 300, false],
    [200_000, 100, false],
    [200_000, 101, true],
    [299_000, 1, false],
    [299_001, 1, true],
  ] as const)('five minutes in all: %i ms waited + Retry-After %i s → gives up: %s', (waited, retryAfter, givesUp) => {
    const { p, tick } = policy('GET', { random: 0 });
    p.afterRateLimit({ 'retry-after': '0' }, '', '/v1/me');
    tick(waited);
    const next = () => p.afterRateLimit({ 'retry-after': String(retryAfter) }, '', '/v1/me');
    if (givesUp) expect(next).toThrow(RateLimitError);
    else expect(next()).toBe(retryAfter * 1000);
  });
});

describe('the wait a DRF-style 429 body states', () => {
  it.each([
    ['Request was throttled. Expected available in 2 seconds.', 2],
    ['Request was throttled. Expected available in 1 second.', 1],
    ['expected AVAILABLE IN 2.2 seconds', 3],
    ['{"detail":"Request was throttled. Expected available in 59 seconds."}', 59],
    ['Request was throttled.', null],
    ['', null],
    ['available in soon seconds', null],
  ] as const)('%j → %s', (text, s) => {
    expect(secondsInMessage(text)).toBe(s);
  });
});
