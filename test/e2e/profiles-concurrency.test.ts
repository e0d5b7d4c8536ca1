// Profiles written by several sq processes at once (issue 10, item 10): every change is a locked read-modify-write,
// so parallel logins, switches and logouts lose nothing. Real processes (the built bin) against a real emulator.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { sqBin, tempConfigDir } from '../helpers/cli.js';

const emu = useEmulator({ each: 'clear' });
// 8 processes at once contend for the lock; each round is a process start (~0.25 s of CPU), so the rounds are few:
// 3 logins a worker and 2 rounds of switch/logout/login keep every write racing 7 others at half the processes.
const WORKERS = 8;
const ROUNDS = 3;
const RACES = 2;

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function env() {
  return { SQ_CONFIG_DIR: dir, SQ_BASE_URL: emu.baseUrl };
}

async function login(profile: string) {
  const r = await sqBin(['auth', 'login', '--with-token', '--profile', profile], {
    env: env(),
    input: `${emu.token}\n`,
  });
  expect(r.code, r.stderr).toBe(0);
}

async function profiles(): Promise<Array<{ name: string; active: boolean; key: string | null }>> {
  const r = await sqBin(['profiles', 'list', '--json'], { env: env() });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

const names = (w: number) => Array.from({ length: ROUNDS }, (_, r) => `p${w}-r${r}`);
const all = Array.from({ length: WORKERS }, (_, w) => names(w))
  .flat()
  .sort();

describe('concurrent profile writes', () => {
  it(`${WORKERS} parallel logins × ${ROUNDS} rounds keep all ${WORKERS * ROUNDS} profiles`, async () => {
    dir = tempConfigDir();
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, w) => {
        for (const name of names(w)) await login(name);
      }),
    );
    const list = await profiles();
    expect(list.map((p) => p.name).sort()).toEqual(all);
    expect(list.every((p) => p.key !== null)).toBe(true);
    expect(list.filter((p) => p.active)).toHaveLength(1);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  }, 120_000);

  it('switch, logout and login racing each other: each change lands, none undoes another', async () => {
    dir = tempConfigDir();
    // Parallel as well: the test above shows parallel logins all land.
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => login(`keep-${w}`)));
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, w) => {
        for (let r = 0; r < RACES; r++) {
          const steps = [
            sqBin(['auth', 'switch', `keep-${(w + r) % WORKERS}`], { env: env() }),
            sqBin(['auth', 'logout', '--profile', `keep-${w}`, '--yes'], { env: env() }),
            sqBin(['auth', 'login', '--with-token', '--profile', `new-${w}-${r}`], { env: env(), input: emu.token }),
          ];
          for (const res of await Promise.all(steps)) expect(res.code, res.stderr).toBe(0);
        }
      }),
    );
    const list = await profiles();
    const byName = new Map(list.map((p) => [p.name, p]));
    for (let w = 0; w < WORKERS; w++) {
      expect(byName.get(`keep-${w}`)?.key, `keep-${w} logged out`).toBeNull();
      for (let r = 0; r < RACES; r++) expect(byName.get(`new-${w}-${r}`)?.key, `new-${w}-${r}`).not.toBeNull();
    }
    expect(list).toHaveLength(WORKERS * (1 + RACES));
    expect(list.filter((p) => p.active)).toHaveLength(1);
  }, 120_000);

  it('a stale lock left by a crashed process is taken over, not waited on forever', async () => {
    dir = tempConfigDir();
    mkdirSync(join(dir, 'config.json.lock'), { recursive: true });
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'config.json.lock'), old, old);
    await login('after-crash');
    expect((await profiles()).map((p) => p.name)).toEqual(['after-crash']);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).active).toBe('after-crash');
  }, 60_000);
});
