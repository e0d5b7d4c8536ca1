// The pacing state every sq process of the machine shares (src/api/pacing-state.ts), driven through Buckets on a
// fake clock: two stores on one directory stand for two processes.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bucket, MAX_PAUSE_MS, MAX_RESET_WAIT_MS } from '../../src/api/pacing.js';
import { SharedStore, sane, stateFile } from '../../src/api/pacing-state.js';
import { cacheDir } from '../../src/lib/cache-dir.js';
import { tempDir } from '../helpers/fs.js';
import { fakeTime } from '../helpers/clock.js';

const KEY = 'sq-secret-key-abcdef123456';
const ORIGIN = 'https://api.example.test';
// The fake clocks start at a real epoch time, as the buckets' times in the state file are.
const START = 1_700_000_000_000;

function proc(dir: string, clock: ReturnType<typeof fakeTime>, name = 'results', key = KEY) {
  const store = new SharedStore({ dir, token: key, origin: ORIGIN, now: clock.now });
  return { store, bucket: new Bucket(name, clock.now, clock.sleep, store) };
}

/** A process that has had one answer on squids, the server saying `remaining` of 120 are left. */
async function afterOneAnswer(remaining: number) {
  const dir = tempDir('sq-pace-');
  const clock = fakeTime(START);
  const a = proc(dir, clock, 'squids');
  a.bucket.answered(await a.bucket.acquire(), { limit: 120, remaining, resetAt: START + 60_000 });
  await a.store.idle();
  return { dir, clock, a, file: stateFile(dir, KEY, ORIGIN) };
}

describe('shared pacing state', () => {
  it('two processes with one key and service draw on one budget: results stay 550 ms apart across both', async () => {
    const dir = tempDir('sq-pace-');
    const clock = fakeTime(START);
    const a = proc(dir, clock);
    const b = proc(dir, clock);
    const start = clock.t;
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      await a.bucket.acquire();
      times.push(clock.t - start);
      await b.bucket.acquire();
      times.push(clock.t - start);
    }
    expect(times).toEqual([0, 550, 1100, 1650, 2200, 2750]);
  });

  it('with plenty to spare, a request goes on one read of the state, without the lock, and is written with its answer', async () => {
    const { dir, clock, file } = await afterOneAnswer(119);
    const before = readFileSync(file, 'utf8');
    expect(JSON.parse(before).buckets.squids.seq).toBe(1);
    // Another process: its look at the state writes nothing, nor does it take the lock (a lock file held by nobody
    // who would let go would otherwise hold it until the lock is stale).
    const b = proc(dir, clock, 'squids');
    writeFileSync(`${file}.lock`, '');
    const ticket = await b.bucket.acquire();
    expect(readFileSync(file, 'utf8')).toBe(before);
    fs.rmSync(`${file}.lock`);
    b.bucket.answered(ticket, { limit: 120, remaining: 118, resetAt: START + 60_000 });
    await b.store.idle();
    const after = JSON.parse(readFileSync(file, 'utf8')).buckets.squids;
    expect(after.seq).toBe(2);
    expect(after.inflight).toEqual([]);
    // What is left: the Remaining last said, less what was sent since.
    expect(after.server.remaining - (after.seq - after.server.seq)).toBe(118);
  });

  it("a 429 this process has not written yet holds its next request: the first look waits for the process's own updates", async () => {
    const { clock, a, file } = await afterOneAnswer(119);
    const start = clock.t;
    // The pause waits for the lock another process holds a moment: it is not in the file when the next request asks.
    writeFileSync(`${file}.lock`, '');
    setTimeout(() => fs.rmSync(`${file}.lock`), 50);
    a.bucket.pause(5000);
    await a.bucket.acquire();
    // At least the pause (a 429 also spends the server's window, here until its reset a minute on).
    expect(clock.t - start).toBeGreaterThanOrEqual(5000);
  });

  it('near the end of the budget, a request is recorded under the lock before it goes', async () => {
    const { dir, clock, file } = await afterOneAnswer(30);
    const b = proc(dir, clock, 'squids');
    const ticket = await b.bucket.acquire();
    expect(JSON.parse(readFileSync(file, 'utf8')).buckets.squids.inflight).toEqual([[ticket, START]]);
  });

  it("one process's 429 pause holds the others", async () => {
    const dir = tempDir('sq-pace-');
    const clock = fakeTime(START);
    const a = proc(dir, clock, 'squids');
    const b = proc(dir, clock, 'squids');
    const start = clock.t;
    await a.bucket.acquire();
    a.bucket.pause(5000);
    await a.store.idle();
    await b.bucket.acquire();
    expect(clock.t - start).toBe(5000);
  });

  it('another key (or service) has a budget of its own', async () => {
    const dir = tempDir('sq-pace-');
    const clock = fakeTime(START);
    const a = proc(dir, clock);
    const b = proc(dir, clock, 'results', 'sq-other-key-0987654321');
    await a.bucket.acquire();
    await b.bucket.acquire();
    expect(clock.t).toBe(1_700_000_000_000);
    expect(stateFile(dir, KEY, ORIGIN)).not.toBe(stateFile(dir, KEY, 'https://other.example.test'));
  });

  it('the key appears in no file name or content; the file is 0600 in a 0700 directory', async () => {
    const dir = join(tempDir('sq-pace-'), 'cache');
    const clock = fakeTime(START);
    const a = proc(dir, clock);
    await a.bucket.acquire();
    const names = readdirSync(dir);
    expect(names).toEqual([expect.stringMatching(/^pacing-[0-9a-f]{16}\.json$/)]);
    const text = readFileSync(join(dir, names[0]), 'utf8');
    expect(names[0] + text).not.toContain(KEY);
    expect(names[0] + text).not.toContain(KEY.slice(-8));
    expect(statSync(join(dir, names[0])).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('a lock left by a crashed process is taken over once stale', async () => {
    const dir = tempDir('sq-pace-');
    const lock = `${stateFile(dir, KEY, ORIGIN)}.lock`;
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 10_000);
    utimesSync(lock, old, old);
    const clock = fakeTime(START);
    await proc(dir, clock).bucket.acquire();
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(stateFile(dir, KEY, ORIGIN))).toBe(true);
  });

  it('a state file that others can write is not believed, and is replaced', async () => {
    const dir = tempDir('sq-pace-');
    const file = stateFile(dir, KEY, ORIGIN);
    const clock = fakeTime(START);
    writeFileSync(
      file,
      JSON.stringify({
        v: 2,
        buckets: { results: { seq: 0, sent: [], inflight: [], server: null, pausedUntil: clock.t + 60_000 } },
      }),
    );
    chmodSync(file, 0o666);
    const start = clock.t;
    await proc(dir, clock).bucket.acquire();
    expect(clock.t).toBe(start);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a pause in the file beyond anything sq sets is cut to MAX_PAUSE_MS, not waited for', async () => {
    const dir = tempDir('sq-pace-');
    const clock = fakeTime(START);
    writeFileSync(
      stateFile(dir, KEY, ORIGIN),
      JSON.stringify({
        v: 2,
        buckets: { results: { seq: 0, sent: [], inflight: [], server: null, pausedUntil: 1e20 } },
      }),
      { mode: 0o600 },
    );
    const start = clock.t;
    await proc(dir, clock).bucket.acquire();
    expect(clock.t - start).toBe(MAX_PAUSE_MS);
  });

  it('a cache directory that is not a directory leaves the process pacing alone, in memory', async () => {
    const file = join(tempDir('sq-pace-'), 'a-file');
    writeFileSync(file, 'x');
    const clock = fakeTime(START);
    const lines: string[] = [];
    const store = new SharedStore({
      dir: file,
      token: KEY,
      origin: ORIGIN,
      now: clock.now,
      trace: (l) => lines.push(l),
    });
    const b = new Bucket('results', clock.now, clock.sleep, store);
    const start = clock.t;
    await b.acquire();
    await b.acquire();
    expect(clock.t - start).toBe(550);
    expect(lines.join('\n')).toMatch(/pacing this process alone/);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('what the server said is shared: a second process sends at once while it lasts, less what the first sent since', async () => {
    const dir = tempDir('sq-pace-');
    const clock = fakeTime(START);
    const a = proc(dir, clock, 'squids');
    const b = proc(dir, clock, 'squids');
    const end = START + 30_000;
    const t = await a.bucket.acquire();
    a.bucket.answered(t, { limit: 12, remaining: 3, resetAt: end });
    await a.store.idle();
    // 3 remain: a sends 2 more (not answered yet), so b has 1, then must wait for the reset.
    await a.bucket.acquire();
    await a.bucket.acquire();
    await b.bucket.acquire();
    expect(clock.t).toBe(START);
    await b.bucket.acquire();
    expect(clock.t).toBe(end + 10);
  });

  it('an undocumented prefix is not paced before the server states a limit: 200 requests at once', async () => {
    const dir = tempDir('sq-pace-');
    const clock = fakeTime(START);
    const a = proc(dir, clock, 'me');
    for (let i = 0; i < 200; i++) a.bucket.answered(await a.bucket.acquire(), null);
    expect(clock.t).toBe(START);
    await a.store.idle();
    // Nothing to remember about it: it takes no room in the file.
    expect(JSON.parse(readFileSync(stateFile(dir, KEY, ORIGIN), 'utf8')).buckets).toEqual({});
  });

  it.each([
    ['garbage', 'x{{'],
    [
      'an older format',
      JSON.stringify({ v: 1, buckets: { results: { tokens: 0, last: START, pausedUntil: START + 60_000 } } }),
    ],
    [
      'wrong types',
      JSON.stringify({
        v: 2,
        buckets: {
          results: { seq: 'x', sent: 5, inflight: [[1]], server: { remaining: 'a' }, pausedUntil: START + 60_000 },
        },
      }),
    ],
  ])('a state file holding %s reads as a fresh state, and is rewritten', async (_what, text) => {
    const dir = tempDir('sq-pace-');
    const file = stateFile(dir, KEY, ORIGIN);
    writeFileSync(file, text, { mode: 0o600 });
    const clock = fakeTime(START);
    await proc(dir, clock).bucket.acquire();
    expect(clock.t).toBe(START);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ v: 2, buckets: { results: { seq: 1 } } });
  });

  it('a server reset in the file beyond anything sq waits for is cut to the cap', () => {
    const s = sane(
      {
        seq: 3,
        sent: [],
        inflight: [],
        server: { limit: 10, remaining: 0, seq: 99, resetAt: 1e20, until: 1e20 },
        pausedUntil: 0,
      },
      START,
    );
    expect(s.server).toEqual({
      limit: 10,
      remaining: 0,
      seq: 3,
      resetAt: START + MAX_RESET_WAIT_MS + 1000,
      until: START + MAX_RESET_WAIT_MS + 1000,
    });
  });

  it('a state file that is a FIFO is replaced like a damaged one: never read, and processes still share one budget (issue 46, 11)', async () => {
    const dir = tempDir('sq-pace-');
    const file = stateFile(dir, KEY, ORIGIN);
    execFileSync('mkfifo', ['-m', '600', file]);
    const clock = fakeTime(START);
    const lines: string[] = [];
    const store = () =>
      new SharedStore({ dir, token: KEY, origin: ORIGIN, now: clock.now, trace: (l) => lines.push(l) });
    await new Bucket('results', clock.now, clock.sleep, store()).acquire();
    expect(statSync(file).isFile()).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ v: 2, buckets: { results: { seq: 1 } } });
    // A second process sees the first one's request in the file.
    await new Bucket('results', clock.now, clock.sleep, store()).acquire();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ buckets: { results: { seq: 2 } } });
    expect(lines.join('\n')).not.toMatch(/pacing this process alone/);
  });

  it.each([['a directory', (f: string) => mkdirSync(f, { mode: 0o700 })]])(
    'a state file that is %s does not hang sq: the process paces alone',
    async (_what, make) => {
      const dir = tempDir('sq-pace-');
      make(stateFile(dir, KEY, ORIGIN));
      const clock = fakeTime(START);
      const lines: string[] = [];
      const store = new SharedStore({ dir, token: KEY, origin: ORIGIN, now: clock.now, trace: (l) => lines.push(l) });
      const b = new Bucket('results', clock.now, clock.sleep, store);
      await b.acquire();
      await b.acquire();
      expect(clock.t - START).toBe(550);
      expect(lines.join('\n')).toMatch(/pacing this process alone/);
    },
  );

  it('the cache directory is the one bin/sq.js uses for its code cache', () => {
    // bin/sq.js requires dist/launcher.cjs, built from src/startup/code-cache.ts, for its cache directory.
    const built = createRequire(import.meta.url)(join(import.meta.dirname, '../../dist/launcher.cjs')) as {
      cacheDir: typeof cacheDir;
    };
    const launcher = (p: { platform: string }, _fs: unknown) => (env: Record<string, string | undefined>) =>
      built.cacheDir(env, p.platform);
    // '/h' does not exist (no cache then: a missing home is never created); tmpdir() does.
    const home = tmpdir();
    const envs = [
      { SQ_CACHE_DIR: '/c' },
      { SQ_CACHE_DIR: '' },
      { XDG_CACHE_HOME: '/x', HOME: '/h' },
      { HOME: '/h' },
      { HOME: home },
      {},
      { LOCALAPPDATA: 'C:\\u' },
    ];
    for (const platform of ['linux', 'darwin', 'win32']) {
      for (const env of envs)
        expect(cacheDir(env, platform), `${platform} ${JSON.stringify(env)}`).toBe(launcher({ platform }, fs)(env));
    }
    expect(cacheDir({ HOME: '/h' }, 'linux')).toBeUndefined();
    expect(cacheDir({ HOME: home }, 'linux')).toBe(`${home}/.cache/sq`);
  });
});

// Issue 33 E12, D11: what a state file says is range-checked, a lock from the future is stale, a huge file is not read.
describe('a pacing state file that cannot be true', () => {
  it('a negative limit (or a Remaining beyond the Limit) is not believed: no 61 s wait', async () => {
    for (const server of [
      { limit: -5, remaining: -5, seq: 0, resetAt: null, until: START + 60_000 },
      { limit: 0, remaining: 0, seq: 0, resetAt: null, until: START + 60_000 },
      { limit: 10, remaining: 1e9, seq: 0, resetAt: START + 60_000, until: START + 60_000 },
      { limit: 1.5, remaining: 0, seq: 0, resetAt: null, until: START + 60_000 },
    ]) {
      const dir = tempDir('sq-pace-');
      writeFileSync(
        stateFile(dir, KEY, ORIGIN),
        JSON.stringify({ v: 2, buckets: { squids: { seq: 0, sent: [], inflight: [], server, pausedUntil: 0 } } }),
        { mode: 0o600 },
      );
      const clock = fakeTime(START);
      await proc(dir, clock, 'squids').bucket.acquire();
      expect(clock.t, JSON.stringify(server)).toBe(START);
    }
  });

  it('a lock dated in the future is taken over at once, not waited on for 10 s (then pacing alone)', async () => {
    const dir = tempDir('sq-pace-');
    const lock = `${stateFile(dir, KEY, ORIGIN)}.lock`;
    writeFileSync(lock, '');
    const future = new Date(Date.now() + 86_400_000);
    utimesSync(lock, future, future);
    const clock = fakeTime(START);
    const lines: string[] = [];
    const store = new SharedStore({
      dir,
      token: KEY,
      origin: ORIGIN,
      now: clock.now,
      trace: (l) => lines.push(l),
      warn: (l) => lines.push(l),
    });
    await new Bucket('results', clock.now, clock.sleep, store).acquire();
    // The takeover is a stat and an unlink; the bug waited the whole LOCK_WAIT_MS (10 s), and a wait for the lock past
    // 2 s is told on warn: no line, no wait (not a wall-clock bound, which a loaded machine can break).
    expect(lines).toEqual([]);
    expect(existsSync(lock)).toBe(false);
    expect(JSON.parse(readFileSync(stateFile(dir, KEY, ORIGIN), 'utf8'))).toMatchObject({
      v: 2,
      buckets: { results: { seq: 1 } },
    });
  });

  it('a state file over 1 MiB is not read (a pause in it is not obeyed) and is rewritten small', async () => {
    const dir = tempDir('sq-pace-');
    const file = stateFile(dir, KEY, ORIGIN);
    const doc = {
      v: 2,
      buckets: { results: { seq: 0, sent: [], inflight: [], server: null, pausedUntil: START + 60_000 } },
      pad: 'x'.repeat(1024 * 1024),
    };
    writeFileSync(file, JSON.stringify(doc), { mode: 0o600 });
    const clock = fakeTime(START);
    await proc(dir, clock).bucket.acquire();
    expect(clock.t).toBe(START);
    expect(statSync(file).size).toBeLessThan(1024);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ v: 2, buckets: { results: { seq: 1 } } });
  });

  it('a wait made of many short polls is told once it passes 2 s, with its reason', async () => {
    const dir = tempDir('sq-pace-');
    // A window reset, its end not yet told by any answer, its budget spent, another process's request in flight (its
    // answer will tell): sq polls every 200 ms.
    const server = { limit: 10, remaining: 0, seq: 0, resetAt: null, until: START + 5000 };
    writeFileSync(
      stateFile(dir, KEY, ORIGIN),
      JSON.stringify({
        v: 2,
        buckets: { squids: { seq: 1, sent: [], inflight: [[1, START - 10]], server, pausedUntil: 0 } },
      }),
      { mode: 0o600 },
    );
    const clock = fakeTime(START);
    const store = new SharedStore({ dir, token: KEY, origin: ORIGIN, now: clock.now });
    const notices: string[] = [];
    await new Bucket('squids', clock.now, clock.sleep, store, (l) => notices.push(l)).acquire();
    expect(clock.t - START).toBeGreaterThan(2000);
    expect(notices).toEqual([
      expect.stringMatching(
        /^waiting.* before the next \/v1\/squids request: the server's rate budget for it is spent/,
      ),
    ]);
  });

  it('a cache directory on a filesystem that refuses new entries (/proc/x) is a warning, not a spin', async () => {
    const clock = fakeTime(START);
    const lines: string[] = [];
    const store = new SharedStore({
      dir: '/proc/sq-no-such/x',
      token: KEY,
      origin: ORIGIN,
      now: clock.now,
      warn: (l) => lines.push(l),
    });
    const b = new Bucket('results', clock.now, clock.sleep, store);
    await b.acquire();
    await b.acquire();
    expect(clock.t - START).toBe(550);
    expect(lines).toEqual(['the cache directory /proc/sq-no-such/x cannot be used (ENOENT): running without a cache']);
  });
});
