// startup_ratio: median wall time of `sq --version` ÷ median of `node -e 0`, runs interleaved (target ≤ 1.2).
// one_call_ratio: `sq me --json` against the emulator ÷ a minimal node:http script doing the same GET and printing
// it (target ≤ 1.5). Both sides run in this process's loop, alternating, so machine noise hits both alike. The pacing
// state every sq process shares is kept between calls, as a user's calls keep it; one_call_ratio_fresh_state is the
// same with it removed before each sq call (the first call of a key on a machine: no state to read).
// one_call_ratio_uncached: the same without bin/sq.js's code cache (no target; the first call after an install).
// code_cache_ratio: `sq me --json` with the code cache ÷ the same with SQ_CACHE_DIR= (a plain require of the bundle),
// alternating; saved_ms is what the cache saves a call (on Node 20 the launcher's own V8 cache, on 22.1+ Node's).
// node_compile_cache_ratio (Node 22.1+): the same with bin/sq.js's cache ÷ a minimal launcher using Node's own
// module.enableCompileCache(); saved_ms is what keeping our own cache is worth (issue 12: keep it only if > 10 ms).
// SQ_BENCH_NODE=/path/to/node runs every timed process under that Node (the emulator stays in this one).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forgetPacing, median, wall } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const RUNS = Number(process.env.BENCH_RUNS || 25);
const NODE = process.env.SQ_BENCH_NODE || process.execPath;
const NODE_VERSION = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();

// wall() spawns asynchronously: the emulator answering `sq me` runs in this very process, so the loop must stay free.

/** Median wall times of `a` and `b`, alternating; `fresh` removes the shared pacing state before each call of `a`. */
async function compare(name, a, b, target, env, envB = env, fresh = false) {
  const ta = [];
  const tb = [];
  await wall(a, env, NODE);
  await wall(b, envB, NODE); // warm the file cache for both
  for (let i = 0; i < RUNS; i++) {
    if (fresh && env.SQ_CACHE_DIR) forgetPacing(env.SQ_CACHE_DIR);
    ta.push((await wall(a, env, NODE)).ms);
    tb.push((await wall(b, envB, NODE)).ms);
  }
  const [ma, mb] = [median(ta), median(tb)];
  const round = (x) => Math.round(x * 10) / 10;
  console.log(JSON.stringify({ name, value: Math.round((ma / mb) * 1000) / 1000, unit: 'ratio', target, node: NODE_VERSION, median_ms: round(ma), baseline_ms: round(mb), saved_ms: round(mb - ma) }));
}

// A fresh code cache directory of its own: the figure does not depend on HOME being writable or on earlier runs.
const baseEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
  SQ_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-cache-')),
};
await compare('startup_ratio', [bin, '--version'], ['-e', '0'], '<= 1.2', baseEnv);

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'empty' });
try {
  const script = join(mkdtempSync(join(tmpdir(), 'sq-bench-')), 'get.mjs');
  writeFileSync(
    script,
    `import http from 'node:http';
const u = new URL('/v1/me', process.env.SQ_BASE_URL);
http.get(u, { headers: { authorization: 'Token ' + process.env.SQ_TOKEN, accept: 'application/json' } }, (res) => {
  let b = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (b += c));
  res.on('end', () => { process.stdout.write(JSON.stringify(JSON.parse(b), null, 2) + '\\n'); });
});
`,
  );
  const env = { ...baseEnv, SQ_BASE_URL: emu.baseUrl, SQ_TOKEN: emu.token };
  // The first call warms bin/sq.js's code cache (docs/performance.md); every later call is measured with it.
  await compare('one_call_ratio', [bin, 'me', '--json'], [script], '<= 1.5', env);
  await compare('one_call_ratio_fresh_state', [bin, 'me', '--json'], [script], 'none (the first call of a key on a machine)', env, env, true);
  // For the record: the same call without the cache, as the first call after an install or upgrade runs.
  await compare('one_call_ratio_uncached', [bin, 'me', '--json'], [script], 'none (first call after install)', { ...env, SQ_CACHE_DIR: '' });
  // Whether the code cache is worth having at all on this Node (issue 12: the launcher's own only if > 10 ms on 20).
  await compare('code_cache_ratio', [bin, 'me', '--json'], [bin, 'me', '--json'], 'saved_ms > 10', env, { ...env, SQ_CACHE_DIR: '' });
  if (execFileSync(NODE, ['-p', "typeof require('node:module').enableCompileCache"], { encoding: 'utf8' }).trim() === 'function') {
    const alt = join(mkdtempSync(join(tmpdir(), 'sq-bench-')), 'sq-node-cache.cjs');
    writeFileSync(
      alt,
      `'use strict';
try { require('node:v8').setFlagsFromString('--liftoff-only'); } catch {}
require('node:module').enableCompileCache(process.env.SQ_CACHE_DIR + '/node-compile-cache');
require(${JSON.stringify(join(root, 'dist/sq.cjs'))}).run(process.argv.slice(2)).then((code) => process.exit(code));
`,
    );
    const altEnv = { ...env, SQ_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-cache-')) };
    await compare('node_compile_cache_ratio', [bin, 'me', '--json'], [alt, 'me', '--json'], 'saved_ms > 10 keeps our own', env, altEnv);
  }
} finally {
  await emu.close();
}
