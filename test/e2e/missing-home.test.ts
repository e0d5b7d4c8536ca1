// A $HOME that does not exist (a service account's, a container's) is never created: sq runs without a cache
// (code cache, pacing state, jq fingerprints) with SQ_TOKEN, and storing a profile fails with a message that names
// the directory and the way out (issue 22 item 9). The commands that run: the built binary, since bin/sq.js has its own
// cache directory (the code cache) and jq its own. What a missing home does to storing a profile or delivery state is
// the CLI's logic on the env it is given (src/config/store.ts reads env.HOME): in-process (sqIn, with no SQ_CONFIG_DIR),
// ~0.2 s of CPU less a call.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { BIN, sqIn } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator();

async function run(args: string[], env: Record<string, string>, input = '') {
  // Only what a bare environment has: no SQ_CONFIG_DIR, SQ_CACHE_DIR or XDG_* to fall back on.
  return execa(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    extendEnv: false,
    input,
    reject: false,
    timeout: 60_000,
  });
}

/** The same bare environment in-process: SQ_CONFIG_DIR unset (sqIn would give one), so HOME is where sq looks. */
async function runIn(args: string[], env: Record<string, string>, input = '') {
  const r = await sqIn(args, { env: { PATH: process.env.PATH ?? '', SQ_CONFIG_DIR: undefined, ...env }, input });
  return { exitCode: r.code, stdout: r.stdout, stderr: r.stderr };
}

it('commands work with SQ_TOKEN and leave the missing home uncreated', async () => {
  const home = join(tempDir('sq-nohome-'), 'home', 'svc');
  const env = { HOME: home, SQ_BASE_URL: emu.baseUrl, SQ_TOKEN: emu.token };
  for (const args of [
    ['squids', 'list', '--json'],
    ['squids', 'list', '--jq', '.[].name'],
    ['runs', 'list', '--squid', DEMO_SQUIDS.paris, '--jq', '.[0].squid_name // "ran"'],
  ]) {
    const r = await run(args, env);
    expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    expect(r.stdout.trim(), args.join(' ')).not.toBe('');
  }
  expect(existsSync(join(home, '..'))).toBe(false);
});

it('auth login fails clearly, naming the home and SQ_CONFIG_DIR, and creates nothing', async () => {
  const home = join(tempDir('sq-nohome-'), 'svc');
  const r = await runIn(['auth', 'login', '--with-token', '--base-url', emu.baseUrl], { HOME: home }, `${emu.token}\n`);
  expect(r.exitCode).toBe(1);
  expect(r.stderr).toContain(`the home directory ${home} does not exist, and sq does not create it`);
  expect(r.stderr).toContain('SQ_CONFIG_DIR');
  expect(existsSync(home)).toBe(false);
});

it('delivery apply applies, says what it could not keep, and creates nothing: the next plan sends the unreadable fields again', async () => {
  emu.expectWrites('POST /v1/delivery');
  const dir = tempDir('sq-nohome-');
  const home = join(dir, 'svc');
  const file = join(dir, 'delivery.yaml');
  writeFileSync(
    file,
    'squids:\n  "Paris restaurants":\n    webhook: { url: https://ci.example.com/hook, events: [run.done] }\n',
  );
  const env = { HOME: home, SQ_BASE_URL: emu.baseUrl, SQ_TOKEN: emu.token };
  const r = await runIn(['delivery', 'apply', '-f', file], env);
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stderr).toContain('could not keep what was applied');
  expect(r.stderr).toContain(`the home directory ${home} does not exist`);
  expect(existsSync(home)).toBe(false);
  const p = await runIn(['plan', '-f', file, '--detailed-exitcode'], env);
  expect(p.exitCode).toBe(10);
  expect(p.stdout).toContain('retry: cannot be read back: will be sent');
});
