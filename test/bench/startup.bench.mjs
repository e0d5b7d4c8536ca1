// What one call costs against the smallest program doing the same job, every process in a clean environment
// (lib.mjs cleanEnv: PATH and HOME only), run in this process's loop alternately with its baseline so that machine
// noise hits both alike; the median of BENCH_RUNS (21) pairs' ratios (ratio_of_medians beside it). Each line also
// gives the load average at its end.
// - help_ratio: `sq squids --help` ÷ `node -e 0` (target ≤ 1.3): help is what a user types first. To a pipe, as here,
//   the launcher prints it from dist/help/ without loading the CLI; help_ratio_cli is the same text through the CLI
//   (`sq help squids`), as help on a terminal runs.
// - auth_status_ratio: a command that reads the profile file and talks to no server, `sq profiles list --json`
//   (`sq auth status` checks the key with a request), ÷ a CommonJS script that reads the file and prints the same list.
// - one_call_ratio: `sq me --json` against the emulator ÷ a CommonJS node:http GET printing the pretty JSON (target
//   ≤ 1.3). The pacing state every sq process shares is kept between calls, as a user's calls keep it;
//   one_call_ratio_fresh_state is the same with it removed before each sq call (the first call of a key on a machine).
// - one_call_ratio_uncached: the same without bin/sq.js's code cache (no target; the first call after an install).
// - code_cache_ratio: `sq me --json` with the code cache ÷ the same with SQ_CACHE_DIR= (a plain require of the
//   bundle); saved_ms is what the cache saves a call.
// (node_compile_cache_ratio, sq's cache ÷ Node's own module.enableCompileCache(), went with the bundle's split into
// parts: Node's cache covers only files its own loader reads, not the parts bin/sq.js compiles. Its last figures,
// 0.87-0.94, are in docs/performance.md.)
// `npm run bench -- --node PATH` (SQ_BENCH_NODE) runs every timed process under that Node (the emulator stays in this one).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, NODE_VERSION, cleanEnv, forgetPacing, getScript, load, median, profilesScript, wall } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const RUNS = Number(process.env.BENCH_RUNS || 21);

// wall() spawns asynchronously: the emulator answering `sq me` runs in this very process, so the loop must stay free.

/** Median wall times of `a` and `b`, alternating; `fresh` removes the shared pacing state before each call of `a`. */
async function compare(name, a, b, target, env, envB = env, fresh = false, extra = {}) {
  const ta = [];
  const tb = [];
  await wall(a, env);
  await wall(b, envB); // warm the code cache and the file cache for both
  for (let i = 0; i < RUNS; i++) {
    if (fresh && env.SQ_CACHE_DIR) forgetPacing(env.SQ_CACHE_DIR);
    ta.push((await wall(a, env)).ms);
    tb.push((await wall(b, envB)).ms);
  }
  const [ma, mb] = [median(ta), median(tb)];
  const round = (x) => Math.round(x * 10) / 10;
  // The median of the pairs' ratios (each sq call against the baseline call right after it): this host's speed
  // drifts in phases of several seconds, and the ratio of the two medians once read 1.38 where the runs before and
  // after it read 1.19-1.24 (both medians had moved, by different amounts). Both are printed.
  const value = median(ta.map((x, i) => x / tb[i]));
  console.log(
    JSON.stringify({
      name,
      value: Math.round(value * 1000) / 1000,
      unit: 'ratio',
      target,
      node: NODE_VERSION,
      ratio_of_medians: Math.round((ma / mb) * 1000) / 1000,
      median_ms: round(ma),
      baseline_ms: round(mb),
      saved_ms: round(mb - ma),
      runs: RUNS,
      load: load(),
      ...extra,
    }),
  );
}

// Fresh profile and code cache directories of its own: the figures do not depend on HOME or on earlier runs.
const baseEnv = cleanEnv({
  SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
  SQ_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-cache-')),
});
await compare('help_ratio', [bin, 'squids', '--help'], ['-e', '0'], '<= 1.3', baseEnv, baseEnv, false, {
  command: 'sq squids --help',
  baseline: 'node -e 0',
});
// The same text through the CLI: `sq help squids` prints the same bytes, but the launcher's pre-rendered help
// (dist/help/) is only for `<command…> --help` to a pipe or a file, so this is what help costs on a terminal.
await compare(
  'help_ratio_cli',
  [bin, 'help', 'squids'],
  ['-e', '0'],
  'none (help on a terminal loads the CLI)',
  baseEnv,
  baseEnv,
  false,
  { command: 'sq help squids', baseline: 'node -e 0' },
);

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'empty' });
try {
  const env = { ...baseEnv, SQ_BASE_URL: emu.baseUrl, SQ_TOKEN: emu.token };
  // A stored profile (the key in the file, not in the environment) for the command that only reads it.
  // (Spawned, not execFileSync: the emulator answering it runs in this process.)
  await new Promise((done, fail) => {
    const login = spawn(NODE, [bin, 'auth', 'login', '--with-token', '--quiet'], {
      env: { ...baseEnv, SQ_BASE_URL: emu.baseUrl },
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    login.on('close', (code) => (code === 0 ? done() : fail(new Error(`sq auth login exited ${code}`))));
    login.stdin.end(`${emu.token}\n`);
  });
  await compare(
    'auth_status_ratio',
    [bin, 'profiles', 'list', '--json'],
    [profilesScript()],
    '<= 1.3',
    baseEnv,
    baseEnv,
    false,
    {
      command: 'sq profiles list --json',
      baseline: 'a CommonJS script reading the profile file',
    },
  );

  const script = getScript();
  await compare('one_call_ratio', [bin, 'me', '--json'], [script], '<= 1.3', env, env, false, {
    command: 'sq me --json',
    baseline: 'a CommonJS node:http GET',
  });
  await compare(
    'one_call_ratio_fresh_state',
    [bin, 'me', '--json'],
    [script],
    'none (the first call of a key on a machine)',
    env,
    env,
    true,
  );
  // For the record: the same call without the cache, as the first call after an install or upgrade runs.
  await compare('one_call_ratio_uncached', [bin, 'me', '--json'], [script], 'none (first call after install)', {
    ...env,
    SQ_CACHE_DIR: '',
  });
  // Whether the code cache is worth having at all on this Node.
  await compare('code_cache_ratio', [bin, 'me', '--json'], [bin, 'me', '--json'], 'saved_ms > 10', env, {
    ...env,
    SQ_CACHE_DIR: '',
  });
} finally {
  await emu.close();
}
