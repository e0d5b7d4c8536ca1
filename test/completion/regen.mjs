#!/usr/bin/env node
// Rewrites completions/sq.{bash,zsh,fish} from the built CLI, exactly as `sq completion <shell>` prints them.
// Usage (from the repo root): npm run build && node test/completion/regen.mjs
// drift.test.ts fails until this has been run after a command, option or choice changes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const configDir = mkdtempSync(join(tmpdir(), 'sq-regen-'));
try {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const script = execFileSync(process.execPath, [join(root, 'bin/sq.js'), 'completion', shell], {
      env: { PATH: process.env.PATH, SQ_CONFIG_DIR: configDir, NO_COLOR: '1' },
      encoding: 'utf8',
    });
    const file = join(root, 'completions', `sq.${shell}`);
    writeFileSync(file, script);
    console.log(`wrote ${file} (${script.split('\n').length} lines)`);
  }
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
