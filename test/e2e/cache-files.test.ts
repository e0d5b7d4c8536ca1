// Small files in the cache directory (src/lib/cache-file.ts): files of other keys, services and questions that
// nobody has used for a day are removed when a new one is about to be made, and nothing else is.
import { existsSync, mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bucket } from '../../src/api/pacing.js';
import { SharedStore, stateFile } from '../../src/api/pacing-state.js';
import { CACHE_FILE_MAX_AGE_MS, pruneCacheDir, writeCacheFile } from '../../src/lib/cache-file.js';
import { tempDir } from '../helpers/fs.js';
import { fakeTime } from '../helpers/clock.js';
import { useEmulator } from '../helpers/emulator.js';
import { sq, sqBin } from '../helpers/cli.js';

const DAY = CACHE_FILE_MAX_AGE_MS;

function plant(dir: string, name: string, ageMs: number): string {
  const p = join(dir, name);
  writeFileSync(p, '{}', { mode: 0o600 });
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(p, t, t);
  return p;
}

describe('pruneCacheDir', () => {
  it('removes matching files older than a day, keeps younger ones, other names, links and directories', () => {
    const dir = tempDir('sq-prune-');
    plant(dir, 'pacing-00000000000000aa.json', DAY + 60_000);
    plant(dir, 'pacing-00000000000000ab.json.lock', 2 * DAY);
    plant(dir, 'pacing-00000000000000ac.json', DAY - 60_000);
    plant(dir, 'notes.json', 10 * DAY);
    mkdirSync(join(dir, 'pacing-00000000000000ad.json'));
    symlinkSync(join(dir, 'notes.json'), join(dir, 'pacing-00000000000000ae.json'));
    pruneCacheDir(dir, /^pacing-[0-9a-f]{16}\.json(\.lock)?$/, join(dir, 'pacing-00000000000000ff.json'));
    expect(readdirSync(dir).sort()).toEqual([
      'notes.json',
      'pacing-00000000000000ac.json',
      'pacing-00000000000000ad.json',
      'pacing-00000000000000ae.json',
    ]);
  });

  it('does nothing when the file about to be made is there already (the directory is listed only when it may grow)', () => {
    const dir = tempDir('sq-prune-');
    const old = plant(dir, 'pacing-00000000000000aa.json', 2 * DAY);
    const fresh = plant(dir, 'pacing-00000000000000ff.json', 0);
    pruneCacheDir(dir, /^pacing-/, fresh);
    expect(existsSync(old)).toBe(true);
  });
});

describe('a cache directory that cannot be used', () => {
  const emu = useEmulator();
  it('is the same as no cache, with a warning: a write under a file is dropped, and the command succeeds', async () => {
    const file = join(tempDir('sq-cache-file-'), 'f');
    writeFileSync(file, '');
    expect(() => writeCacheFile(join(file, 'x.json'), '{}')).not.toThrow();
    const r = await sq(['me', '--jq', '.email'], { env: emu.env({ SQ_CACHE_DIR: file }) });
    expect(r).toEqual({
      code: 0,
      stdout: 'demo@sq-emulator.local\n',
      stderr: `warning: the cache directory ${file} cannot be used (ENOTDIR): running without a cache\n`,
    });
  });

  // Issue 33 E10: Node's recursive mkdir retried for ever on procfs (ENOENT for every new entry), at 100% CPU and
  // deaf to signals; the launcher's code cache and the pacing state both made the directory that way.
  it.each([
    ['SQ_CACHE_DIR', { SQ_CACHE_DIR: '/proc/sq-x' }, '/proc/sq-x'],
    ['XDG_CACHE_HOME', { XDG_CACHE_HOME: '/proc/sq-x' }, '/proc/sq-x/sq'],
  ])(
    '%s on a filesystem that refuses new entries (/proc): a warning, no cache, exit 0 (the built bin)',
    async (_name, env, shown) => {
      const r = await sqBin(['me', '--jq', '.email'], { env: { ...emu.env(), ...env }, timeout: 20_000 });
      expect([r.code, r.stdout]).toEqual([0, 'demo@sq-emulator.local']);
      expect(r.stderr).toBe(`warning: the cache directory ${shown} cannot be used (ENOENT): running without a cache`);
    },
  );

  it('SQ_CONFIG_DIR there: an error naming the directory, not a spin', async () => {
    const r = await sqBin(['auth', 'login', '--with-token'], {
      env: { ...emu.env(), SQ_CONFIG_DIR: '/proc/sq-x/config' },
      input: 'sq_emulator_demo_token\n',
      timeout: 20_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ENOENT');
  });
});

describe('the pacing state of another key', () => {
  it('a first call with a new key removes the state files unused for a day, not the live ones', async () => {
    const dir = tempDir('sq-prune-');
    const clock = fakeTime(Date.now());
    const live = stateFile(dir, 'key-live-1234567890', 'https://api.example.test');
    const stale = stateFile(dir, 'key-gone-1234567890', 'https://api.example.test');
    writeFileSync(live, '{}', { mode: 0o600 });
    writeFileSync(stale, '{}', { mode: 0o600 });
    const t = (Date.now() - 2 * DAY) / 1000;
    utimesSync(stale, t, t);
    const store = new SharedStore({
      dir,
      token: 'key-new-1234567890',
      origin: 'https://api.example.test',
      now: clock.now,
    });
    await new Bucket('results', clock.now, clock.sleep, store).acquire();
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(stateFile(dir, 'key-new-1234567890', 'https://api.example.test'))).toBe(true);
  });
});

describe('completion answers of other questions', () => {
  const emu = useEmulator();

  it('a question not asked before removes the answers and refresh locks unused for a day', async () => {
    const dir = tempDir('sq-prune-');
    mkdirSync(join(dir, 'complete'), { mode: 0o700 });
    const old = plant(join(dir, 'complete'), `squids-${'a'.repeat(32)}.json`, 2 * DAY);
    const oldLock = plant(join(dir, 'complete'), `runs-${'b'.repeat(32)}.json.refreshing`, 2 * DAY);
    const young = plant(join(dir, 'complete'), `runs-${'c'.repeat(32)}.json`, 60_000);
    // Tab again until the answer comes, as a user would: a loaded machine may spend a first Tab's budget starting node.
    let r = await sqBin(['__complete', 'squids'], { env: emu.env({ SQ_CACHE_DIR: dir }) });
    for (let i = 0; i < 50 && r.code === 0 && r.stdout === ''; i++) {
      await new Promise((done) => setTimeout(done, 200));
      r = await sqBin(['__complete', 'squids'], { env: emu.env({ SQ_CACHE_DIR: dir }) });
    }
    expect(r.code).toBe(0);
    expect(r.stdout).not.toBe('');
    expect([existsSync(old), existsSync(oldLock), existsSync(young)]).toEqual([false, false, true]);
    expect(readdirSync(join(dir, 'complete')).filter((f) => f.startsWith('squids-'))).toHaveLength(1);
  });
});
