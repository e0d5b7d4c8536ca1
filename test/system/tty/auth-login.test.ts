// A real terminal (tmux): `sq auth login` asks for the key with a hidden prompt; what is typed is never echoed,
// and the profile is written with mode 0600.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempConfigDir } from '../../helpers/cli.js';
import { type Term, useTmuxEmulator } from './tmux.js';

const TOKEN = 'tty-Login-Key-5f3a9c';
// No key in the environment: the test types it.
const { emu, open } = useTmuxEmulator({ token: TOKEN });
let term: Term | undefined;

it('hidden prompt: the key is not shown, it is checked and saved in a 0600 profile', async () => {
  const cfg = tempConfigDir();
  term = await open(['auth', 'login'], { SQ_TOKEN: undefined, SQ_CONFIG_DIR: cfg });
  const prompt = await term.waitFor(/Paste your API key/);
  // Where to find the key, as the service's docs say: the API page of the dashboard.
  expect(prompt.replace(/\s+/g, ' ')).toContain(
    'Your API key is on the API page of the dashboard (https://app.lobstr.io/dashboard)',
  );
  await term.type(TOKEN);
  // Mid-typing, the screen must not show any of it.
  expect(await term.screen()).not.toContain(TOKEN.slice(0, 8));
  await term.keys('Enter');
  const screen = await term.waitFor(/EXIT:\d+/);
  expect(screen).toMatch(/EXIT:0/);
  expect(screen).toMatch(/Logged in as demo@sq-emulator\.local/);
  expect(screen).not.toContain(TOKEN);
  expect(screen).not.toContain(TOKEN.slice(0, 8));

  const files = readdirSync(cfg).filter((f) => f.endsWith('.json'));
  expect(files.length).toBeGreaterThan(0);
  const file = join(cfg, files[0]);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(cfg).mode & 0o777).toBe(0o700);
  expect(readFileSync(file, 'utf8')).toContain(TOKEN);
  const me = (await emu.requests()).filter((r) => r.path === '/v1/me');
  expect(me).toHaveLength(1);
}, 60_000);

it.each([
  ['y', 0],
  ['n', 1],
])(
  'a corrupt profile file: login asks before replacing it; answer %s → exit %i',
  async (answer, code) => {
    const cfg = tempConfigDir();
    const corrupt = '{"profiles":{"old":{"token":"sq_live_Old-Stored-Key-4455"}}, nope';
    writeFileSync(join(cfg, 'config.json'), corrupt, { mode: 0o600 });
    await term?.close();
    term = await open(['auth', 'login', '--profile', 'fresh'], { SQ_TOKEN: undefined, SQ_CONFIG_DIR: cfg });
    await term.waitFor(/Paste your API key/);
    await term.type(TOKEN);
    await term.keys('Enter');
    const ask = await term.waitFor(/Replace .*config\.json\?/);
    // The long temp path may wrap the warning at the terminal's width: compare it as one line.
    expect(ask.replace(/\s+/g, ' ')).toContain('is corrupt (its content is not shown)');
    expect(ask).not.toContain('Old-Stored-Key');
    await term.type(answer);
    await term.keys('Enter');
    const screen = await term.waitFor(/EXIT:\d+/);
    expect(screen).toContain(`EXIT:${code}`);
    expect(screen).not.toContain('Old-Stored-Key');
    const backups = readdirSync(cfg).filter((f) => f.startsWith('config.json.corrupt-'));
    if (answer === 'y') {
      expect(screen).toMatch(/Logged in as demo@sq-emulator\.local \(profile "fresh"/);
      expect(backups.map((f) => readFileSync(join(cfg, f), 'utf8'))).toEqual([corrupt]);
      expect(JSON.parse(readFileSync(join(cfg, 'config.json'), 'utf8')).profiles).toEqual({
        fresh: expect.objectContaining({ token: TOKEN }),
      });
    } else {
      expect(screen).toContain('was left as it is');
      expect(backups).toEqual([]);
      expect(readFileSync(join(cfg, 'config.json'), 'utf8')).toBe(corrupt);
    }
  },
  60_000,
);
