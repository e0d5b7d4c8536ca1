// Issue 25, item 7: a runaway --jq or --template never holds a CI job hostage. The built binary against the
// emulator: a stop signal ends it within a second with 128 + signal, its caps end it with exit 1 and one clean line,
// its output streams (`| head -2` ends it), and with --all it runs on each page unless --slurp.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { EVENT_MS, SLOW } from '../helpers/timeouts.js';
import { BIN, sqIn, tempConfigDir } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { waitFor } from '../helpers/wait.js';
import { tempDir } from '../helpers/fs.js';
import { threadCpuTimes } from '../helpers/proc.js';
import { OUTPUT_CAP_LINE, slowReaders } from '../helpers/slow-readers.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'clear' });

function start(args: string[], env: Record<string, string> = {}) {
  return execa(process.execPath, [BIN, ...args], {
    env: { SQ_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1', ...emu.env(), ...env },
    extendEnv: false,
    reject: false,
    timeout: EVENT_MS,
  });
}

// "Within a second of the signal" is measured by `npm run bench` (test/bench/stop.bench.mjs), not asserted here, where
// a loaded machine makes a wall-time bound flaky: a filter the signal does not reach never ends, and fails the test on
// its timeout.

/** A fresh cache directory of its own: nothing cached, no expression known (so jq checks it before the request). */
const cache = () => ({ SQ_CACHE_DIR: tempDir('sq-jq-cache-') });

const nestedRange = (n: number, body: string) => '{{range 1000}}'.repeat(n) + body + '{{end}}'.repeat(n);

/**
 * Spawns sq, waits until it has sent `path` and its filter is seen spinning, sends the signal; the result. `on`: the
 * thread the filter runs on, jq's worker thread or (--template) the main one.
 */
async function stopWith(
  signal: 'SIGTERM' | 'SIGINT',
  args: string[],
  path: string,
  env: Record<string, string> = {},
  on: 'worker' | 'main' = args.includes('--template') ? 'main' : 'worker',
) {
  const p = start(args, env);
  // The emulator's own log, read in this process: polled over HTTP every 25 ms it cost the worker ~1 s of CPU a test.
  await waitFor(
    () => emu.log.list(),
    (rs) => rs.some((r) => r.path.startsWith(path)),
    `a request to ${path}`,
    EVENT_MS,
  );
  // The filter is running, past its first document (no output ends it): since the request went out, jq's worker thread
  // has spent 0.1 s of CPU (jq was loaded and the expression checked before the request: what is left is the filter;
  // no other thread of sq computes for that long), or for --template the main thread 0.25 s (the answer's parse and the
  // output's modules take a few hundredths). The whole process's 0.4 s waited for before cost ~0.3 s more a test.
  // Where /proc cannot tell (not Linux), 700 ms.
  const pid = p.pid!;
  const before = threadCpuTimes(pid);
  // A thread's time since the request (a worker thread started after it counts from 0); gone, the process has ended.
  const since = (t: Map<number, number> | undefined) =>
    t === undefined
      ? Infinity
      : Math.max(
          0,
          ...[...t].filter(([tid]) => (tid === pid) === (on === 'main')).map(([tid, c]) => c - (before?.get(tid) ?? 0)),
        );
  if (before === undefined) await new Promise((r) => setTimeout(r, 700));
  else
    await waitFor(
      () => since(threadCpuTimes(pid)),
      (c) => c >= (on === 'main' ? 0.25 : 0.1),
      'the filter spinning',
      EVENT_MS,
    );
  p.kill(signal);
  const r = await p;
  return { code: r.exitCode, signal: r.signal ?? null, stderr: String(r.stderr) };
}

describe('a stop signal ends a runaway filter (how soon: npm run bench)', SLOW, () => {
  let runId = '';
  const run = async () => {
    runId ||= (
      (await emu.control('POST', '/_emulator/generate', {
        squid: emu.squidId(DEMO_SQUIDS.headphones),
        results: 150,
      })) as J
    ).id;
    return runId;
  };

  it.each([
    ['until(false; .)', ['me'], 'a cache directory', '/v1/me'],
    ['last(range(1e12))', ['me'], 'none', '/v1/me'],
    ['def f: f; f', ['me'], 'none', '/v1/me'],
    // A whole list (ctx.out.list), a document printed in one piece (ctx.out.json: sq export).
    ['until(false; .)', ['squids', 'list'], 'none', '/v1/squids'],
    ['[.[] | until(false; .)]', ['export'], 'none', '/v1/squids'],
  ] as const)('--jq %j on %j (cache: %s): SIGTERM is exit 143', async (expr, args, cached, path) => {
    const r = await stopWith('SIGTERM', [...args, '--jq', expr], path, cached === 'none' ? {} : cache());
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      '{"error":{"code":143,"status":null,"message":"interrupted (SIGTERM)","retry_after":null}}',
    );
    expect([r.code, r.signal]).toEqual([143, null]);
  });

  it('SIGINT is exit 130 (a cache directory)', async () => {
    const r = await stopWith('SIGINT', ['me', '--jq', 'until(false; .)'], '/v1/me', cache());
    expect([r.code, r.signal]).toEqual([130, null]);
  });

  it.each([
    ['per page', []],
    ['--slurp', ['--slurp']],
  ])('results list --all --jq (%s): SIGTERM is exit 143', async (_what, extra) => {
    const r = await stopWith(
      'SIGTERM',
      ['results', 'list', '--run', await run(), '--all', ...extra, '--jq', 'until(false; .)'],
      '/v1/results',
    );
    expect([r.code, r.signal]).toEqual([143, null]);
  });

  it.each([
    ['a record', async () => ['me'], '/v1/me'],
    ['a list', async () => ['squids', 'list'], '/v1/squids'],
    ['the pages of --all', async () => ['results', 'list', '--run', await run(), '--all'], '/v1/results'],
  ] as const)(
    '--template on %s: 13 nested ranges that print nothing, SIGTERM is exit 143',
    async (_what, args, path) => {
      const r = await stopWith('SIGTERM', [...(await args()), '--template', nestedRange(13, '')], path);
      expect([r.code, r.signal]).toEqual([143, null]);
    },
  );
});

// jq's worker is the one bin/sq.js started with the caps it read from the environment (startJqWorker), which the CLI
// takes over only when they are the caps it wants: the caps asserted here are those.
describe('caps: exit 1 and one clean line naming the cap, never a V8 abort', SLOW, () => {
  const capped = async (args: string[], env: Record<string, string>) => {
    const r = await start(args, env);
    return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
  };
  const outputCap = OUTPUT_CAP_LINE;

  it.each([
    ['range(1e12)', 'a cache directory'],
    ['limit(5e6; repeat(.))', 'none'],
  ] as const)('%s stops at the output cap, with the output up to it (cache: %s)', async (expr, cached) => {
    const r = await capped(['me', '--jq', expr], {
      SQ_FILTER_MAX_OUTPUT_MB: '1',
      ...(cached === 'none' ? {} : cache()),
    });
    expect(r.stderr).toBe(outputCap);
    expect(r.code).toBe(1);
    // execa drops the final newline: the cap is exact.
    expect(Buffer.byteLength(r.stdout) + (r.stdout.endsWith('\n') ? 0 : 1)).toBeGreaterThanOrEqual(1024 * 1024 - 1);
    expect(Buffer.byteLength(r.stdout)).toBeLessThanOrEqual(1024 * 1024);
  });

  it("readers slower than sq: the exit code is still the cap's 1, never 0 (the launcher waited for a drain that never came)", async () => {
    // Four at once, each read only after a pause (100 to 870 ms), so sq's last writes are still queued when the command
    // ends. Each reader is the same race at another pause; the twelve of the full sweep run in CI
    // (test/system/jq-slow-readers.test.ts).
    const results = await slowReaders(emu, 4);
    for (const r of results) expect(r).toEqual({ code: 1, stderr: outputCap, bytes: 1024 * 1024 });
  });

  it('"x"*1e9 stops at the memory cap (default 512 MB; here 64, with a cache directory)', async () => {
    for (const [env, mb] of [
      [{ SQ_FILTER_MAX_MEMORY_MB: '64', ...cache() }, 64],
      [{}, 512],
    ] as const) {
      const r = await capped(['me', '--jq', '"x"*1e9'], env);
      expect(r.stderr).toBe(
        `{"error":{"code":1,"status":null,"message":"--jq: stopped at the memory cap of ${mb} MB (SQ_FILTER_MAX_MEMORY_MB raises it)","retry_after":null}}`,
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
    }
  });

  it('--template: 13 nested ranges stop at the output cap', async () => {
    const r = await capped(['me', '--template', nestedRange(13, 'x')], { SQ_FILTER_MAX_OUTPUT_MB: '1' });
    expect(r.stderr).toBe(outputCap.replace('--jq', '--template'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('x'.repeat(1024 * 1024));
  });

  it('a cap that is not a whole number of MB is exit 2 naming the variable, before any request', async () => {
    const r = await capped(['me', '--jq', '.'], { SQ_FILTER_MAX_OUTPUT_MB: '1e3' });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.message).toBe(
      'SQ_FILTER_MAX_OUTPUT_MB must be a whole number of MB from 1 to 1000000 (got "1e3")',
    );
    expect(await emu.requests()).toEqual([]);
  });
});

// With a cache directory jq's worker, which bin/sq.js starts before the CLI loads (startJqWorker) and the CLI takes
// over, compiles jq-web's script from a code cache of its own; a few of the calls above run with one (a fresh one,
// empty: their stop signal or cap comes as it does without), with the same guarantees.
describe('the code caches of a cache directory', SLOW, () => {
  it('a second call runs from the code caches the first wrote, with the same output', async () => {
    const env = cache();
    // Not a bounded path (src/startup/argv.ts, boundedJq), which would run on the main thread: this one goes to the worker.
    const a = await start(['squids', 'list', '--jq', '.[].name | tostring'], env);
    const b = await start(['squids', 'list', '--jq', '.[].name | tostring'], env);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    expect(String(b.stdout)).toBe(String(a.stdout));
    expect(String(a.stdout).split('\n').sort()).toEqual(Object.values(DEMO_SQUIDS).sort());
  });
});

describe('streamed output', SLOW, () => {
  it("`sq me --jq 'repeat(1)' | head -2` prints two lines and ends; sq exits 0 (the reader went away)", async () => {
    const r = await execa(
      'bash',
      [
        '--norc',
        '--noprofile',
        '-c',
        `"${process.execPath}" "${BIN}" me --jq 'repeat(1)' | head -2; echo "sq=\${PIPESTATUS[0]}" >&2`,
      ],
      {
        env: { SQ_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1', PATH: process.env.PATH, ...emu.env() },
        extendEnv: false,
        reject: false,
        // A pipeline that never ends is killed here, and its output then says so.
        timeout: EVENT_MS,
      },
    );
    expect(String(r.stdout)).toBe('1\n1');
    expect(String(r.stderr).split('\n').at(-1)).toBe('sq=0');
  });
});

// What the filter sees page by page is the CLI's logic: sq in-process (sqIn).
describe('--all: --jq and --template run on each page, unless --slurp', SLOW, () => {
  it('250 records: three pages of 100, 100 and 50; --slurp sees the 250 at once', async () => {
    const { id } = (await emu.control('POST', '/_emulator/generate', {
      squid: emu.squidId(DEMO_SQUIDS.headphones),
      results: 250,
    })) as J;
    const env = emu.env();
    expect((await sqIn(['results', 'list', '--run', id, '--all', '--jq', 'length'], { env })).stdout).toBe(
      '100\n100\n50',
    );
    expect((await sqIn(['results', 'list', '--run', id, '--all', '--template', '{{len .}};'], { env })).stdout).toBe(
      '100;100;50;',
    );
    expect((await sqIn(['results', 'list', '--run', id, '--all', '--slurp', '--jq', 'length'], { env })).stdout).toBe(
      '250',
    );
    // Without --all the filter sees the whole list it selected, as before.
    expect((await sqIn(['results', 'list', '--run', id, '--limit', '150', '--jq', 'length'], { env })).stdout).toBe(
      '150',
    );
  });

  it.each([
    [['--slurp', '--jq', 'length'], '--slurp goes with --all: without it the filter already sees the whole list'],
    [['--all', '--slurp'], '--slurp goes with --jq or --template: it decides what one run of the filter sees'],
  ])('%j is exit 2 before any request', async (extra, message) => {
    const r = await sqIn(['squids', 'list', ...extra], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await emu.requests()).toEqual([]);
  });
});
