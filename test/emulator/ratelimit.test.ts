import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';

let e: TestEmu | undefined;
// The rate windows' clock for the tests that count within one window: 1 s into a minute, moved only by a test, so
// no sequence straddles a window's end on a loaded machine (the emulator's own default is real time).
let t = 0;
const rateClock = () => t;
beforeEach(() => {
  t = Math.ceil(Date.now() / 60_000) * 60_000 + 1000;
});
afterEach(async () => {
  await e?.close();
  e = undefined;
});

describe('rate limits', () => {
  it('sends the documented limits in X-RateLimit-Limit per prefix, with Remaining, Reset and Date', async () => {
    e = await startTestEmulator({ rateLimits: 'on' });
    const paris = e.squidId('Paris restaurants');
    const runs = await e.api('GET', `/v1/runs?squid=${paris}`);
    const run = runs.body.data[0].id;
    const cases: [string, string][] = [
      [`/v1/squids`, '120'],
      [`/v1/runs?squid=${paris}`, '120'],
      [`/v1/tasks?squid=${paris}`, '90'],
      [`/v1/runtasks?run=${run}`, '90'],
      [`/v1/results?squid=${paris}`, '2'],
      ['/v1/me', '600'],
      ['/v1/accounts', '600'],
    ];
    for (const [path, limit] of cases) {
      const r = await e.api('GET', path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('x-ratelimit-limit'), path).toBe(limit);
      const date = Date.parse(r.headers.get('date') ?? '');
      const reset = Number(r.headers.get('x-ratelimit-reset'));
      expect(Number.isInteger(reset)).toBe(true);
      expect(reset * 1000).toBeGreaterThanOrEqual(date);
      expect(reset * 1000 - date).toBeLessThanOrEqual(61_000);
    }
    const a = await e.api('GET', '/v1/squids');
    const b = await e.api('GET', '/v1/squids');
    expect(Number(b.headers.get('x-ratelimit-remaining'))).toBe(Number(a.headers.get('x-ratelimit-remaining')) - 1);
  });

  it('limits /v1/results to 2 per second with the 429 body and Retry-After', async () => {
    e = await startTestEmulator({ rateLimits: 'on', rateClock });
    const paris = e.squidId('Paris restaurants');
    const replies = [];
    for (let i = 0; i < 3; i++) replies.push(await e.api('GET', `/v1/results?squid=${paris}`));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 429]);
    const limited = replies[2];
    expect(limited.body).toEqual({
      error: 'Rate limit exceeded. Please try again later.',
      type: 'RateLimitExceeded',
      code: 429,
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('applies a strict multiplier per prefix; runtasks is its own prefix, apart from runs', async () => {
    e = await startTestEmulator({ rateLimits: 0.05, rateClock });
    const paris = e.squidId('Paris restaurants');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await e.api('GET', '/v1/squids')).status);
    // 120 × 0.05 = 6 per minute
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const limited = await e.api('GET', `/v1/squids/${paris}`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('6');
    const retry = Number(limited.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);

    const runs = await e.api('GET', `/v1/runs?squid=${paris}`);
    expect(runs.status).toBe(200);
    const run = runs.body.data[0].id;
    // 90 × 0.05 = 4 (rounded down) for runtasks; its window is not the one of /v1/runs.
    const rt: number[] = [];
    for (let i = 0; i < 5; i++) rt.push((await e.api('GET', `/v1/runtasks?run=${run}`)).status);
    expect(rt).toEqual([200, 200, 200, 200, 429]);
    expect((await e.api('GET', `/v1/runs/${run}`)).status).toBe(200);
  });

  it.each([
    ['/v1/squids', 6],
    ['/v1/runs?squid=SQUID', 6],
    ['/v1/tasks?squid=SQUID', 4],
    ['/v1/results?squid=SQUID', 1],
    ['/v1/crawlers', 30],
  ])('with multiplier 0.05, %s allows %i then answers 429', async (path, allowed) => {
    e = await startTestEmulator({ rateLimits: 0.05, rateClock });
    const p = path.replace('SQUID', e.squidId('Paris restaurants'));
    const statuses: number[] = [];
    for (let i = 0; i <= allowed; i++) statuses.push((await e.api('GET', p)).status);
    expect(statuses).toEqual([...Array(allowed).fill(200), 429]);
  });

  it('counts per key: another key has its own window', async () => {
    e = await startTestEmulator({ rateLimits: 0.05, rateClock });
    for (let i = 0; i < 6; i++) await e.api('GET', '/v1/squids');
    expect((await e.api('GET', '/v1/squids')).status).toBe(429);
    const other = await e.api('GET', '/v1/squids', undefined, { Authorization: 'Token someone-else' });
    expect(other.status).toBe(401);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('5');
  });

  it('off disables limiting; the control plane can switch it at run time', async () => {
    e = await startTestEmulator({ rateLimits: 'off', rateClock });
    const paris = e.squidId('Paris restaurants');
    for (let i = 0; i < 5; i++) expect((await e.api('GET', `/v1/results?squid=${paris}`)).status).toBe(200);
    const cfg = await e.ctl('POST', '/_emulator/config', { rateLimits: 'on' });
    expect(cfg.body).toEqual({ freePlan: false, rateLimits: 'on' });
    const s = [];
    for (let i = 0; i < 3; i++) s.push((await e.api('GET', `/v1/results?squid=${paris}`)).status);
    expect(s).toEqual([200, 200, 429]);
  });

  it('lets requests through again once the window has passed (its clock, and real time by default)', async () => {
    e = await startTestEmulator({ rateLimits: 'on', rateClock });
    const paris = e.squidId('Paris restaurants');
    for (let i = 0; i < 2; i++) expect((await e.api('GET', `/v1/results?squid=${paris}`)).status).toBe(200);
    expect((await e.api('GET', `/v1/results?squid=${paris}`)).status).toBe(429);
    t += 1000;
    const again = await e.api('GET', `/v1/results?squid=${paris}`);
    expect(again.status).toBe(200);
    // Date is the windows' clock, which Reset is measured against.
    expect(Date.parse(again.headers.get('date') ?? '')).toBe(Math.floor(t / 1000) * 1000);
    expect(Number(again.headers.get('x-ratelimit-reset'))).toBe(Math.floor(t / 1000) + 1);
    await e.close();

    e = await startTestEmulator({ rateLimits: 'on' });
    // The window is a wall-clock second: start the three requests at the beginning of one, so a loaded machine does
    // not spread them over two.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
    const paris2 = e.squidId('Paris restaurants');
    await e.api('GET', `/v1/results?squid=${paris2}`);
    await e.api('GET', `/v1/results?squid=${paris2}`);
    const limited = await e.api('GET', `/v1/results?squid=${paris2}`);
    expect(limited.status).toBe(429);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await e.api('GET', `/v1/results?squid=${paris2}`)).status).toBe(200);
  });
});
