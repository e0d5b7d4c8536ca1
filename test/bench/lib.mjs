// What the benches share: the Node that runs the timed processes, their clean environment, timing one process the
// way a user's shell runs it, the median, the baseline scripts, and forgetting the pacing state every sq process of
// the machine shares (only for a figure that measures a first call: every other keeps the state between calls, as a
// user's calls do).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Node every timed process runs under: `npm run bench -- --node PATH` (run.mjs passes it as SQ_BENCH_NODE). */
export const NODE = process.env.SQ_BENCH_NODE || process.execPath;
export const NODE_VERSION = execFileSync(NODE, ['--version'], { encoding: 'utf8', env: cleanEnv() }).trim();

/**
 * A clean environment, as `env -i PATH=… HOME=…` gives: only PATH, HOME and what the bench names. Nothing of the
 * bench's own environment reaches a timed process (NODE_OPTIONS, NODE_EXTRA_CA_CERTS — which alone adds ~50 ms to
 * every start of node —, a user's SQ_* settings).
 */
export function cleanEnv(extra = {}) {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

/** Wall time of `node args…` in ms, with its stdout; rejects (with its stderr) when it exits non-zero. */
export function wall(args, env, node = NODE) {
  return new Promise((done, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) =>
      code === 0
        ? done({ ms: Number(process.hrtime.bigint() - t) / 1e6, out })
        : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`)),
    );
  });
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The machine's 1-minute load average, to print beside a figure: the machine the benches run on is shared. */
export const load = () => Math.round(loadavg()[0] * 10) / 10;

/** Removes the machine-wide pacing state (pacing-*.json) from a cache dir. */
export function forgetPacing(cacheDir) {
  for (const f of readdirSync(cacheDir)) if (f.startsWith('pacing-')) rmSync(join(cacheDir, f), { force: true });
}

/** The environment a benchmark's sq calls run in: clean, fresh profile and cache dirs (kept across its calls), the emulator's key. */
export function benchEnv(emu) {
  return cleanEnv({
    SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
    SQ_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-cache-')),
    SQ_BASE_URL: emu.baseUrl,
    SQ_TOKEN: emu.token,
  });
}

/**
 * The baseline of a call: the fastest plain program doing the same job, a CommonJS script (an ES module starts
 * Node's ESM loader: ~35 ms more on Node 22) that GETs the path given (default /v1/me) with node:http and prints the
 * answer as pretty JSON, as `sq … --json` does.
 */
export function getScript() {
  const file = join(mkdtempSync(join(tmpdir(), 'sq-bench-')), 'get.cjs');
  writeFileSync(
    file,
    `'use strict';
const http = require('node:http');
const u = new URL(process.argv[2] || '/v1/me', process.env.SQ_BASE_URL);
http.get(u, { headers: { authorization: 'Token ' + process.env.SQ_TOKEN, accept: 'application/json' } }, (res) => {
  let b = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (b += c));
  res.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(b), null, 2) + '\\n'));
});
`,
  );
  return file;
}

/** The baseline of `sq profiles list --json`: read the profile file, print its profiles with masked keys. */
export function profilesScript() {
  const file = join(mkdtempSync(join(tmpdir(), 'sq-bench-')), 'profiles.cjs');
  writeFileSync(
    file,
    `'use strict';
const d = JSON.parse(require('node:fs').readFileSync(process.env.SQ_CONFIG_DIR + '/config.json', 'utf8'));
const list = Object.entries(d.profiles).map(([name, p]) => ({
  name, active: name === d.active, base_url: p.base_url, key: '****' + p.token.slice(-4), user: p.user,
}));
process.stdout.write(JSON.stringify(list, null, 2) + '\\n');
`,
  );
  return file;
}

/**
 * The peak RSS (KiB) of a bench's child: GNU time's %M when the command ran under it (written to `timeOut`), else
 * /proc's VmHWM polled every 20 ms. Call the returned function once the child has closed.
 */
export function peakRss(child, method, timeOut) {
  let hwm = 0;
  const poll =
    method === 'proc-VmHWM-poll'
      ? setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) hwm = Math.max(hwm, Number(m[1]));
          } catch {
            // the process just exited
          }
        }, 20)
      : null;
  return () => {
    if (poll) clearInterval(poll);
    return method === 'gnu-time-%M' ? Number(readFileSync(timeOut, 'utf8').trim().split('\n').pop()) : hwm;
  };
}
