// The built binary: --jq runs jq-web in a worker thread (the launcher starts compiling dist/jq.wasm; the worker runs
// dist/jq.cjs), and its output and errors are exactly what a script reads. What --jq and --template print (raw
// strings, the error object, where the flag may stand, sq api -i) is the CLI's own: sq in-process (sqIn, the
// binary's result at a few ms of CPU a call instead of ~0.35 s for a process that starts jq's worker); the worker, its
// record of known expressions and its caches are the binary's.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { against, withNl } from '../helpers/bin.js';
import { sqBin } from '../helpers/cli.js';
import { fingerprint, JQ_WEB } from '../../src/output/jq.js';
import { tempDir } from '../helpers/fs.js';

const emu = useEmulator({ each: 'reset' });
const { calls } = against(emu, 'bin');
const { run } = against(emu);

describe('scripting', () => {
  it('--jq prints raw strings, one per line, like gh', async () => {
    const names = (JSON.parse((await run('squids', 'list', '--json')).stdout) as { name: string }[]).map((s) => s.name);
    const r = await run('squids', 'list', '--jq', '.[].name');
    expect(r).toEqual({ code: 0, stdout: names.map((n) => `${n}\n`).join(''), stderr: '' });
  });

  it("a bad expression: exit 2, jq's message as the JSON error object, no request", async () => {
    const r = await run('squids', 'list', '--jq', '.[');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: {
        code: 2,
        status: null,
        message: '--jq: syntax error, unexpected end of file (Unix shell quoting issues?) at <top-level>, line 1:\n.[',
        retry_after: null,
      },
    });
    expect(await calls()).toEqual([]);
  });

  it('--jq after the verb or before the noun, and --template', async () => {
    expect((await run('--jq', 'length', 'squids', 'list')).stdout).toBe(
      (await run('squids', 'list', '--jq', 'length')).stdout,
    );
    const r = await run('me', '--template', '{{.first_name}} <{{.email}}>{{"\\n"}}');
    expect(r).toEqual({ code: 0, stdout: 'Ada <demo@sq-emulator.local>\n', stderr: '' });
  });

  it('sq api -i --jq', async () => {
    const r = await run('api', '-i', 'me', '--jq', '.email');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 200 OK\n(?:[A-Z][\w-]*: .*\n)+\ndemo@sq-emulator\.local\n$/);
  });

  it('a bounded path (.email, .[].name) runs on the main thread: the same output and errors, nothing to check or remember', async () => {
    const dir = tempDir('sq-jq-cache-');
    const env = emu.env({ SQ_CACHE_DIR: dir });
    const me = await emu.api('/v1/me');
    expect(await sqBin(['me', '--jq', '.email'], { env }).then(withNl)).toEqual({
      code: 0,
      stdout: `${me.email}\n`,
      stderr: '',
    });
    // The worker prints the same for the same filter.
    expect((await sqBin(['me', '--jq', '.email | tostring'], { env }).then(withNl)).stdout).toBe(`${me.email}\n`);
    const bad = await sqBin(['me', '--jq', '.[0]'], { env });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr).error.message).toBe('--jq: Cannot index object with number');
    const list = await sqBin(['squids', 'list', '--jq', '.[] | .name'], { env: emu.env({ SQ_CACHE_DIR: '' }) }).then(
      withNl,
    );
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n').filter(Boolean).length).toBeGreaterThan(1);
    expect(readFileSync(join(dir, 'jq-known'), 'utf8').split('\n').filter(Boolean)).toEqual([
      fingerprint(`${JQ_WEB}\n.email | tostring`),
    ]);
  });

  describe('expressions known to compile', () => {
    const inCache = (dir: string, args: string[]) => sqBin(args, { env: emu.env({ SQ_CACHE_DIR: dir }) }).then(withNl);
    const known = (dir: string) => readFileSync(join(dir, 'jq-known'), 'utf8').split('\n').filter(Boolean);

    // Each expression here is one jq runs in its worker (not a bounded path: src/startup/argv.ts, boundedJq), which alone is checked and remembered.
    it('a known expression still works where a command prints its document in one piece (sq export, plan, apply)', async () => {
      // These print through ctx.out.json, which runs jq at once: jq must be loaded even when its check run is skipped.
      const dir = tempDir('sq-jq-cache-');
      const first = await inCache(dir, ['export', '--jq', '.billing.auto_reset.threshold // 0']);
      expect(first).toEqual({ code: 0, stdout: '80\n', stderr: '' });
      expect(known(dir)).toEqual([fingerprint(`${JQ_WEB}\n.billing.auto_reset.threshold // 0`)]);
      expect(await inCache(dir, ['export', '--jq', '.billing.auto_reset.threshold // 0'])).toEqual(first);
      // A dry run prints its planned request the same way, from main.ts after the verb stopped.
      const plan = ['billing', 'auto-reset', '--threshold', '75', '--dry-run', '--jq', '.requests[0].method // ""'];
      const once = await inCache(dir, plan);
      expect(once).toMatchObject({ code: 0, stdout: 'POST\n' });
      expect(await inCache(dir, plan)).toEqual(once);
    });

    it('a good expression is remembered, a bad one never is, and stays exit 2 before any request', async () => {
      const dir = tempDir('sq-jq-cache-');
      const good = await inCache(dir, ['squids', 'list', '--jq', '.[].name | tostring']);
      expect(good.code).toBe(0);
      expect(known(dir)).toEqual([fingerprint(`${JQ_WEB}\n.[].name | tostring`)]);
      // The output is the same without any cache (then jq-web loads from node_modules, patched the same way).
      expect(
        await sqBin(['squids', 'list', '--jq', '.[].name | tostring'], { env: emu.env({ SQ_CACHE_DIR: '' }) }).then(
          withNl,
        ),
      ).toEqual(good);
      expect(await inCache(dir, ['squids', 'list', '--jq', '.[].name | tostring'])).toEqual(good);

      await emu.control('POST', '/_emulator/reset');
      // Once is enough: the record is read back below, unchanged, and a planted bad one is the next test's.
      const bad = await inCache(dir, ['squids', 'list', '--jq', '.[']);
      expect(bad.code).toBe(2);
      expect(JSON.parse(bad.stderr).error.message).toMatch(/^--jq: syntax error/);
      expect(await calls()).toEqual([]);
      expect(known(dir)).toEqual([fingerprint(`${JQ_WEB}\n.[].name | tostring`)]);
    });

    it("a remembered expression that does not compile (a planted or stale file) still fails with jq's message, exit 2", async () => {
      const dir = tempDir('sq-jq-cache-');
      writeFileSync(join(dir, 'jq-known'), `${fingerprint(`${JQ_WEB}\n.[`)}\n`, { mode: 0o600 });
      const r = await inCache(dir, ['squids', 'list', '--jq', '.[']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(JSON.parse(r.stderr).error.message).toMatch(/^--jq: syntax error, unexpected end of file/);
    });

    it('the record is capped, and JQ_WEB names the installed jq-web', async () => {
      const dir = tempDir('sq-jq-cache-');
      writeFileSync(
        join(dir, 'jq-known'),
        Array.from({ length: 300 }, (_, i) => `${i.toString(16).padStart(16, '0')}\n`).join(''),
        { mode: 0o600 },
      );
      expect((await inCache(dir, ['me', '--jq', '.email | tostring'])).code).toBe(0);
      const lines = known(dir);
      expect(lines).toHaveLength(256);
      expect(lines.at(-1)).toBe(fingerprint(`${JQ_WEB}\n.email | tostring`));
      const pkg = JSON.parse(readFileSync(join(__dirname, '../../node_modules/jq-web/package.json'), 'utf8')) as {
        version: string;
      };
      expect(JQ_WEB).toBe(`jq-web ${pkg.version}`);
    });
  });
});
