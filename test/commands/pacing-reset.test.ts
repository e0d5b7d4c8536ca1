// X-RateLimit-Reset that cannot be trusted (far future, garbage, negative) must neither hang sq nor make it spin:
// a real loopback server that answers every request with `Remaining: 0` and a 429, and sq on a fake clock (in
// process, so that minutes of waiting take none).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/api/http.js';
import { MAX_RESET_WAIT_MS } from '../../src/api/pacing.js';
import { tempDir } from '../helpers/fs.js';
import { sq } from '../helpers/cli.js';
import { fakeSqClock } from '../helpers/clock.js';
import { listenLocal } from '../helpers/net.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function server(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const s = createServer(handler);
  const url = await listenLocal(s);
  closers.push(() => new Promise((r) => s.close(() => r())));
  return url;
}

/** sq's fake clock, from a fixed time: what a test server saw is compared in exact milliseconds. */
const fakeClock = () => fakeSqClock(undefined, 1_700_000_000_000);

/** Always 429 with Remaining 0 and the given Reset; with Retry-After 1 like the documented service, or without. */
function refusing(reset: string, seen: number[], opts: { clock?: { t: number }; retryAfter?: boolean } = {}) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    seen.push(opts.clock ? opts.clock.t : Date.now());
    res.writeHead(429, {
      'content-type': 'application/json',
      ...(opts.retryAfter ? { 'retry-after': '1' } : {}),
      'x-ratelimit-limit': '600',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': reset,
    });
    res.end(JSON.stringify({ error: 'Rate limit exceeded.', type: 'RateLimitExceeded', code: 429 }));
  };
}

describe('an untrustworthy X-RateLimit-Reset', () => {
  it.each(['99999999999', 'garbage', '-5', 'NaN', '1e400'])(
    'Reset: %s waits at most the cap between attempts, then gives up with exit 5 and when to retry',
    async (reset) => {
      const clock = fakeClock();
      const seen: number[] = [];
      const baseUrl = await server(refusing(reset, seen, { clock }));
      const { code, stderr } = await sq(['me'], {
        env: { SQ_BASE_URL: baseUrl, SQ_TOKEN: 'sq-test-key-1234', SQ_CACHE_DIR: tempDir('sq-cache-') },
        clock,
      });
      expect(code).toBe(5);
      // No Retry-After: the backoff of 1, 2, 4, 8 s, and 16 s as the advice.
      expect(stderr).toMatch(/rate limited on \/v1\/me after 5 attempts; retry after 16 s/);
      // The normal give-up: 5 attempts, not a storm.
      expect(seen).toHaveLength(5);
      // Never one wait beyond the cap (plus the 0-1 s jitter of a 429 pause) …
      expect(Math.max(...clock.slept)).toBeLessThanOrEqual(MAX_RESET_WAIT_MS + 1000);
      // … and between attempts no more than that either.
      for (let i = 1; i < seen.length; i++) expect(seen[i] - seen[i - 1]).toBeLessThanOrEqual(MAX_RESET_WAIT_MS + 1000);
    },
  );

  /** Two GETs of /v1/me from one client, the first answered 200 with Remaining 0 and this Reset: the ms between them. */
  async function gapAfter(reset: string): Promise<number> {
    const clock = fakeClock();
    const seen: number[] = [];
    const baseUrl = await server((_req, res) => {
      seen.push(clock.t);
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': reset,
      });
      res.end('{}');
    });
    const http = new HttpClient({ baseUrl, token: 'sq-test-key-1234', now: clock.now, sleep: clock.sleep });
    closers.push(() => http.close());
    await http.get('/v1/me');
    await http.get('/v1/me');
    return seen[1] - seen[0];
  }

  it('Remaining 0 with a Reset in the year 5138 on a success waits the cap, not 3000 years', async () => {
    expect(await gapAfter('99999999999')).toBe(MAX_RESET_WAIT_MS);
  });

  it('Reset: 3 (seconds until the reset, as some services send it) is waited for, not read as 1970', async () => {
    const gap = await gapAfter('3');
    expect(gap).toBeGreaterThanOrEqual(3000);
    expect(gap).toBeLessThan(4000);
  });

  it('a Reset in the past holds nothing back', async () => {
    // The window that Remaining 0 spoke of is over, and /v1/me has no documented limit: the next goes at once.
    expect(await gapAfter(String(Math.floor(Date.now() / 1000) - 30))).toBe(0);
  });

  it('a far-future Reset with Retry-After gives exit 5 after 5 requests spaced by the Retry-After', async () => {
    const clock = fakeClock();
    const seen: number[] = [];
    const baseUrl = await server(refusing('99999999999', seen, { clock, retryAfter: true }));
    const { code, stderr } = await sq(['me'], {
      env: { SQ_BASE_URL: baseUrl, SQ_TOKEN: 'sq-test-key-1234', SQ_CACHE_DIR: tempDir('sq-cache-') },
      clock,
    });
    expect(code).toBe(5);
    expect(stderr).toMatch(/rate limited on \/v1\/me after 5 attempts; retry after 1 s/);
    // A hang would be a wait of the Reset's decades, a spin thousands of requests.
    expect(seen).toHaveLength(5);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i] - seen[i - 1]).toBeGreaterThanOrEqual(1000);
      expect(seen[i] - seen[i - 1]).toBeLessThanOrEqual(2000);
    }
  });
});
