// The newcomer's tour (test/demo/tour.mjs, `npm run demo`) as part of the suite: it drives the BUILT bin/sq.js, so
// it needs `npm run build` first (npm test does it).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import { DEMO_TOKEN } from '../../src/emulator/seed.js';

const root = resolve(import.meta.dirname, '../..');

it('the tour runs every step against a local emulator and exits 0', async () => {
  expect(existsSync(resolve(root, 'dist/shell/main.js')), 'dist/ is missing: run `npm run build` first').toBe(true);
  const r = await execa(process.execPath, [resolve(import.meta.dirname, 'tour.mjs')], {
    reject: false,
    timeout: 120_000,
  });
  expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
  // Each command is shown before its output, as a user would type it.
  for (const cmd of [
    '$ sq auth status',
    '$ sq me',
    '$ sq balance',
    '$ sq crawlers list',
    '$ sq squids create',
    '$ sq tasks add',
    '$ sq squids update',
    '$ sq delivery webhook',
    '$ sq runs start',
    '$ sq results list',
    '$ sq results export',
    '$ sq billing auto-reset --enable --threshold 90 --yes',
  ]) {
    expect(r.stdout).toContain(cmd);
  }
  expect(r.stdout).toMatch(/\[webhook listen\] .*run\.done/);
  expect(r.stdout).toContain('Tour done: every step worked.');
  // The key went in on stdin: it is never echoed in full.
  expect(r.stdout).not.toContain(DEMO_TOKEN);
}, 150_000);
