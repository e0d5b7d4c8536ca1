// Profiles written by several sq processes at once (issue 10, item 10): every change is a locked read-modify-write,
// so parallel logins, switches and logouts lose nothing. Real processes (the built bin) against a real emulator; what
// is read back afterwards, and the takeover of a stale lock, in-process. Shared by test/e2e/profiles-concurrency.test.ts
// (npm test, fewer processes) and test/system/profiles-concurrency.test.ts (npm run test:system, the full sweep).
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sqBin, sqIn, tempConfigDir } from './cli.js';
import type { TestEmulator } from './emulator.js';

export interface RaceSizes {
  /** Processes at once in the logins; the race of switch, logout and login runs three for each of `raceWorkers`. */
  workers: number;
  /** Logins one after the other in each of the `workers`. */
  rounds: number;
  raceWorkers: number;
  /** Rounds of the race in each of the `raceWorkers`. */
  races: number;
  /**
   * One test instead of two (npm test's size): the `workers` logins are the race's logins, all started at once with its
   * switches and logouts, and both tests' assertions are made on what that leaves. The same kinds of write race each
   * other, with more at once (8 logins, 4 switches and 4 logouts: 16 processes, where the two tests started 8 and 12).
   */
  together?: boolean;
}

export function profileRaces(
  emu: TestEmulator,
  { workers, rounds, raceWorkers, races, together = false }: RaceSizes,
): void {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const env = () => ({ SQ_CONFIG_DIR: dir, SQ_BASE_URL: emu.baseUrl });

  const login = async (profile: string, inProcess = false) => {
    const args = ['auth', 'login', '--with-token', '--profile', profile];
    const r = await (inProcess ? sqIn : sqBin)(args, { env: env(), input: `${emu.token}\n` });
    expect(r.code, r.stderr).toBe(0);
  };
  const profiles = async (): Promise<Array<{ name: string; active: boolean; key: string | null }>> => {
    const r = await sqIn(['profiles', 'list', '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };

  const names = (w: number) => Array.from({ length: rounds }, (_, r) => `p${w}-r${r}`);
  const all = Array.from({ length: workers }, (_, w) => names(w))
    .flat()
    .sort();

  const logins = () =>
    Promise.all(
      Array.from({ length: workers }, async (_, w) => {
        for (const name of names(w)) await login(name);
      }),
    );
  /** What the logins leave (with `together`, beside the race's profiles): every profile, each with its key. */
  const loginsLanded = (list: Array<{ name: string; active: boolean; key: string | null }>) => {
    const logged = list.filter((p) => all.includes(p.name));
    expect(logged.map((p) => p.name).sort()).toEqual(all);
    expect(logged.every((p) => p.key !== null)).toBe(true);
    expect(list.filter((p) => p.active)).toHaveLength(1);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  };

  describe('concurrent profile writes', () => {
    if (!together)
      it(`${workers} parallel logins × ${rounds} rounds keep all ${workers * rounds} profiles`, async () => {
        dir = tempConfigDir();
        await logins();
        const list = await profiles();
        expect(list.map((p) => p.name).sort()).toEqual(all);
        loginsLanded(list);
      }, 120_000);

    const title = together
      ? `switch, logout and ${workers} parallel logins × ${rounds} rounds racing each other: each change lands, none undoes another, all ${workers * rounds} profiles kept`
      : 'switch, logout and login racing each other: each change lands, none undoes another';
    it(title, async () => {
      dir = tempConfigDir();
      // The profiles the race starts from, one after the other in-process: parallel logins landing is shown by the
      // test above (or, with `together`, by the logins of this one).
      for (let w = 0; w < raceWorkers; w++) await login(`keep-${w}`, true);
      await Promise.all([
        ...Array.from({ length: raceWorkers }, async (_, w) => {
          for (let r = 0; r < races; r++) {
            const steps = [
              sqBin(['auth', 'switch', `keep-${(w + r) % raceWorkers}`], { env: env() }),
              sqBin(['auth', 'logout', '--profile', `keep-${w}`, '--yes'], { env: env() }),
              ...(together
                ? []
                : [
                    sqBin(['auth', 'login', '--with-token', '--profile', `new-${w}-${r}`], {
                      env: env(),
                      input: emu.token,
                    }),
                  ]),
            ];
            for (const res of await Promise.all(steps)) expect(res.code, res.stderr).toBe(0);
          }
        }),
        ...(together ? [logins()] : []),
      ]);
      const list = await profiles();
      const byName = new Map(list.map((p) => [p.name, p]));
      for (let w = 0; w < raceWorkers; w++) {
        expect(byName.get(`keep-${w}`)?.key, `keep-${w} logged out`).toBeNull();
        if (!together)
          for (let r = 0; r < races; r++) expect(byName.get(`new-${w}-${r}`)?.key, `new-${w}-${r}`).not.toBeNull();
      }
      if (together) {
        expect(list).toHaveLength(raceWorkers + workers * rounds);
        loginsLanded(list);
      } else expect(list).toHaveLength(raceWorkers * (1 + races));
      expect(list.filter((p) => p.active)).toHaveLength(1);
    }, 120_000);

    it('a stale lock left by a crashed process is taken over, not waited on forever', async () => {
      dir = tempConfigDir();
      mkdirSync(join(dir, 'config.json.lock'), { recursive: true });
      const old = new Date(Date.now() - 60_000);
      utimesSync(join(dir, 'config.json.lock'), old, old);
      await login('after-crash', true);
      expect((await profiles()).map((p) => p.name)).toEqual(['after-crash']);
      expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).active).toBe('after-crash');
    }, 60_000);
  });
}
