// lib/lock.ts: the one short-section lock of the profile file and the pacing state.
import { mkdirSync, mkdtempSync, existsSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFileLock } from '../../src/lib/lock.js';

const dir = () => mkdtempSync(join(tmpdir(), 'sq-lock-'));

describe('withFileLock', () => {
  it('runs one holder at a time, and removes its lock after', async () => {
    const lock = join(dir(), 'f.lock');
    const order: string[] = [];
    const hold = (name: string) =>
      withFileLock(
        lock,
        async () => {
          order.push(`${name}+`);
          await new Promise((r) => setTimeout(r, 20));
          order.push(`${name}-`);
        },
        { staleMs: 5000, waitMs: 5000 },
      );
    await Promise.all([hold('a'), hold('b')]);
    expect(
      [order.slice(0, 2), order.slice(2)].every(([p, m]) => p[0] === m[0] && p.endsWith('+') && m.endsWith('-')),
    ).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a stale lock, also the directory an older sq (proper-lockfile) left', async () => {
    for (const make of [(p: string) => writeFileSync(p, ''), (p: string) => mkdirSync(p)]) {
      const lock = join(dir(), 'f.lock');
      make(lock);
      const old = (Date.now() - 60_000) / 1000;
      utimesSync(lock, old, old);
      expect(await withFileLock(lock, () => 'ran', { staleMs: 10_000, waitMs: 1000 })).toBe('ran');
    }
  });

  it('gives up on a live lock after waitMs, with ELOCKED', async () => {
    const lock = join(dir(), 'f.lock');
    writeFileSync(lock, '');
    await expect(withFileLock(lock, () => 'ran', { staleMs: 60_000, waitMs: 100 })).rejects.toMatchObject({
      code: 'ELOCKED',
    });
    expect(existsSync(lock)).toBe(true);
  });

  it('a stop signal ends the wait at once with its reason; a wait past 2 s is told (issue 33 item 5)', async () => {
    const lock = join(dir(), 'f.lock');
    writeFileSync(lock, '');
    const stop = new AbortController();
    const told: number[] = [];
    const started = Date.now();
    const p = withFileLock(lock, () => 'ran', {
      staleMs: 60_000,
      waitMs: 60_000,
      signal: stop.signal,
      onLongWait: () => told.push(Date.now() - started),
    });
    setTimeout(() => stop.abort(new Error('interrupted')), 2500);
    // The abort's reason, not ELOCKED ("lock held too long", at waitMs, 60 s): the wait ended on the abort.
    await expect(p).rejects.toThrow('interrupted');
    expect(told).toHaveLength(1);
    expect(told[0]).toBeGreaterThanOrEqual(2000);
    expect(existsSync(lock)).toBe(true);
  });

  it('a lock dated in the future is stale (it was not written by anyone running now)', async () => {
    const lock = join(dir(), 'f.lock');
    writeFileSync(lock, '');
    const future = (Date.now() + 3_600_000) / 1000;
    utimesSync(lock, future, future);
    expect(await withFileLock(lock, () => 'ran', { staleMs: 10_000, waitMs: 1000 })).toBe('ran');
  });
});
