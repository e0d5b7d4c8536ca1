// Review findings on auth and profiles: local config writes honour --dry-run, the verbs that delete a stored key
// confirm, any profile name is a real key (and --profile/SQ_PROFILE names are checked), a profile with non-string
// fields is the corrupt-file error, a base URL's password is never echoed, and a key no HTTP header can carry is
// exit 2 before any request. In-process against the emulator, with a real temp profile dir.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { sq, tempConfigDir } from '../helpers/cli.js';
import { ProfileStore } from '../../src/config/store.js';

const emu = useEmulator({ each: 'clear' });
let dir: string;
let file: string;
beforeEach(() => {
  dir = tempConfigDir();
  file = join(dir, 'config.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const env = (extra: Record<string, string> = {}) => ({ SQ_CONFIG_DIR: dir, SQ_BASE_URL: emu.baseUrl, ...extra });
const stored = () => JSON.parse(readFileSync(file, 'utf8'));

async function loginAs(...names: string[]) {
  for (const name of names) {
    const r = await sq(['auth', 'login', '--with-token', '--profile', name], { env: env(), stdin: emu.token });
    expect(r.code, r.stderr).toBe(0);
  }
}

describe('local config writes honour --dry-run and nothing changes', () => {
  it('profiles remove, auth logout, auth switch and auth login --dry-run say what would change, exit 0', async () => {
    await loginAs('p1', 'p2');
    const before = readFileSync(file, 'utf8');
    const cases: [string[], string, string?][] = [
      [['profiles', 'remove', 'p1', '--dry-run'], 'would remove profile "p1"'],
      [['auth', 'logout', '--profile', 'p2', '--dry-run'], 'would remove the stored key of profile "p2"'],
      [['auth', 'switch', 'p1', '--dry-run'], 'would make "p1" the active profile'],
      [
        ['auth', 'login', '--with-token', '--profile', 'p3', '--dry-run'],
        'would store the key of demo@sq-emulator.local in profile "p3"',
        emu.token,
      ],
    ];
    for (const [args, said, stdin] of cases) {
      const r = await sq(args, { env: env(), stdin });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toContain(said);
      expect(r.stderr).toContain('nothing was changed');
      expect(readFileSync(file, 'utf8'), args.join(' ')).toBe(before);
    }
  });

  it('--dry-run on a profile that does not exist is still exit 3', async () => {
    await loginAs('p1');
    expect((await sq(['profiles', 'remove', 'nope', '--dry-run'], { env: env() })).code).toBe(3);
    expect((await sq(['auth', 'switch', 'nope', '--dry-run'], { env: env() })).code).toBe(3);
  });
});

describe('profiles remove and auth logout confirm', () => {
  it('with no terminal and no --yes: exit 2 naming --yes, nothing removed', async () => {
    await loginAs('p1', 'p2');
    const before = readFileSync(file, 'utf8');
    for (const args of [
      ['profiles', 'remove', 'p1'],
      ['auth', 'logout', '--profile', 'p2'],
    ]) {
      const r = await sq(args, { env: env() });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('--yes');
    }
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('an unknown profile is exit 3 before asking: no --yes needed to learn it does not exist, the stored ones named', async () => {
    await loginAs('p1', 'p2');
    const script = await sq(['profiles', 'remove', 'nope'], { env: env() });
    expect(script.code, script.stderr).toBe(3);
    expect(script.stderr).toContain('no profile named "nope" (profiles: p1, p2)');
    expect(script.stderr).not.toContain('--yes');
    const term = await sq(['profiles', 'remove', 'nope'], { env: env(), tty: true, stdin: '' });
    expect(term.code).toBe(3);
    expect(term.stderr).not.toMatch(/Remove profile/);
  });

  it('--yes removes without asking', async () => {
    await loginAs('p1', 'p2');
    expect((await sq(['profiles', 'remove', 'p1', '--yes'], { env: env() })).code).toBe(0);
    expect((await sq(['auth', 'logout', '--profile', 'p2', '--yes'], { env: env() })).code).toBe(0);
    expect(stored().profiles).toEqual({ p2: { base_url: emu.baseUrl } });
  });

  it('on a terminal they ask, naming the profile; yes removes', async () => {
    await loginAs('p1', 'p2');
    const rm = await sq(['profiles', 'remove', 'p1'], { env: env(), tty: true, stdin: 'y\n' });
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stderr).toContain('Remove profile "p1" and its stored key?');
    const out = await sq(['auth', 'logout', '--profile', 'p2'], { env: env(), tty: true, stdin: 'y\n' });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain('Remove the stored key of profile "p2"?');
    expect(stored().profiles).toEqual({ p2: { base_url: emu.baseUrl } });
  });
});

describe('profile names', () => {
  it.each(['__proto__', 'constructor', 'prototype', '-x', '.hidden', 'a b', 'x'.repeat(65), 'ü'])(
    '--profile %j is exit 2 naming the flag and the rule, nothing sent or stored',
    async (name) => {
      const r = await sq(['auth', 'login', '--with-token', '--profile', name], { env: env(), stdin: emu.token });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('--profile must be a profile name: 1 to 64 letters, digits');
      expect(await emu.requests()).toEqual([]);
      const viaEnv = await sq(['me'], { env: env({ SQ_PROFILE: name, SQ_TOKEN: emu.token }) });
      expect(viaEnv.code).toBe(2);
      expect(viaEnv.stderr).toContain('SQ_PROFILE must be a profile name');
    },
  );

  it('the store keeps any name as a real key: "__proto__" saved is in the file, read back and removed', async () => {
    const store = new ProfileStore({ SQ_CONFIG_DIR: dir });
    await store.save('__proto__', () => ({ token: 'sq_live_proto-key', base_url: emu.baseUrl }), true);
    const saved = stored().profiles;
    expect(Object.hasOwn(saved, '__proto__')).toBe(true);
    expect(saved['__proto__'].token).toBe('sq_live_proto-key');
    const again = new ProfileStore({ SQ_CONFIG_DIR: dir });
    expect(again.names()).toEqual(['__proto__']);
    expect(again.get('__proto__')?.token).toBe('sq_live_proto-key');
    expect(again.get('constructor')).toBeUndefined();
    expect(await again.remove('__proto__')).toBe(true);
    expect(stored().profiles).toEqual({});
  });

  it('a "__proto__" profile already in the file is a real profile: listed, used, removed', async () => {
    writeFileSync(file, `{"profiles":{"__proto__":{"token":"${emu.token}","base_url":"${emu.baseUrl}"},"b":{}}}`);
    const list = await sq(['profiles', 'list', '--json'], { env: env() });
    expect(JSON.parse(list.stdout).map((p: { name: string }) => p.name)).toEqual(['__proto__', 'b']);
    expect((await sq(['auth', 'switch', '__proto__'], { env: env() })).code).toBe(0);
    expect(stored().active).toBe('__proto__');
    expect((await sq(['me'], { env: env() })).code).toBe(0);
    expect((await sq(['profiles', 'remove', '__proto__', '--yes'], { env: env() })).code).toBe(0);
    expect(Object.keys(stored().profiles)).toEqual(['b']);
  });
});

describe('a profile whose token, base_url or user is not a string', () => {
  it.each(['token', 'base_url', 'user'])(
    '%s: profiles list and auth status are the corrupt-file error, exit 2, content not quoted',
    async (field) => {
      writeFileSync(
        file,
        JSON.stringify({
          profiles: { default: { token: 'sq_live_abcdefgh', base_url: emu.baseUrl, [field]: 12345678 } },
        }),
      );
      for (const args of [['profiles', 'list'], ['auth', 'status'], ['me']]) {
        const r = await sq(args, { env: { SQ_CONFIG_DIR: dir } });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(`the profile file ${file} is corrupt`);
        expect(r.stderr).not.toContain('12345678');
        expect(r.stderr).not.toContain('abcdefgh');
      }
    },
  );
});

describe('a base URL with a password is never echoed', () => {
  it.each(['htps://me:SuperSecret99@api.lobstr.io', 'me:SuperSecret99@api.lobstr.io', 'ftp://me:SuperSecret99@host'])(
    '%s (SQ_BASE_URL and --base-url, text and --json)',
    async (url) => {
      for (const [args, extra] of [
        [['me'], { SQ_BASE_URL: url }],
        [['me', '--json'], { SQ_BASE_URL: url }],
        [['me', '--base-url', url], {}],
      ] as const) {
        const r = await sq([...args], { env: { ...emu.env(), ...extra } });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(/(SQ_BASE_URL|--base-url) must be an http\(s\) URL/);
        expect(r.stderr).not.toContain('SuperSecret99');
      }
      expect(await emu.requests()).toEqual([]);
    },
  );

  it('a value without a user name or password is still quoted', async () => {
    const r = await sq(['me'], { env: emu.env({ SQ_BASE_URL: 'ftp://example.com' }) });
    expect(r.stderr).toContain('(got "ftp://example.com")');
  });
});

describe('a key no HTTP header can carry', () => {
  const curly = '\u201csq_emulator_demo_token\u201d';
  it('from --with-token: exit 2 naming it, before any request, key not shown', async () => {
    const r = await sq(['auth', 'login', '--with-token'], { env: env(), stdin: curly });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('the key on stdin (--with-token) contains characters an API key cannot have');
    expect(r.stderr).not.toContain('emulator_demo');
    expect(await emu.requests()).toEqual([]);
  });

  it('from SQ_TOKEN and from a profile: exit 2 naming it, before any request, key not shown', async () => {
    const viaEnv = await sq(['me', '--json'], { env: env({ SQ_TOKEN: 'abc\u0001defghij' }) });
    expect(viaEnv.code, viaEnv.stderr).toBe(2);
    expect(viaEnv.stderr).toContain('SQ_TOKEN contains characters an API key cannot have');
    expect(viaEnv.stderr).not.toContain('defghij');
    writeFileSync(
      file,
      JSON.stringify({ active: 'work', profiles: { work: { token: curly, base_url: emu.baseUrl } } }),
    );
    const viaProfile = await sq(['me'], { env: { SQ_CONFIG_DIR: dir } });
    expect(viaProfile.code, viaProfile.stderr).toBe(2);
    expect(viaProfile.stderr).toContain('the key of profile "work" contains characters an API key cannot have');
    expect(viaProfile.stderr).not.toContain('emulator_demo');
    expect(await emu.requests()).toEqual([]);
  });
});

describe('--json is one document on stdout for the profile verbs too', () => {
  it('auth switch, auth logout and profiles remove print an object (and their --dry-run one marked dry_run)', async () => {
    await loginAs('p1', 'p2');
    const doc = async (args: string[], extra: Record<string, string> = {}) => {
      const r = await sq([...args, '--json'], { env: env(extra) });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return JSON.parse(r.stdout) as unknown;
    };
    expect(await doc(['auth', 'switch', 'p1', '--dry-run'])).toEqual({ profile: 'p1', active: false, dry_run: true });
    expect(await doc(['auth', 'switch', 'p1'])).toEqual({ profile: 'p1', active: true });
    expect(await doc(['auth', 'logout', '--profile', 'p2', '--yes', '--dry-run'])).toEqual({
      profile: 'p2',
      key_removed: false,
      env_token_set: false,
      dry_run: true,
    });
    expect(await doc(['auth', 'logout', '--profile', 'p2', '--yes'])).toEqual({
      profile: 'p2',
      key_removed: true,
      env_token_set: false,
    });
    expect(await doc(['auth', 'logout', '--profile', 'p2', '--yes'], { SQ_TOKEN: emu.token })).toEqual({
      profile: 'p2',
      key_removed: false,
      env_token_set: true,
    });
    expect(await doc(['profiles', 'remove', 'p2', '--yes', '--dry-run'])).toEqual({
      profile: 'p2',
      removed: false,
      dry_run: true,
    });
    expect(await doc(['profiles', 'remove', 'p2', '--yes'])).toEqual({ profile: 'p2', removed: true });
    expect(stored().profiles).not.toHaveProperty('p2');
  });
});
