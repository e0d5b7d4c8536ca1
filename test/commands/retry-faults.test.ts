// Retries and 429 waits of the real client against the emulator's faults, in-process on sq's fake clock (moved from
// test/e2e/foundation.test.ts, which keeps what only the built binary shows: the exit code and message of a 500).
// The waits sq asks for are read from the clock instead of measured on the wall: the same assertions, no seconds.
import { describe, expect, it } from 'vitest';
import { sq } from '../helpers/cli.js';
import { fakeSqClock } from '../helpers/clock.js';
import { useEmulator } from '../helpers/emulator.js';
import { HttpClient } from '../../src/api/http.js';

const emu = useEmulator({ each: 'clear' });
const meCalls = async () =>
  (await emu.requests()).filter((q) => q.path === '/v1/me') as unknown as { status: number }[];

describe('retries', () => {
  it('a 503 on GET is retried (4 retries), then → 1', async () => {
    await emu.faults([{ method: 'GET', path: '/v1/me', action: 'status', status: 503 }]);
    const clock = fakeSqClock();
    const r = await sq(['me'], { env: emu.env(), clock });
    expect(r.code).toBe(1);
    expect(await meCalls()).toHaveLength(5);
    // Four back-off waits, each within its full-jitter bound of 0.5 s × 2^attempt.
    expect(clock.slept).toHaveLength(4);
    clock.slept.forEach((ms, i) => expect(ms).toBeLessThan(500 * 2 ** i));
  });

  it('a back-off over 2 s says why on stderr; shorter ones say nothing (issue 33 item 5)', async () => {
    await emu.faults([{ method: 'GET', path: '/v1/me', action: 'status', status: 503 }]);
    const http = new HttpClient({
      baseUrl: emu.baseUrl,
      token: emu.token,
      now: () => 0,
      sleep: async () => undefined,
      random: () => 0.99,
      notice: (l) => notices.push(l),
    });
    const notices: string[] = [];
    await expect(http.get('/v1/me')).rejects.toThrow();
    // Full jitter at 0.99 of 0.5, 1, 2 and 4 s: only the last passes 2 s.
    expect(notices).toEqual([expect.stringMatching(/^retrying GET .*\/v1\/me in 4 s, after HTTP 503$/)]);
  });

  it('a 503 once, then success → 0 with one retry', async () => {
    await emu.faults([{ method: 'GET', path: '/v1/me', action: 'status', status: 503, count: 1 }]);
    const r = await sq(['me', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).email).toBe('demo@sq-emulator.local');
    expect(await meCalls()).toHaveLength(2);
  });
});

describe('429 waits', () => {
  it('a 429 storm → 5 after five consecutive refusals, the error as one JSON line', async () => {
    await emu.faults([
      { method: 'GET', path: '/v1/me', action: 'status', status: 429, headers: { 'Retry-After': '0' } },
    ]);
    const r = await sq(['me', '--json'], { env: emu.env() });
    expect(r.code).toBe(5);
    const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(err.error.code).toBe(5);
    expect(err.error.status).toBe(429);
    expect(await meCalls()).toHaveLength(5);
  });

  it('a 429 with Retry-After: 2 delays the next request by at least 2 s', async () => {
    await emu.faults([
      { method: 'GET', path: '/v1/me', action: 'status', status: 429, headers: { 'Retry-After': '2' }, count: 1 },
    ]);
    const clock = fakeSqClock();
    const r = await sq(['me', '--json'], { env: emu.env(), clock });
    expect(r.code).toBe(0);
    expect((await meCalls()).map((q) => q.status)).toEqual([429, 200]);
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2000);
  });

  it('a 429 without Retry-After: the wait stated in the DRF-style body is honoured', async () => {
    await emu.faults([
      {
        method: 'GET',
        path: '/v1/me',
        action: 'status',
        status: 429,
        body: { detail: 'Request was throttled. Expected available in 2 seconds.' },
        count: 1,
      },
    ]);
    const clock = fakeSqClock();
    const r = await sq(['me', '--json'], { env: emu.env(), clock });
    expect(r.code).toBe(0);
    expect((await meCalls()).map((q) => q.status)).toEqual([429, 200]);
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2000);
  });
});
