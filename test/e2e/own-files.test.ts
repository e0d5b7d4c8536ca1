// sq's own files (issue 25, item 9): a FIFO at config.json or at the pacing state file must not block sq (open(2) or
// read(2) of a FIFO waits for a writer, and no signal gets through); a directory at config.json is a corrupt profile
// file, reported and replaced as one. The built binary against a real emulator where a FIFO is read: a blocking open(2)
// or read(2) in sq would hang the test's own worker in-process, deaf to every timeout, while a child is ended at its
// timeout. A directory in its place (a read that fails at once) and the calls that only make the pacing state a FIFO
// replaces are the CLI's logic: in-process (sqIn), a few ms of CPU each against ~0.2 s for a process.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { sqBin, sqIn, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';

const emu = useEmulator({ each: 'clear' });
const mkfifo = (path: string) => execFileSync('mkfifo', ['-m', '600', path]);

describe('config.json that is not a regular file', () => {
  it.each([
    ['a FIFO', mkfifo, sqBin],
    ['a directory', (path: string) => mkdirSync(path, { mode: 0o700 }), sqIn],
  ] as const)(
    '%s: every command that reads it exits 2 with the corrupt-file message, at once',
    async (_what, make, cli) => {
      const dir = tempConfigDir();
      const file = join(dir, 'config.json');
      make(file);
      for (const args of [['me'], ['profiles', 'list'], ['auth', 'status']]) {
        const r = await cli(args, { env: { SQ_CONFIG_DIR: dir, SQ_BASE_URL: emu.baseUrl }, timeout: 10_000 });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(`the profile file ${file} is corrupt`);
      }
      expect(await emu.requests()).toEqual([]);
      rmSync(dir, { recursive: true, force: true });
    },
  );

  it.each([
    ['a FIFO', mkfifo, 'isFIFO', sqBin],
    ['a directory', (path: string) => mkdirSync(path, { mode: 0o700 }), 'isDirectory', sqIn],
  ] as const)('%s: auth login --yes moves it aside and writes a profile file', async (_what, make, kind, cli) => {
    const dir = tempConfigDir();
    const file = join(dir, 'config.json');
    make(file);
    const r = await cli(['auth', 'login', '--with-token', '--yes'], {
      env: { SQ_CONFIG_DIR: dir, SQ_BASE_URL: emu.baseUrl },
      input: emu.token,
      timeout: 10_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.token).toBe(emu.token);
    const backups = readdirSync(dir).filter((f) => f.startsWith('config.json.corrupt-'));
    expect(backups).toHaveLength(1);
    expect(statSync(join(dir, backups[0]))[kind]()).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('the pacing state file', () => {
  it("a FIFO in its place: replaced by a fresh state in sq's own directory, and the call succeeds (issue 46, 11)", async () => {
    const cache = tempDir('sq-cache-');
    // The state the FIFO replaces, made in-process: the same file, named by the key and the origin.
    expect((await sqIn(['me', '--json'], { env: emu.env({ SQ_CACHE_DIR: cache }) })).code).toBe(0);
    const [state] = readdirSync(cache).filter((f) => /^pacing-[0-9a-f]{16}\.json$/.test(f));
    expect(state).toBeDefined();
    rmSync(join(cache, state));
    mkfifo(join(cache, state));
    const r = await sqBin(['me', '--json', '-v'], { env: emu.env({ SQ_CACHE_DIR: cache }), timeout: 10_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ email: expect.any(String) });
    // Like a damaged state: replaced, so that parallel calls still share one budget (a FIFO made 16 exports pace alone).
    expect(r.stderr).not.toContain('pacing this process alone');
    expect(statSync(join(cache, state)).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(join(cache, state), 'utf8'))).toMatchObject({ v: 2 });
  });
});

// Issue 46, item 2: a FIFO at a file sq reads that another program could replace (the update check's cache, the pacing
// state, a shell's rc file) made a command hang, deaf to Ctrl-C and SIGTERM (a blocking read in the main thread).
describe('files another program could replace: a FIFO in their place is never waited on', () => {
  it('sq doctor with a FIFO at ~/.bashrc and at the pacing state answers every check', async () => {
    const home = tempDir('sq-doctor-fifo-');
    const cache = join(home, 'cache');
    const env = emu.env({ HOME: home, SHELL: '/bin/bash', SQ_CACHE_DIR: cache, SQ_UPDATE_URL: emu.baseUrl });
    expect((await sqIn(['me', '--json'], { env })).code).toBe(0);
    const [state] = readdirSync(cache).filter((f) => /^pacing-[0-9a-f]{16}\.json$/.test(f));
    rmSync(join(cache, state));
    mkfifo(join(cache, state));
    mkfifo(join(home, '.bashrc'));
    // Without the fix the child never ends; sqBin ends it at its timeout, and stdout is empty.
    const r = await sqBin(['doctor', '--json'], { env });
    const checks = (JSON.parse(r.stdout) as { checks: { name: string }[] }).checks.map((c) => c.name);
    expect(checks).toEqual(expect.arrayContaining(['rate_budget', 'completion', 'update']));
    rmSync(home, { recursive: true, force: true });
  }, 120_000);

  it("a command on a terminal with a FIFO at the update check's cache ends", async () => {
    const cache = tempDir('sq-update-fifo-');
    mkfifo(join(cache, 'update-check.json'));
    // sq on a terminal (stdout and stderr TTYs) in a child of its own: without the fix its read never ends.
    const script =
      `import { run } from ${JSON.stringify(join(import.meta.dirname, '../../dist/shell/main.js'))};
 ` +
      `     const { PassThrough } = await import('node:stream');
      const out = new PassThrough(); ` +
      `out.resume();
      const code = await run(['version'], { env: { SQ_CACHE_DIR: ${JSON.stringify(cache)}, ` +
      `SQ_CONFIG_DIR: ${JSON.stringify(cache)}, SQ_UPDATE_URL: 'http://127.0.0.1:9' },
        io: ` +
      `{ stdout: out, stderr: out, stdin: new PassThrough(), stdoutIsTTY: true, stderrIsTTY: true, ` +
      `stdinIsTTY: true, columns: 80 },
        signal: new AbortController().signal });
      console.log('exit', ` +
      `code); process.exit(0);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout, r.stderr).toContain('exit 0');
    rmSync(cache, { recursive: true, force: true });
  }, 120_000);
});
