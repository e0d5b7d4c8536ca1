// jq_overhead: `sq squids list --jq '.[].name'` ÷ `sq squids list --json` against the emulator (target ≤ 1.3): what
// loading jq-web (WebAssembly) and running the filter add to a call. Runs interleaved, medians, as in
// startup.bench.mjs; the code cache is warm for both, and the shared pacing state is kept between calls, as a user's calls keep it.
// jq_overhead_new_expression (no target, for the record): the same with an expression sq has not seen before, which
// it compiles once before the request (src/output/jq.ts, checkJq) instead of trusting its list of known ones.
// jq_overhead_no_cache_dir (no target, for the record): `--jq 'map(.name)'` (not bounded by its input, so jq runs in its
// worker thread) ÷ `--json`, both with SQ_CACHE_DIR= (no cache directory: no code cache, no jq code cache), the case
// where the launcher starts jq's worker before its V8 flag instead of src/output/jq.ts starting it after.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, wall, benchEnv } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const RUNS = Number(process.env.BENCH_RUNS || 25);

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'demo' });
try {
  const env = benchEnv(emu);
  const withJq = [bin, 'squids', 'list', '--jq', '.[].name'];
  const withJson = [bin, 'squids', 'list', '--json'];
  await wall(withJq, env);
  await wall(withJson, env);
  const a = [];
  const b = [];
  const c = [];
  const d = [];
  const e = [];
  const noCache = { ...env, SQ_CACHE_DIR: '' };
  const unbounded = [bin, 'squids', 'list', '--jq', 'map(.name)'];
  for (let i = 0; i < RUNS; i++) {
    a.push((await wall(withJq, env)).ms);
    b.push((await wall(withJson, env)).ms);
    c.push((await wall([bin, 'squids', 'list', '--jq', `.[].name | select(. != "never ${i}")`], env)).ms);
    d.push((await wall(unbounded, noCache)).ms);
    e.push((await wall(withJson, noCache)).ms);
  }
  const r = (x) => Math.round(x * 1000) / 1000;
  const ms = (x) => Math.round(x * 10) / 10;
  /** One figure: the median of `xs` ÷ the median of `base`. */
  const ratio = (name, xs, base, target) =>
    console.log(
      JSON.stringify({
        name,
        value: r(median(xs) / median(base)),
        unit: 'ratio',
        ...(target ? { target } : {}),
        median_ms: ms(median(xs)),
        baseline_ms: ms(median(base)),
      }),
    );
  ratio('jq_overhead', a, b, '<= 1.3');
  ratio('jq_overhead_new_expression', c, b);
  ratio('jq_overhead_no_cache_dir', d, e);
} finally {
  await emu.close();
}
