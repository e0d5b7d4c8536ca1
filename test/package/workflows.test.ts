// The release workflow and action.yml pass the GitHub Actions schema check that `npm run lint:workflows` runs
// (@action-validator/cli: the schemas are inside the package, nothing is fetched), and that check does fail on a
// workflow that is wrong, so a passing lint means something.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../helpers/fs.js';

const root = resolve(import.meta.dirname, '../..');
const validator = join(root, 'node_modules/@action-validator/cli/cli.mjs');

it('release.yml and action.yml are valid', () => {
  for (const f of ['.github/workflows/release.yml', 'action.yml'])
    execFileSync(process.execPath, [validator, join(root, f)], { stdio: 'pipe' });
});

it('a workflow with a misspelt key is refused', () => {
  const dir = tempDir('sq-workflow-');
  try {
    const bad = join(dir, 'release.yml');
    writeFileSync(
      bad,
      readFileSync(join(root, '.github/workflows/release.yml'), 'utf8').replace(
        'runs-on: ${{ matrix.runner }}',
        'runs-onn: ${{ matrix.runner }}',
      ),
    );
    const r = spawnSync(process.execPath, [validator, bad], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toContain("Additional property 'runs-onn' is not allowed");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('release.yml builds on native runners for the four platforms, and publishes SHA256SUMS checked by sha256sum -c', () => {
  const text = readFileSync(join(root, '.github/workflows/release.yml'), 'utf8');
  for (const [target, runner] of [
    ['linux-x64', 'ubuntu-24.04'],
    ['linux-arm64', 'ubuntu-24.04-arm'],
    ['darwin-arm64', 'macos-14'],
    ['win-x64', 'windows-2022'],
  ]) {
    expect(text).toMatch(new RegExp(`- target: ${target}\\n\\s+runner: ${runner}\\n`));
  }
  expect(text).toContain('sha256sum -- * > SHA256SUMS');
  expect(text).toContain('sha256sum -c SHA256SUMS');
  expect(text).toMatch(/Developer ID/);
});
