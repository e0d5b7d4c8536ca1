// The two 429 bodies the docs show (api-reference §3: a client must take both), each where the emulator answers it:
// the rate-limiting page's {error, type, code} for the limits of its table, the errors page's DRF throttle
// {detail: "Request was throttled. Expected available in N seconds."} where the table gives none.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';

let e: TestEmu | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

// 1 s into a minute, moved by no one: every call of a test falls in one window.
const rateClock = () => Math.ceil(Date.now() / 60_000) * 60_000 + 1000;

describe('429 bodies (rate-limiting page, errors page)', () => {
  it(
    "a path the rate-limiting table leaves out (/v1/accounts, /v1/me) answers the errors page's " +
      'DRF throttle, with Retry-After and the same seconds in the text',
    async () => {
      const at = rateClock();
      e = await startTestEmulator({ rateLimits: 0.01, rateClock: () => at });
      for (const path of ['/v1/accounts', '/v1/me']) {
        const replies = [];
        for (let i = 0; i < 7; i++) replies.push(await e.api('GET', path));
        // 600 a minute at 1%: six pass, the seventh is refused.
        expect(
          replies.map((r) => r.status),
          path,
        ).toEqual([200, 200, 200, 200, 200, 200, 429]);
        const refused = replies[6];
        expect(refused.headers.get('retry-after')).toBe('59');
        expect(refused.body).toEqual({ detail: 'Request was throttled. Expected available in 59 seconds.' });
      }
    },
  );

  it("a path of the table (/v1/squids) keeps the rate-limiting page's body", async () => {
    const at = rateClock();
    e = await startTestEmulator({ rateLimits: 0.01, rateClock: () => at });
    const replies = [await e.api('GET', '/v1/squids'), await e.api('GET', '/v1/squids')];
    expect(replies.map((r) => r.status)).toEqual([200, 429]);
    expect(replies[1].body).toEqual({
      error: 'Rate limit exceeded. Please try again later.',
      type: 'RateLimitExceeded',
      code: 429,
    });
  });

  it('one second left is said in the singular, as DRF says it', async () => {
    const start = rateClock();
    let at = start;
    e = await startTestEmulator({ rateLimits: 0.01, rateClock: () => at });
    for (let i = 0; i < 6; i++) await e.api('GET', '/v1/accounts');
    at = start + 58_500;
    const refused = await e.api('GET', '/v1/accounts');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: 'Request was throttled. Expected available in 1 second.' });
  });
});
