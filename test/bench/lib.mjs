// What the benches share: timing one process the way a user's shell runs it, the median, and forgetting the pacing
// state every sq process of the machine shares (only for a figure that measures a first call: every other keeps the
// state between calls, as a user's calls do).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Wall time of `node args…` in ms, with its stdout; rejects (with its stderr) when it exits non-zero. */
export function wall(args, env, node = process.execPath) {
  return new Promise((done, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) =>
      code === 0 ? done({ ms: Number(process.hrtime.bigint() - t) / 1e6, out }) : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`)),
    );
  });
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Removes the machine-wide pacing state (pacing-*.json) from a cache dir. */
export function forgetPacing(cacheDir) {
  for (const f of readdirSync(cacheDir)) if (f.startsWith('pacing-')) rmSync(join(cacheDir, f), { force: true });
}

/** The environment a benchmark's sq calls run in: fresh profile and cache dirs (kept across its calls), the emulator's key. */
export function benchEnv(emu) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
    SQ_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-cache-')),
    SQ_BASE_URL: emu.baseUrl,
    SQ_TOKEN: emu.token,
  };
}
