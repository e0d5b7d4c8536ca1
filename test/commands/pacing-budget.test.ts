// How sq decides when to wait (docs/reliability.md), rule by rule, over real HTTP: the emulator's X-RateLimit-*
// headers are the budget (a script's loop of calls waits for nothing while they say it remains); a server stricter
// than the docs (--rate-limits 0.1) is followed after its first answer, without a 429; a server that sends no such
// headers gets the documented limits as counts per minute, and nothing where the docs state none, until a 429.
// In-process runs use a fake clock (each test its own cache directory), so a wait is seen, not timed.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/api/http.js';
import { startTestEmulator, useEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/fs.js';
import { sq } from '../helpers/cli.js';
import { fakeSqClock } from '../helpers/clock.js';
import { listenLocal } from '../helpers/net.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** sq's fake clock, from a fixed time: what a test server saw is compared in exact milliseconds. */
const fakeClock = (start = 1_700_000_000_000) => fakeSqClock(undefined, start);

/** sq in-process on a fake clock; the cache directory (the shared pacing state) is the caller's. */
const sqAt = async (clock: ReturnType<typeof fakeClock>, args: string[], env: Record<string, string>) => {
  const { code, stderr } = await sq(args, { env, clock });
  return { code, stderr };
};

describe('the server states the budget (emulator, documented limits on)', () => {
  const emu = useEmulator({ rateLimits: 'on' });

  it.each([
    ['squids', 'list'],
    ['me', '--json'],
  ])('a loop of 25 `sq %s %s`, the pacing state kept between calls, waits for nothing', async (...args) => {
    const clock = fakeClock();
    const cache = tempDir('sq-cache-');
    for (let i = 0; i < 25; i++) {
      const r = await sqAt(clock, args, emu.env({ SQ_CACHE_DIR: cache }));
      expect(r).toEqual({ code: 0, stderr: '' });
    }
    // Before: a burst of 10 on squids (5 on me), then one request per 550 ms (1 s).
    expect(clock.slept).toEqual([]);
    expect((await emu.requests()).filter((r) => r.status === 429)).toEqual([]);
  });
});

describe('a server stricter than the docs', () => {
  it('--rate-limits 0.1 (12 a minute on /v1/squids): 16 sequential `sq squids list` all exit 0, one waits for the reset and says why, no 429', async () => {
    // sq and the emulator's rate windows on one fake clock, 1 s into a minute (the emulator's windows are whole
    // minutes): the 13th call has to wait 59 s for the reset, which takes no time here.
    const clock = fakeClock(Math.ceil(1_700_000_000_000 / 60_000) * 60_000 + 1000);
    const emu = await startTestEmulator({ rateLimits: 0.1, rateClock: clock.now });
    closers.push(() => emu.close());
    const cache = tempDir('sq-cache-');
    const runs = [];
    for (let i = 0; i < 16; i++) runs.push(await sqAt(clock, ['squids', 'list'], emu.env({ SQ_CACHE_DIR: cache })));
    expect(runs.map((r) => r.code)).toEqual(Array(16).fill(0));
    const log = await emu.requests();
    expect(log.filter((r) => r.path === '/v1/squids').map((r) => r.status)).toEqual(Array(16).fill(200));
    const told = runs.map((r) => r.stderr).filter((s) => s !== '');
    expect(told).toEqual([
      "waiting 60 s before the next /v1/squids request: the server's rate budget for it is spent until its window resets\n",
    ]);
    expect(runs.slice(0, 12).every((r) => r.stderr === '')).toBe(true);
    // The wait ends just past the reset, not a second later.
    const waited = clock.slept.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(59_000);
    expect(waited).toBeLessThan(59_500);
  });
});

describe('a new window whose answers say nothing', () => {
  it(
    'connection resets after a window reset spend its budget with no word of its end: sq goes ' +
      'on at the documented pace, not 200 ms looks for a minute',
    async () => {
      // sq and the emulator's 2-a-second window on /v1/results share one fake clock. The first answer states the budget
      // (its body is then cut); the next three attempts are reset before any answer, across the window's end. Nothing
      // is in flight to tell when the new window ends: sq used to look again every 200 ms for the minute it trusts the
      // Limit (in go.test.ts, on a clock that only moves when the test steps it, that was a hang).
      const clock = fakeClock();
      const emu = await startTestEmulator({ rateLimits: 'on', rateClock: clock.now });
      closers.push(() => emu.close());
      const run = (await emu.control('POST', '/_emulator/generate', {
        squid: emu.squidId(DEMO_SQUIDS.headphones),
        results: 20,
      })) as { id: string };
      await emu.faults([
        { path: '/v1/results', action: 'reset_mid_body', count: 1 },
        { path: '/v1/results', action: 'reset', count: 3 },
      ]);
      const r = await sq(['results', 'list', '--run', run.id, '--json'], {
        env: emu.env({ SQ_CACHE_DIR: tempDir('sq-cache-') }),
        clock,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(20);
      expect(r.stderr).not.toContain('rate budget');
      expect((await emu.requests()).filter((q) => q.path === '/v1/results').map((q) => q.status)).toEqual([
        200, 0, 0, 0, 200,
      ]);
      // Four back-offs (each under 0.5, 1, 2, 4 s) and at most one wait for the documented pace or the window.
      expect(clock.slept.length).toBeLessThanOrEqual(6);
      expect(clock.slept.reduce((a, b) => a + b, 0)).toBeLessThan(9000);
    },
  );
});

describe('a server that sends no X-RateLimit headers', () => {
  async function server(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
    const s = createServer(handler);
    const url = await listenLocal(s);
    closers.push(() => new Promise((r) => s.close(() => r())));
    return url;
  }

  function client(
    baseUrl: string,
    clock: ReturnType<typeof fakeClock>,
    pacingDir: string,
    notice?: (l: string) => void,
  ) {
    const http = new HttpClient({
      baseUrl,
      token: 'sq-test-key-1234',
      now: clock.now,
      sleep: (ms) => clock.sleep(ms),
      pacingDir,
      notice,
    });
    closers.push(() => http.close());
    return http;
  }

  it('a documented limit is a count per minute at 90%: 108 requests to /v1/squids at once, the 109th a minute after the first', async () => {
    const clock = fakeClock();
    const seen: number[] = [];
    const baseUrl = await server((_req, res) => {
      seen.push(clock.t);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":[]}');
    });
    const lines: string[] = [];
    const http = client(baseUrl, clock, tempDir('sq-cache-'), (l) => lines.push(l));
    const start = clock.t;
    for (let i = 0; i < 110; i++) await http.get('/v1/squids');
    expect(seen.slice(0, 108)).toEqual(Array(108).fill(start));
    expect(seen[108]).toBe(start + 60_000);
    expect(seen[109]).toBe(start + 60_000);
    expect(lines).toEqual([
      'waiting 60 s before the next /v1/squids request: sq keeps to 108 requests per 60 s there (90% of the documented limit) until the server states its own',
    ]);
  });

  it('a prefix with no documented limit is not paced: 300 requests to /v1/me at once, until a 429 pauses it for every process', async () => {
    const clock = fakeClock();
    const seen: number[] = [];
    let refuse = false;
    const baseUrl = await server((_req, res) => {
      seen.push(clock.t);
      if (refuse) {
        refuse = false;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
        res.end('{"error":"Rate limit exceeded."}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const dir = tempDir('sq-cache-');
    const a = client(baseUrl, clock, dir);
    const start = clock.t;
    for (let i = 0; i < 300; i++) await a.get('/v1/me');
    expect(new Set(seen)).toEqual(new Set([start]));
    // One process is refused with Retry-After: 7; while it waits to retry, another process of the machine (its own
    // clock) wants /v1/me too: it waits for the pause as well, and says why.
    const other = fakeClock();
    const lines: string[] = [];
    const b = client(baseUrl, other, dir, (l) => lines.push(l));
    const pausing = clock.sleep;
    clock.sleep = async (ms: number) => {
      if (ms >= 7000) await b.get('/v1/me');
      return pausing(ms);
    };
    refuse = true;
    await a.get('/v1/me');
    expect(seen[seen.length - 1] - start).toBeGreaterThanOrEqual(7000);
    expect(other.slept.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(7000);
    expect(lines).toEqual([
      expect.stringMatching(
        /^waiting \d+ s before the next \/v1\/me request: the server refused a request there \(429\)/,
      ),
    ]);
  });
});
