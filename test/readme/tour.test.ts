// The README's "Try it" block, run as written by bash (only the ports are swapped for free ones and $PWD for the
// repository, so it can run anywhere and in parallel with other tests).
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { tempDir } from '../helpers/fs.js';
import { unusedPort } from '../helpers/net.js';

const root = resolve(import.meta.dirname, '../..');

function tourBlock(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const m = /<!-- readme-tour:start -->\s*```bash\n([\s\S]*?)```\s*<!-- readme-tour:end -->/.exec(readme);
  if (!m) throw new Error('README has no readme-tour block');
  return m[1];
}

describe('README tour', () => {
  it('runs as written', async () => {
    const [emuPort, hookPort] = [await unusedPort(), await unusedPort()];
    const script = tourBlock()
      .replaceAll('$PWD/bin/sq.js', join(root, 'bin/sq.js'))
      .replaceAll('8787', String(emuPort))
      .replaceAll('8788', String(hookPort));
    const cwd = tempDir('sq-readme-');
    // A failing line ends the script: its background jobs (emulator, listener) must end with it, or their open
    // pipes would keep the test waiting instead of reporting the failure.
    const r = await execa(
      'bash',
      ['-c', `set -euo pipefail\nshopt -s expand_aliases\ntrap 'kill $(jobs -p) 2>/dev/null' EXIT\n${script}`],
      {
        cwd,
        // TMPDIR: the tour's `mktemp -d` (its profile store, its exports) lands in a temp dir the test removes, not in the
        // system's /tmp, where every npm test left one.
        env: { PATH: process.env.PATH ?? '', HOME: cwd, NO_COLOR: '1', TMPDIR: tempDir('sq-readme-tmp-') },
        extendEnv: false,
        reject: false,
        timeout: 120_000,
      },
    );
    const out = `${r.stdout}\n${r.stderr}`;
    expect(r.exitCode, out).toBe(0);
    expect(r.stderr).toContain('demo@sq-emulator.local');
    expect(r.stdout).toContain('Paris restaurants');
    expect(r.stdout).toMatch(/run\.running/);
    expect(r.stdout).toMatch(/run\.done/);
    // The export went to the tour's temp dir (its head is printed), and the working directory (the repository, for a
    // reader who pastes the block there) is left as it was: nothing written, no temp files.
    expect(r.stdout).toMatch(/^id,squid,run,scraping_time/m);
    expect(readdirSync(cwd).filter((f) => !f.startsWith('.'))).toEqual([]);
  }, 150_000);
});
