// action.yml's steps, run by test/package/run-action.mjs with a fake GITHUB_* environment (GITHUB_OUTPUT, GITHUB_PATH,
// GITHUB_ENV, runner.temp, a runner HOME, actions/cache as a local directory), bash and curl: the `version` output is
// the bare version, a second job takes the executable from the cache (and still checks its sha256), and the key given
// as `token` is masked and set as SQ_TOKEN in the job's environment only: no profile file, nothing on the runner's
// disk. The "executable" is a two-line script that runs this checkout's bin/sq.js, so no build of the standalone
// executable is needed (.ci/package-checks.sh runs the action against the real tarball and executable).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';

const RUNNER = resolve(import.meta.dirname, '../package/run-action.mjs');
let emu: TestEmulator;
let work: string;
let exe: string;
let sha: string;

beforeAll(async () => {
  emu = await startTestEmulator();
  work = tempDir('sq-action-');
  exe = join(work, 'sq-linux-x64');
  writeFileSync(exe, `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(exe, 0o755);
  sha = createHash('sha256').update(readFileSync(exe)).digest('hex');
});
afterAll(async () => {
  await emu.close();
  rmSync(work, { recursive: true, force: true });
});

async function action(home: string, set: Record<string, string>) {
  const args = Object.entries({ source: 'binary', version: '0.1.0', sha256: sha, ...set }).flatMap(([k, v]) => [
    '--set',
    `${k}=${v}`,
  ]);
  const r = await execa(process.execPath, [RUNNER, ...args], {
    env: {
      PATH: process.env.PATH,
      RUN_ACTION_HOME: home,
      RUN_ACTION_CACHE: join(work, 'actions-cache'),
      RUN_ACTION_TEMP: work,
      SQ_NO_UPDATE_NOTIFIER: '1',
    },
    extendEnv: false,
    reject: false,
  });
  return { code: r.exitCode, stderr: r.stderr, out: r.exitCode === 0 ? JSON.parse(r.stdout) : null };
}

/** Every file under `dir`. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

it('version is bare; the key is masked and only in the job environment; the second job hits the cache', async () => {
  const home1 = join(work, 'home1');
  const first = await action(home1, { url: `file://${exe}`, token: emu.token, 'base-url': emu.baseUrl });
  expect(first.code, first.stderr).toBe(0);
  expect(first.out.outputs).toEqual({ version: '0.1.0', 'cache-hit': 'false' });
  expect(first.out.env).toEqual({ SQ_TOKEN: '***', SQ_BASE_URL: emu.baseUrl });
  expect(first.out.masks).toBe(1);
  expect(first.stderr).not.toContain(emu.token);
  // Nothing of the key on the runner's disk: no profile file, no file anywhere in its home holding it.
  expect(files(home1).filter((f) => f.endsWith('config.json'))).toEqual([]);
  for (const f of files(home1)) expect(readFileSync(f, 'utf8').includes(emu.token), f).toBe(false);

  // Another job on a fresh runner: the executable comes from the cache (the URL now points nowhere).
  const second = await action(join(work, 'home2'), { url: `file://${join(work, 'gone')}` });
  expect(second.code, second.stderr).toBe(0);
  expect(second.out.outputs).toEqual({ version: '0.1.0', 'cache-hit': 'true' });
  expect(second.stderr).toContain('sq 0.1.0 from the cache');
  expect(second.out.env).toEqual({});
}, 120_000);

it('a cached file is checked like a download: one altered in the cache stops the job before it runs', async () => {
  const cached = join(work, 'actions-cache', `sq-binary-0.1.0-${sha}-Linux-${process.arch.toUpperCase()}`, 'bin', 'sq');
  writeFileSync(cached, '#!/bin/sh\necho tampered\n');
  const r = await action(join(work, 'home3'), { url: `file://${join(work, 'gone')}` });
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain('cache hit');
  expect(r.stderr).toContain('sha256 mismatch');
  expect(r.stderr).not.toContain('tampered');
  // The altered entry stays in the cache (a hit is never saved again): the next test starts from an empty one.
  rmSync(join(work, 'actions-cache'), { recursive: true, force: true });
}, 60_000);

it('a key the service refuses stops the job at the key step (sq auth status: exit 4)', async () => {
  const r = await action(join(work, 'home4'), {
    url: `file://${exe}`,
    token: 'sq_refused_key_000',
    'base-url': emu.baseUrl,
  });
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(/step "Use the key" failed \(exit 4\)/);
  expect(r.stderr).not.toContain('sq_refused_key_000');
}, 60_000);
