// The update notice: after a command on a terminal, at most once a day, on stderr, when the registry (a fake one on
// loopback, SQ_UPDATE_URL) has a newer sq; silent in CI, when piped, when turned off; a registry that hangs holds
// nothing up. sq runs in-process on a fake clock here, so "a day later" is a clock a day ahead.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sq } from '../helpers/cli.js';
import { fakeSqClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/fs.js';
import { fakeRegistry, type FakeRegistry } from '../helpers/registry.js';
import { waitFor } from '../helpers/wait.js';

let registry: FakeRegistry;
const dirs: string[] = [];
beforeAll(async () => {
  registry = await fakeRegistry('9.1.0');
});
afterAll(() => registry.close());
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  registry.latest = '9.1.0';
  registry.requests = 0;
});

function setup() {
  const home = tempDir('sq-update-');
  dirs.push(home);
  // The helpers turn the notice off for every other test.
  return {
    HOME: home,
    SQ_CONFIG_DIR: join(home, 'cfg'),
    SQ_CACHE_DIR: join(home, 'cache'),
    SQ_UPDATE_URL: registry.url,
    SQ_NO_UPDATE_NOTIFIER: '',
  };
}

const NOTICE = /A newer sq is available: 0\.1\.0 → 9\.1\.0\nTo upgrade: npm install -g lobstr-sq@9\.1\.0/;
const DAY = 24 * 60 * 60 * 1000;
const at = (ms: number) => fakeSqClock(undefined, ms);
const cached = (env: { SQ_CACHE_DIR: string }) => join(env.SQ_CACHE_DIR, 'update-check.json');

/** Waits for the background check of a previous command to have written the registry's answer. */
async function answered(env: { SQ_CACHE_DIR: string }) {
  await waitFor(
    () => existsSync(cached(env)) && JSON.parse(readFileSync(cached(env), 'utf8')).latest,
    Boolean,
    'the answer in the cache',
  );
}

describe('update notice', () => {
  it('on a terminal: shown after the output, once a day; the registry asked once a day', async () => {
    const env = setup();
    const t0 = Date.now();
    const first = await sq(['version'], { env, tty: true, clock: at(t0) });
    expect(first.code).toBe(0);
    await answered(env);
    expect(registry.requests).toBe(1);
    const second = await sq(['version'], { env, tty: true, clock: at(t0 + 60_000) });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^sq 0\.1\.0/);
    expect(second.stderr).toMatch(NOTICE);
    expect(second.stderr).toContain('sq config set update-notifier off, or SQ_NO_UPDATE_NOTIFIER=1');
    // the same day: no second notice, no second request
    const third = await sq(['version'], { env, tty: true, clock: at(t0 + 2 * 60 * 60_000) });
    expect(third.stderr).not.toMatch(/newer sq/);
    expect(registry.requests).toBe(1);
    // a day later: asked again, shown again
    const nextDay = await sq(['version'], { env, tty: true, clock: at(t0 + DAY + 60_000) });
    expect(nextDay.stderr).toMatch(NOTICE);
    await waitFor(
      () => registry.requests,
      (n) => n === 2,
      "the next day's check",
    );
  });

  it('after a failed command too, below its error', async () => {
    const env = setup();
    await sq(['version'], { env, tty: true });
    await answered(env);
    const r = await sq(['squids', 'get'], { env, tty: true });
    expect(r.code).toBe(2);
    expect(r.stderr.indexOf('error:')).toBeLessThan(r.stderr.search(/A newer sq/));
  });

  it('silent and no request in CI, in GitHub Actions, when piped, with SQ_NO_UPDATE_NOTIFIER=1', async () => {
    for (const [extra, tty] of [
      [{ CI: 'true' }, true],
      [{ GITHUB_ACTIONS: 'true' }, true],
      [{}, false],
      [{ SQ_NO_UPDATE_NOTIFIER: '1' }, true],
    ] as const) {
      const env = { ...setup(), ...extra };
      for (let i = 0; i < 2; i++) {
        const r = await sq(['version'], { env, tty });
        expect(r.stderr).toBe('');
      }
      expect(existsSync(cached(env))).toBe(false);
    }
    expect(registry.requests).toBe(0);
  });

  it('silent with `sq config set update-notifier off`; a bad value is exit 2 naming the allowed ones', async () => {
    const env = setup();
    const bad = await sq(['config', 'set', 'update-notifier', 'maybe'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('update-notifier must be on or off');
    const set = await sq(['config', 'set', 'update-notifier', 'off'], { env });
    expect(set.code, set.stderr).toBe(0);
    for (let i = 0; i < 2; i++) expect((await sq(['version'], { env, tty: true })).stderr).toBe('');
    expect(registry.requests).toBe(0);
  });

  it('no notice when the installed sq is the latest', async () => {
    registry.latest = '0.1.0';
    const env = setup();
    await sq(['version'], { env, tty: true });
    await answered(env);
    expect((await sq(['version'], { env, tty: true })).stderr).toBe('');
  });

  it('a registry that hangs: the command ends while the request is still open, with no notice and exit 0', async () => {
    registry.latest = 'hang';
    const env = setup();
    const r = await sq(['version'], { env, tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // The request was made and had not been answered when the command ended.
    await waitFor(
      () => registry.requests,
      (n) => n === 1,
      'the request',
    );
    const again = await sq(['version'], { env, tty: true });
    expect(again.stderr).toBe('');
    // asked at most once an hour while it does not answer
    expect(registry.requests).toBe(1);
  });
});

describe("the notice's upgrade line and its width (issue 48)", () => {
  it('names the command for how sq was installed: a git clone, npm, the standalone executable', async () => {
    const { installOf, upgradeHint } = await import('../../src/update/check.js');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const clone = tempDir('sq-clone-');
    mkdirSync(join(clone, 'bin'));
    writeFileSync(join(clone, 'bin', 'sq.js'), '');
    const npmCopy = tempDir('sq-npm-');
    mkdirSync(join(npmCopy, 'bin'));
    writeFileSync(join(npmCopy, 'bin', 'sq.js'), '');
    // A worktree's .git is a file: a clone all the same.
    writeFileSync(join(clone, '.git'), 'gitdir: /elsewhere\n');
    expect(installOf(join(clone, 'bin', 'sq.js'))).toEqual({ kind: 'git', root: clone });
    expect(installOf(join(npmCopy, 'bin', 'sq.js'))).toEqual({ kind: 'npm' });
    expect(upgradeHint('9.1.0', { kind: 'git', root: clone })).toBe(
      `cd ${clone} && git pull && npm install && npm run build (sq runs from this git clone)`,
    );
    expect(upgradeHint('9.1.0', { kind: 'npm' })).toMatch(/^npm install -g lobstr-sq@9\.1\.0/);
  });

  it('at 80 columns every line of the notice fits and no word is broken', async () => {
    const env = setup();
    const t0 = Date.now();
    await sq(['version'], { env, tty: true, clock: at(t0), columns: 80 });
    await answered(env);
    const r = await sq(['version'], { env, tty: true, clock: at(t0 + 60_000), columns: 80 });
    expect(r.stderr).toMatch(NOTICE);
    for (const line of r.stderr.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(r.stderr.replace(/\n +/g, ' ')).toContain(
      'To stop this notice: sq config set update-notifier off, or SQ_NO_UPDATE_NOTIFIER=1',
    );
  });
});
