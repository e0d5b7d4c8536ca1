// pacing_efficiency: requests per second sq achieves on /v1/results with the emulator's rate limits ON (2 req/s),
// over 30 requests (`sq results list --run <r> --limit 3000`, 100 records per request), divided by the 2/s allowed;
// target ≥ 0.9. pacing_429_count: 429 answers the emulator logged meanwhile; target 0 (a 429 is a pacing bug).
// The rate is measured on the emulator's request log (arrival times of the 30 requests), not on process start-up.
// parallel_exports_429: 429 answers the emulator logged while 8 `sq results list --all` of one key ran at once (one
// shared SQ_CACHE_DIR, so one rate budget for the machine); target 0. Every process must exit 0 with all records.
// Measured twice: from an empty pacing state (a fresh cache directory), then again with the state the first 8 left.
// tight_budget_429: a server stricter than the docs (the emulator at --rate-limits 0.1: 12 a minute on /v1/squids),
// 16 sequential `sq squids list` with the state kept: 429 answers logged (target 0); every call must exit 0. Up to a
// minute: the 13th call waits for the window's reset.
// Run alone after a build: node test/bench/pacing.bench.mjs (or node test/bench/run.mjs pacing)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const REQUESTS = 30;
const ALLOWED_PER_S = 2;

const PARALLEL = 8;
const PARALLEL_RESULTS = 250; // 3 pages each
const TIGHT_CALLS = 16;

function run(args, env) {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? res() : rej(new Error(`sq ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'on', seed: 'demo' });
try {
  const auth = { authorization: `Token ${emu.token}`, 'content-type': 'application/json' };
  const squids = await (await fetch(`${emu.baseUrl}/v1/squids?limit=100`, { headers: auth })).json();
  const squid = squids.data.find((s) => s.name === 'Amazon headphones') ?? squids.data[0];
  const gen = await (
    await fetch(`${emu.baseUrl}/_emulator/generate`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ squid: squid.id, results: REQUESTS * 100 }),
    })
  ).json();
  // The setup's own requests must not eat into the results window the measured run starts in.
  await new Promise((r) => setTimeout(r, 1100));
  await fetch(`${emu.baseUrl}/_emulator/requests`, { method: 'DELETE' });

  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
    SQ_BASE_URL: emu.baseUrl,
    SQ_TOKEN: emu.token,
  };
  const file = join(mkdtempSync(join(tmpdir(), 'sq-bench-pacing-')), 'r.ndjson');
  await run(
    ['results', 'list', '--run', gen.id, '--limit', String(REQUESTS * 100), '--format', 'ndjson', '-o', file, '-q'],
    env,
  );
  const records = readFileSync(file, 'utf8').trimEnd().split('\n').length;
  if (records !== REQUESTS * 100) throw new Error(`exported ${records} records, expected ${REQUESTS * 100}`);

  const body = await (await fetch(`${emu.baseUrl}/_emulator/requests`)).json();
  const log = (Array.isArray(body) ? body : body.data).filter((r) => r.path === '/v1/results');
  const ok = log.filter((r) => r.status === 200);
  const n429 = log.filter((r) => r.status === 429).length;
  const times = ok.map((r) => Date.parse(r.at)).sort((a, b) => a - b);
  if (ok.length !== REQUESTS)
    throw new Error(`expected ${REQUESTS} answered requests, the emulator logged ${ok.length}`);
  // n requests span n-1 intervals
  const perS = (times.length - 1) / ((times[times.length - 1] - times[0]) / 1000);
  console.log(
    JSON.stringify({
      name: 'pacing_efficiency',
      value: Math.round((perS / ALLOWED_PER_S) * 1000) / 1000,
      unit: 'ratio',
      target: '>= 0.9',
      requests: ok.length,
      achieved_per_s: Math.round(perS * 1000) / 1000,
      allowed_per_s: ALLOWED_PER_S,
    }),
  );
  console.log(JSON.stringify({ name: 'pacing_429_count', value: n429, unit: 'responses', target: '0' }));

  const par = await (
    await fetch(`${emu.baseUrl}/_emulator/generate`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ squid: squid.id, results: PARALLEL_RESULTS }),
    })
  ).json();
  const shared = { ...env, SQ_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-cache-')) };
  for (const state of ['empty', 'kept']) {
    await new Promise((r) => setTimeout(r, 1100));
    await fetch(`${emu.baseUrl}/_emulator/requests`, { method: 'DELETE' });
    const outDir = mkdtempSync(join(tmpdir(), 'sq-bench-parallel-'));
    const started = Date.now();
    await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        run(
          ['results', 'list', '--run', par.id, '--all', '--format', 'ndjson', '-o', join(outDir, `${i}.ndjson`), '-q'],
          shared,
        ),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    for (let i = 0; i < PARALLEL; i++) {
      const n = readFileSync(join(outDir, `${i}.ndjson`), 'utf8')
        .trimEnd()
        .split('\n').length;
      if (n !== PARALLEL_RESULTS) throw new Error(`export ${i} has ${n} records, expected ${PARALLEL_RESULTS}`);
    }
    const plog = await (await fetch(`${emu.baseUrl}/_emulator/requests`)).json();
    const p429 = (Array.isArray(plog) ? plog : plog.data).filter((r) => r.status === 429).length;
    console.log(
      JSON.stringify({
        name: 'parallel_exports_429',
        value: p429,
        unit: 'responses',
        target: '0',
        processes: PARALLEL,
        pacing_state: state,
        seconds: Math.round(seconds * 10) / 10,
      }),
    );
  }
} finally {
  await emu.close();
}

const tight = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 0.1, seed: 'demo' });
try {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
    SQ_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-cache-')),
    SQ_BASE_URL: tight.baseUrl,
    SQ_TOKEN: tight.token,
  };
  const started = Date.now();
  for (let i = 0; i < TIGHT_CALLS; i++) await run(['squids', 'list'], env);
  const seconds = (Date.now() - started) / 1000;
  const tlog = await (await fetch(`${tight.baseUrl}/_emulator/requests`)).json();
  const squidsLog = (Array.isArray(tlog) ? tlog : tlog.data).filter((r) => r.path === '/v1/squids');
  if (squidsLog.length < TIGHT_CALLS)
    throw new Error(`expected ${TIGHT_CALLS} requests, the emulator logged ${squidsLog.length}`);
  console.log(
    JSON.stringify({
      name: 'tight_budget_429',
      value: squidsLog.filter((r) => r.status === 429).length,
      unit: 'responses',
      target: '0',
      calls: TIGHT_CALLS,
      allowed_per_min: 12,
      seconds: Math.round(seconds * 10) / 10,
    }),
  );
} finally {
  await tight.close();
}
