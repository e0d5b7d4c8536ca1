// Values the service defines (account types) are asked from sq itself at completion time, with the user's key and
// base URL. Here: a real emulator, the BUILT sq on PATH (needs `npm run build`, which npm test runs), and each
// shell's completion for `sq accounts sync --type `.
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sq, tempConfigDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const root = resolve(import.meta.dirname, '../..');
let emu: TestEmulator;
let dir: string;
let env: Record<string, string>;
let typeNames: string[];

beforeAll(async () => {
  expect(existsSync(join(root, 'dist/main.js')), 'dist/ is missing: run `npm run build` first').toBe(true);
  emu = await startTestEmulator();
  dir = mkdtempSync(join(tmpdir(), 'sq-dyn-comp-'));
  writeFileSync(join(dir, 'sq'), `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin/sq.js')}" "$@"\n`);
  chmodSync(join(dir, 'sq'), 0o755);
  env = { ...emu.env(), SQ_CONFIG_DIR: tempConfigDir(), PATH: `${dir}:${process.env.PATH}`, HOME: dir, NO_COLOR: '1' };
  for (const shell of ['bash', 'zsh', 'fish'] as const) writeFileSync(join(dir, shell === 'zsh' ? '_sq' : `sq.${shell}`), (await sq(['completion', shell])).stdout);
  const types = await sq(['accounts', 'types', '--json'], { env: emu.env() });
  expect(types.code, types.stderr).toBe(0);
  typeNames = (JSON.parse(types.stdout) as { name: string }[]).map((t) => t.name).sort();
  expect(typeNames.length).toBeGreaterThan(0);
}, 30_000);

afterAll(async () => {
  await emu?.close();
});

it('bash offers the account types the service lists', async () => {
  const r = await execa('bash', ['--norc', '-c', 'source "$1"; COMP_WORDS=(sq accounts sync --type ""); COMP_CWORD=4; _sq; printf "%s\\n" "${COMPREPLY[@]}"', 'bash', join(dir, 'sq.bash')], { env, extendEnv: false });
  expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(typeNames);
});

it('fish offers the account types the service lists', async () => {
  const r = await execa('fish', ['--no-config', '-c', 'source $argv[1]; complete -C "sq accounts sync --type "', join(dir, 'sq.fish')], { env, extendEnv: false });
  expect(r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]).sort()).toEqual(typeNames);
});

it('zsh offers the account types the service lists', async () => {
  const r = await execa('zsh', ['-f', resolve(import.meta.dirname, 'capture.zsh'), dir, 'sq accounts sync --type '], { env, extendEnv: false, cwd: dir, timeout: 30_000 });
  expect(r.stdout.split('\n').slice(1).filter(Boolean).sort()).toEqual(typeNames);
});

it('offers nothing, quietly, when the service cannot be reached', async () => {
  const r = await execa('bash', ['--norc', '-c', 'source "$1"; COMP_WORDS=(sq accounts sync --type ""); COMP_CWORD=4; _sq; printf "%s\\n" "${COMPREPLY[@]}"', 'bash', join(dir, 'sq.bash')], {
    env: { ...env, SQ_BASE_URL: 'http://127.0.0.1:9', SQ_CONNECT_TIMEOUT: '1s' },
    extendEnv: false,
  });
  expect(r.stdout.trim()).toBe('');
  expect(r.stderr).toBe('');
});
