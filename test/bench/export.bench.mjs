// export_records_per_s: `sq results list --run <r> --all --format ndjson -o file` over 100,000 records made with
// POST /_emulator/generate (emulator rate limits off; sq still paces /v1/results at one request per 550 ms, so the
// ceiling is 100 records / 0.55 s ≈ 182 records/s). export_rss_ratio: peak RSS of the sq process at 100,000 records ÷
// at 10,000 (target ≤ 1.3: memory stays flat). Peak RSS comes from GNU time's %M when /usr/bin/time exists, else
// from polling VmHWM in /proc/<pid>/status; the line says which. jq_export_rss_ratio: the same ratio for
// `sq results list --run <r> --all --jq '.[].id'` to stdout (target <= 1.3: --jq runs on each page, src/output/jq.ts).
// Run alone after a build: node test/bench/export.bench.mjs (BENCH_EXPORT_RECORDS / BENCH_EXPORT_SMALL shrink it).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peakRss } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const BIG = Number(process.env.BENCH_EXPORT_RECORDS || 100_000);
const SMALL = Number(process.env.BENCH_EXPORT_SMALL || 10_000);
const TIME = '/usr/bin/time';
const rssMethod = existsSync(TIME) ? 'gnu-time-%M' : 'proc-VmHWM-poll';

/** Runs sq; resolves with wall ms and peak RSS in KiB (and what it printed, with `keep`). Async: the emulator serving it lives in this process. */
function measure(args, env, keep = false) {
  const dir = mkdtempSync(join(tmpdir(), 'sq-bench-rss-'));
  const timeOut = join(dir, 'time.txt');
  const [cmd, argv] =
    rssMethod === 'gnu-time-%M'
      ? [TIME, ['-f', '%M', '-o', timeOut, process.execPath, bin, ...args]]
      : [process.execPath, [bin, ...args]];
  return new Promise((res, rej) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, argv, { env, stdio: ['ignore', keep ? 'pipe' : 'ignore', 'pipe'] });
    let err = '';
    let lines = 0;
    child.stdout?.on('data', (d) => {
      for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on('data', (d) => (err += d));
    const peak = peakRss(child, rssMethod, timeOut);
    child.on('close', (code) => {
      const kib = peak();
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) return rej(new Error(`sq ${args.join(' ')} exited ${code}: ${err}`));
      res({ ms, kib, lines });
    });
  });
}

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'demo' });
try {
  const auth = { authorization: `Token ${emu.token}`, 'content-type': 'application/json' };
  const squids = await (await fetch(`${emu.baseUrl}/v1/squids?limit=100`, { headers: auth })).json();
  const squid = squids.data.find((s) => s.name === 'Amazon headphones') ?? squids.data[0];
  const gen = async (n) =>
    (
      await (
        await fetch(`${emu.baseUrl}/_emulator/generate`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ squid: squid.id, results: n }),
        })
      ).json()
    ).id;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
    SQ_BASE_URL: emu.baseUrl,
    SQ_TOKEN: emu.token,
  };
  const out = mkdtempSync(join(tmpdir(), 'sq-bench-export-'));

  const lines = (file) => {
    const text = readFileSync(file, 'utf8');
    let n = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
    return n;
  };
  const small = await gen(SMALL);
  const smallFile = join(out, 'small.ndjson');
  const s = await measure(
    ['results', 'list', '--run', small, '--all', '--format', 'ndjson', '-o', smallFile, '-q'],
    env,
  );
  if (lines(smallFile) !== SMALL) throw new Error(`small export has ${lines(smallFile)} records, expected ${SMALL}`);

  const big = await gen(BIG);
  const bigFile = join(out, 'big.ndjson');
  const b = await measure(['results', 'list', '--run', big, '--all', '--format', 'ndjson', '-o', bigFile, '-q'], env);
  if (lines(bigFile) !== BIG) throw new Error(`big export has ${lines(bigFile)} records, expected ${BIG}`);

  const perS = BIG / (b.ms / 1000);
  console.log(
    JSON.stringify({
      name: 'export_records_per_s',
      value: Math.round(perS * 10) / 10,
      unit: 'records/s',
      target: '>= 164 (90% of the 182/s that 2 req/s x 100 records allows)',
      records: BIG,
      wall_s: Math.round(b.ms) / 1000,
      bytes: statSync(bigFile).size,
    }),
  );
  console.log(
    JSON.stringify({
      name: 'export_rss_ratio',
      value: Math.round((b.kib / s.kib) * 1000) / 1000,
      unit: 'ratio',
      target: '<= 1.3',
      rss_big_kib: b.kib,
      rss_small_kib: s.kib,
      records_big: BIG,
      records_small: SMALL,
      method: rssMethod,
    }),
  );

  const jq = async (run, n) => {
    const r = await measure(['results', 'list', '--run', run, '--all', '--jq', '.[].id'], env, true);
    if (r.lines !== n) throw new Error(`--jq export printed ${r.lines} ids, expected ${n}`);
    return r;
  };
  const js = await jq(small, SMALL);
  const jb = await jq(big, BIG);
  console.log(
    JSON.stringify({
      name: 'jq_export_rss_ratio',
      value: Math.round((jb.kib / js.kib) * 1000) / 1000,
      unit: 'ratio',
      target: '<= 1.3',
      rss_big_kib: jb.kib,
      rss_small_kib: js.kib,
      records_big: BIG,
      records_small: SMALL,
      method: rssMethod,
    }),
  );
} finally {
  await emu.close();
}
