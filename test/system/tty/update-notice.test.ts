// A real terminal (tmux) and the built launcher: the update check runs in a process of its own (sq leaves as soon as
// its output is out), the next command on the terminal shows the notice below its output, and the one after it, the
// same day, does not. The registry is a fake one on loopback (SQ_UPDATE_URL).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../../helpers/fs.js';
import { fakeRegistry, type FakeRegistry } from '../../helpers/registry.js';
import { waitFor } from '../../helpers/wait.js';
import { type Term, useTmux } from './tmux.js';

let registry: FakeRegistry;
const { open } = useTmux();
let term: Term | undefined;
let home: string;

beforeAll(async () => {
  registry = await fakeRegistry('9.1.0');
  home = tempDir('sq-tty-update-');
});
afterAll(async () => {
  await registry.close();
  rmSync(home, { recursive: true, force: true });
});

// GITHUB_ACTIONS is emptied: on a CI runner the notice would rightly stay silent, and this test is about the terminal.
const env = () => ({
  HOME: home,
  SQ_CONFIG_DIR: join(home, 'cfg'),
  SQ_CACHE_DIR: join(home, 'cache'),
  SQ_UPDATE_URL: registry.url,
  SQ_NO_UPDATE_NOTIFIER: '',
  GITHUB_ACTIONS: '',
});

it('shown once a day on a terminal, after the output', async () => {
  term = await open(['version'], env());
  await term.waitFor(/EXIT:0/);
  await term.close();
  // the detached check wrote the registry's answer
  const file = join(home, 'cache', 'update-check.json');
  await waitFor(
    () => existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).latest,
    (v) => v === '9.1.0',
    'the cached answer',
  );
  expect(registry.requests).toBe(1);
  // At 80 columns (issue 48): sq runs here from its git clone, so the notice says to pull and build, and its lines
  // break between words, never inside one.
  term = await open(['version'], env(), { width: 80 });
  const screen = await term.waitFor(/EXIT:\d+/);
  expect(screen).toMatch(/EXIT:0/);
  expect(screen).toMatch(/sq 0\.1\.0[^\n]*\n[\s\S]*A newer sq is available: 0\.1\.0 → 9\.1\.0\nTo upgrade: cd /);
  const joined = screen.replace(/\n +/g, ' ');
  expect(joined).toMatch(
    /To upgrade: cd \S+ && git pull && npm install && npm run build \(sq runs from this git clone\)/,
  );
  expect(joined).toContain('To stop this notice: sq config set update-notifier off, or SQ_NO_UPDATE_NOTIFIER=1');
  await term.close();
  term = await open(['version'], env());
  const third = await term.waitFor(/EXIT:\d+/);
  expect(third).not.toMatch(/newer sq/);
  expect(registry.requests).toBe(1);
}, 60_000);

it('silent in CI on the same terminal', async () => {
  rmSync(join(home, 'cache'), { recursive: true, force: true });
  term = await open(['version'], { ...env(), CI: 'true' });
  const screen = await term.waitFor(/EXIT:\d+/);
  expect(screen).not.toMatch(/newer sq/);
  expect(existsSync(join(home, 'cache', 'update-check.json'))).toBe(false);
}, 60_000);
