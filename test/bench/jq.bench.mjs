// jq_overhead: `sq squids list --jq '.[].name'` ÷ `sq squids list --json` against the emulator (target ≤ 1.3): what
// loading jq-web (WebAssembly) and running the filter add to a call. Runs interleaved, medians, as in
// startup.bench.mjs; the code cache is warm for both, and the shared pacing state is removed before each call.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const RUNS = Number(process.env.BENCH_RUNS || 25);

function wall(args, env) {
  return new Promise((done, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? done(Number(process.hrtime.bigint() - t) / 1e6) : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`))));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function forgetPacing(env) {
  for (const f of readdirSync(env.SQ_CACHE_DIR)) if (f.startsWith('pacing-')) rmSync(join(env.SQ_CACHE_DIR, f), { force: true });
}

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'demo' });
try {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
    SQ_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-cache-')),
    SQ_BASE_URL: emu.baseUrl,
    SQ_TOKEN: emu.token,
  };
  const withJq = [bin, 'squids', 'list', '--jq', '.[].name'];
  const withJson = [bin, 'squids', 'list', '--json'];
  await wall(withJq, env);
  await wall(withJson, env);
  const a = [];
  const b = [];
  for (let i = 0; i < RUNS; i++) {
    forgetPacing(env);
    a.push(await wall(withJq, env));
    forgetPacing(env);
    b.push(await wall(withJson, env));
  }
  const ratio = median(a) / median(b);
  console.log(JSON.stringify({ name: 'jq_overhead', value: Math.round(ratio * 1000) / 1000, unit: 'ratio', target: '<= 1.3', median_ms: Math.round(median(a) * 10) / 10, baseline_ms: Math.round(median(b) * 10) / 10 }));
} finally {
  await emu.close();
}
