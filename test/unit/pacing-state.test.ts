// The pacing state every sq process of the machine shares (src/api/pacing-state.ts), driven through Buckets on a
// fake clock: two stores on one directory stand for two processes.
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bucket, BUCKETS, MAX_PAUSE_MS } from '../../src/api/pacing.js';
import { SharedStore, stateFile } from '../../src/api/pacing-state.js';
import { cacheDir } from '../../src/cache-dir.js';
import { tempDir } from '../helpers/fs.js';
import { fakeTime } from '../helpers/clock.js';

const KEY = 'sq-secret-key-abcdef123456';
const ORIGIN = 'https://api.example.test';
// The fake clocks start at a real epoch time, as the buckets' times in the state file are.
const START = 1_700_000_000_000;

function proc(dir: string, clock: ReturnType<typeof fakeTime>, name = 'results', key = KEY) {
  const store = new SharedStore({ dir, token: key, origin: ORIGIN, now: clock.now });
  return { store, bucket: new Bucket(BUCKETS[name], clock.now, clock.sleep, store, name) };
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
    writeFileSync(file, JSON.stringify({ v: 1, buckets: { results: { tokens: 0, last: clock.t, pausedUntil: clock.t + 60_000 } } }));
    chmodSync(file, 0o666);
    const start = clock.t;
    await proc(dir, clock).bucket.acquire();
    expect(clock.t).toBe(start);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a pause in the file beyond anything sq sets is cut to MAX_PAUSE_MS, not waited for', async () => {
    const dir = tempDir('sq-pace-');
    const clock = fakeTime(START);
    writeFileSync(stateFile(dir, KEY, ORIGIN), JSON.stringify({ v: 1, buckets: { results: { tokens: 1, last: clock.t, pausedUntil: 1e20 } } }), { mode: 0o600 });
    const start = clock.t;
    await proc(dir, clock).bucket.acquire();
    expect(clock.t - start).toBe(MAX_PAUSE_MS);
  });

  it('a cache directory that is not a directory leaves the process pacing alone, in memory', async () => {
    const file = join(tempDir('sq-pace-'), 'a-file');
    writeFileSync(file, 'x');
    const clock = fakeTime(START);
    const lines: string[] = [];
    const store = new SharedStore({ dir: file, token: KEY, origin: ORIGIN, now: clock.now, trace: (l) => lines.push(l) });
    const b = new Bucket(BUCKETS.results, clock.now, clock.sleep, store, 'results');
    const start = clock.t;
    await b.acquire();
    await b.acquire();
    expect(clock.t - start).toBe(550);
    expect(lines.join('\n')).toMatch(/pacing this process alone/);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('the cache directory is the one bin/sq.js uses for its code cache', () => {
    const src = readFileSync(join(import.meta.dirname, '../../bin/sq.js'), 'utf8');
    const fn = /\nfunction cacheDir\(env\) \{[\s\S]*?\n\}\n/.exec(src)![0];
    const launcher = new Function('process', `${fn}; return cacheDir;`) as (p: unknown) => (env: Record<string, string | undefined>) => string | undefined;
    const envs = [{ SQ_CACHE_DIR: '/c' }, { SQ_CACHE_DIR: '' }, { XDG_CACHE_HOME: '/x', HOME: '/h' }, { HOME: '/h' }, {}, { LOCALAPPDATA: 'C:\\u' }];
    for (const platform of ['linux', 'darwin', 'win32']) {
      for (const env of envs) expect(cacheDir(env, platform), `${platform} ${JSON.stringify(env)}`).toBe(launcher({ platform })(env));
    }
  });
});
