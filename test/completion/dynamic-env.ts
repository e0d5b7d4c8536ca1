// What the dynamic completion tests share: a real emulator, the BUILT sq on PATH (needs `npm run build`), the
// generated bash, zsh and fish scripts, the values the service knows, and one primed completion cache. Used by
// test/completion/dynamic.test.ts (bash, in npm test) and test/system/completion/dynamic-shells.test.ts (zsh and
// fish, in npm run test:system). The `let`s are live ESM bindings: read them inside hooks and tests.
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect } from 'vitest';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { sq, tempConfigDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';

export const root = resolve(import.meta.dirname, '../..');
export let emu: TestEmulator;
export let dir: string;
export let env: Record<string, string>;
export let typeNames: string[];
export let squidNames: string[];
export let slugs: string[];
export let parisRuns: string[];

export let primed: Record<string, string>;

export const fresh = (extra: Record<string, string> = {}): Record<string, string> => ({
  ...env,
  SQ_CACHE_DIR: tempDir('sq-comp-cache-'),
  ...extra,
});

/**
 * Until the background refreshes a Tab left behind have ended: each holds a lock file (`<answer>.refreshing`) in the
 * cache's complete/ directory while it asks the service, and removes it once the answer is written.
 */
export async function settled(e: Record<string, string>, source = ''): Promise<void> {
  const dir = join(e.SQ_CACHE_DIR, 'complete');
  const refreshing = () =>
    existsSync(dir) && readdirSync(dir).some((f) => f.startsWith(source) && f.endsWith('.refreshing'));
  await waitFor(refreshing, (r) => !r, `the background refresh of ${source || 'the completion cache'} to end`, 60_000);
}

/**
 * Asks `sq __complete` until it answers, as a user pressing Tab again would: a first Tab on a cold machine may use
 * its whole budget starting node and leave the answer to the background refresh, so the next Tab comes once that
 * refresh has ended (not on a timer, each a process start). No timing is asserted.
 */
export async function prime(e: Record<string, string>, source: string, ...words: string[]): Promise<void> {
  for (let i = 0; i < 10; i++) {
    if ((await execa('sq', ['__complete', source, '--', ...words], { env: e, extendEnv: false })).stdout) return;
    await settled(e, `${source}-`);
  }
  throw new Error(`sq __complete ${source} never answered`);
}

/**
 * What bash offers for each command line: COMP_WORDS is the line split as bash would (quotes kept), the last word is
 * completed. One bash sources the script once and completes each line in a subshell of its own (a fork: the script's
 * functions and nothing a line before left behind), one after the other, each asking the real sq: a bash spawned by
 * the test worker costs the worker a fork of its whole heap (~20 ms at 250 MB), more than the bash itself spends.
 */
export async function bashEach(lines: string[][], e = primed): Promise<string[][]> {
  const quoted = (words: string[]) => words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const each = lines.map(
    (words) =>
      `(COMP_WORDS=(${quoted(words)}); COMP_CWORD=${words.length - 1}; _sq; printf "%s\\n" "\${COMPREPLY[@]}"); printf '\\036%s\\n' "$?"`,
  );
  const r = await execa('bash', ['--norc', '-c', `source "$1"\n${each.join('\n')}`, 'bash', join(dir, 'sq.bash')], {
    env: e,
    extendEnv: false,
  });
  expect(r.stderr).toBe('');
  const replies: string[][] = [];
  let reply: string[] = [];
  for (const l of r.stdout.split('\n')) {
    if (l.startsWith('\x1e')) {
      expect(l.slice(1), `the status of _sq for ${lines[replies.length].join(' ')}`).toBe('0');
      replies.push(reply.sort());
      reply = [];
    } else if (l) reply.push(l);
  }
  expect([...replies, reply]).toHaveLength(lines.length + 1);
  expect(reply).toEqual([]);
  return replies;
}

/**
 * Puts the service's answer for `source` (and the line's words) in the cache, as the refresh a Tab leaves behind does:
 * `sq __complete --refresh` asks the service with no budget and writes the answer, in one process. A Tab on a loaded
 * machine spent its budget starting node, left that refresh and needed a second Tab to read it: three processes.
 */
async function fill(e: Record<string, string>, source: string, ...words: string[]): Promise<void> {
  const r = await execa(
    process.execPath,
    [join(root, 'bin/sq.js'), '__complete', '--refresh', source, '--', ...words],
    {
      env: e,
      extendEnv: false,
    },
  );
  expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
}

/** What bash offers for one command line (bashEach). */
export async function bash(words: string[], e = primed): Promise<string[]> {
  return (await bashEach([words], e))[0];
}

export async function fish(line: string, e = primed): Promise<string[][]> {
  const r = await execa(
    'fish',
    ['--no-config', '-c', 'source $argv[1]; complete -C "$argv[2]"', join(dir, 'sq.fish'), line],
    { env: e, extendEnv: false },
  );
  expect(r.stderr).toBe('');
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'))
    .sort();
}

/** zsh, interactive in a pseudo-terminal: per line, the candidates and the command line as the Tab left it. */
export async function zsh(
  lines: string[],
  e = primed,
): Promise<Record<string, { candidates: string[]; buffer: string }>> {
  const r = await execa('zsh', ['-f', resolve(root, 'test/completion/capture.zsh'), dir, ...lines], {
    env: { ...e, CAPTURE_BUFFER: '1' },
    extendEnv: false,
    cwd: dir,
    timeout: 60_000,
  });
  const got: Record<string, { candidates: string[]; buffer: string }> = {};
  let cur: { candidates: string[]; buffer: string } | undefined;
  for (const l of r.stdout.split('\n')) {
    if (l.startsWith('== ')) got[l.slice(3)] = cur = { candidates: [], buffer: '' };
    else if (l.startsWith('=> ')) cur!.buffer = l.slice(3);
    else if (l && cur) cur.candidates.push(l);
  }
  return got;
}

/** Starts the emulator and primes the cache before the file's tests; closes it after. */
export function useCompletionEnv(): void {
  beforeAll(async () => {
    expect(existsSync(join(root, 'dist/shell/main.js')), 'dist/ is missing: run `npm run build` first').toBe(true);
    emu = await startTestEmulator();
    dir = tempDir('sq-dyn-comp-');
    writeFileSync(join(dir, 'sq'), `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin/sq.js')}" "$@"\n`);
    chmodSync(join(dir, 'sq'), 0o755);
    env = {
      ...emu.env(),
      SQ_CONFIG_DIR: tempConfigDir(),
      PATH: `${dir}:${process.env.PATH}`,
      HOME: dir,
      NO_COLOR: '1',
    };
    for (const shell of ['bash', 'zsh', 'fish'] as const)
      writeFileSync(join(dir, shell === 'zsh' ? '_sq' : `sq.${shell}`), (await sq(['completion', shell])).stdout);
    const json = async (args: string[]) => {
      const r = await sq([...args, '--json'], { env: emu.env() });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Record<string, string>[];
    };
    typeNames = (await json(['accounts', 'types'])).map((t) => t.name).sort();
    squidNames = (await json(['squids', 'list'])).map((s) => s.name).sort();
    slugs = (await json(['crawlers', 'list', '--all'])).map((c) => c.slug).sort();
    parisRuns = (await json(['runs', 'list', '--squid', DEMO_SQUIDS.paris])).map((r) => r.id).sort();
    expect(typeNames.length * slugs.length * parisRuns.length).toBeGreaterThan(0);
    expect(squidNames).toContain(DEMO_SQUIDS.paris);
    primed = fresh();
    // Every source the tests complete from `primed`: one left out (accounts, for the usernames) was asked cold by its
    // test, whose first Tab has 450 ms from the process's start and on a loaded machine answered nothing (flaky).
    // Each source has a cache file of its own, so they are filled side by side.
    await Promise.all([
      ...['squids', 'crawlers', 'accounts', 'account-types'].map((source) => fill(primed, source)),
      // Run ids are cached per squid named on the line, however it was quoted.
      fill(primed, 'runs', 'results', 'list', '--squid', `"${DEMO_SQUIDS.paris}"`),
      fill(primed, 'runs'),
    ]);
    // An answer each, and none of them empty (a failure is cached as an empty answer).
    const complete = join(primed.SQ_CACHE_DIR, 'complete');
    const answers = readdirSync(complete).filter((f) => f.endsWith('.json'));
    expect(answers).toHaveLength(6);
    for (const f of answers)
      expect((JSON.parse(readFileSync(join(complete, f), 'utf8')) as { values: unknown[] }).values, f).not.toEqual([]);
  }, 60_000);

  afterAll(async () => {
    await emu?.close();
  });
}
