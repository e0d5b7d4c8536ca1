// sq's own files (issue 25, item 9): a FIFO at config.json or at the pacing state file must not block sq (open(2) or
// read(2) of a FIFO waits for a writer, and no signal gets through); a directory at config.json is a corrupt profile
// file, reported and replaced as one. The built binary against a real emulator.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { sqBin, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';

const emu = useEmulator({ each: 'clear' });
const mkfifo = (path: string) => execFileSync('mkfifo', ['-m', '600', path]);

describe('config.json that is not a regular file', () => {
  it.each([
    ['a FIFO', mkfifo],
    ['a directory', (path: string) => mkdirSync(path, { mode: 0o700 })],
  ])('%s: every command that reads it exits 2 with the corrupt-file message, at once', async (_what, make) => {
    const dir = tempConfigDir();
    const file = join(dir, 'config.json');
    make(file);
    for (const args of [['me'], ['profiles', 'list'], ['auth', 'status']]) {
      const r = await sqBin(args, { env: { SQ_CONFIG_DIR: dir, SQ_BASE_URL: emu.baseUrl }, timeout: 10_000 });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`the profile file ${file} is corrupt`);
    }
    expect(await emu.requests()).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['a FIFO', mkfifo, 'isFIFO'],
    ['a directory', (path: string) => mkdirSync(path, { mode: 0o700 }), 'isDirectory'],
  ] as const)('%s: auth login --yes moves it aside and writes a profile file', async (_what, make, kind) => {
    const dir = tempConfigDir();
    const file = join(dir, 'config.json');
    make(file);
    const r = await sqBin(['auth', 'login', '--with-token', '--yes'], { env: { SQ_CONFIG_DIR: dir, SQ_BASE_URL: emu.baseUrl }, input: emu.token, timeout: 10_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.token).toBe(emu.token);
    const backups = readdirSync(dir).filter((f) => f.startsWith('config.json.corrupt-'));
    expect(backups).toHaveLength(1);
    expect(statSync(join(dir, backups[0]))[kind]()).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('the pacing state file', () => {
  it('a FIFO in its place: sq paces alone in memory, says why with -v, and the call succeeds', async () => {
    const cache = tempDir('sq-cache-');
    expect((await sqBin(['me', '--json'], { env: emu.env({ SQ_CACHE_DIR: cache }) })).code).toBe(0);
    const [state] = readdirSync(cache).filter((f) => /^pacing-[0-9a-f]{16}\.json$/.test(f));
    expect(state).toBeDefined();
    rmSync(join(cache, state));
    mkfifo(join(cache, state));
    const r = await sqBin(['me', '--json', '-v'], { env: emu.env({ SQ_CACHE_DIR: cache }), timeout: 10_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ email: expect.any(String) });
    expect(r.stderr).toContain('pacing: shared state');
    expect(r.stderr).toContain('ENOTREG');
    // Left as it was: sq does not remove what it did not make.
    expect(statSync(join(cache, state)).isFIFO()).toBe(true);
  });
});
