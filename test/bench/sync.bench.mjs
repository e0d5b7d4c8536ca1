// sq results sync (issue 49), into SQLite (a file, the engine sq uses on this Node) and Postgres (PGlite's engine behind
// its socket server, in this process, through pg as a real server is reached):
// - sync_rows_per_s_sqlite / _postgres: one run of BENCH_SYNC_RATE_ROWS (default 10,000) rows, the emulator's rate
//   limits on (the published 2 requests/s on /v1/results, on a real clock). `value`: the rows/s between the first and
//   the last results request (the emulator's log) ÷ the published budget, 2 requests/s x 100 rows = 200 rows/s
//   (target >= 0.95: the database is never the bottleneck). `end_to_end`: the same over the whole process (start,
//   lookups, the table's DDL), and `vs_export`: that ÷ `sq results list --run R --all -o FILE` of the same run, timed in
//   the same bench.
// - sync_rss_ratio_sqlite / _postgres: peak RSS of a BENCH_SYNC_ROWS (100,000) row sync ÷ a BENCH_SYNC_SMALL (10,000)
//   row one (target <= 1.2), with the emulator's limits at 50 times the documented ones (memory, not pacing).
// Run alone after a build: node test/bench/sync.bench.mjs (the env variables shrink it; the rate part takes ~3 min,
// the RSS part what 2 x 110,000 rows take at ~100 pages/s).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, load, peakRss } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const RATE_ROWS = Number(process.env.BENCH_SYNC_RATE_ROWS || 10_000);
const BIG = Number(process.env.BENCH_SYNC_ROWS || 100_000);
const SMALL = Number(process.env.BENCH_SYNC_SMALL || 10_000);
const BUDGET = 200;
const TIME = '/usr/bin/time';
const rssMethod = existsSync(TIME) ? 'gnu-time-%M' : 'proc-VmHWM-poll';

/** Runs sq; resolves with wall ms, peak RSS in KiB and stdout. */
function measure(args, env) {
  const timeOut = join(mkdtempSync(join(tmpdir(), 'sq-bench-sync-')), 'time.txt');
  const [cmd, argv] =
    rssMethod === 'gnu-time-%M' ? [TIME, ['-f', '%M', '-o', timeOut, NODE, bin, ...args]] : [NODE, [bin, ...args]];
  return new Promise((res, rej) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const peak = peakRss(child, rssMethod, timeOut);
    child.on('close', (code) => {
      const kib = peak();
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) return rej(new Error(`sq ${args.join(' ')} exited ${code}: ${err}`));
      res({ ms, kib, out });
    });
  });
}

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const { PGlite } = await import('@electric-sql/pglite');
const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
const pglite = await PGlite.create();
const server = new PGLiteSocketServer({ db: pglite, port: 0, host: '127.0.0.1' });
await server.start();
const pgUrl = `postgres://postgres@${server.getServerConn()}/postgres`;
const dbDir = mkdtempSync(join(tmpdir(), 'sq-bench-sync-db-'));

/** One emulator (limits as given), a squid of its own and a run of `n` rows; the env to run sq against it. */
async function setUp(rateLimits, n) {
  const emu = await startEmulator({
    port: 0,
    clock: rateLimits === 'on' ? 'real' : 'virtual',
    rateLimits,
    seed: 'demo',
  });
  const auth = { authorization: `Token ${emu.token}`, 'content-type': 'application/json' };
  const squids = await (await fetch(`${emu.baseUrl}/v1/squids?limit=100`, { headers: auth })).json();
  const squid = squids.data.find((s) => s.name === 'Lyon bakeries');
  const gen = async (rows) =>
    (
      await (
        await fetch(`${emu.baseUrl}/_emulator/generate`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ squid: squid.id, results: rows }),
        })
      ).json()
    ).id;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
    SQ_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-cache-')),
    SQ_BASE_URL: emu.baseUrl,
    SQ_TOKEN: emu.token,
  };
  return { emu, env, gen, run: n ? await gen(n) : null };
}

const targets = (name) => ({ sqlite: `sqlite:${join(dbDir, `${name}.db`)}`, postgres: pgUrl });

try {
  // Rows/s at the published rate limits.
  const rate = await setUp('on', RATE_ROWS);
  /** Rows/s between the first and the last /v1/results request of this run sent after log entry `after`. */
  const steady = (after) => {
    const at = rate.emu.log
      .list()
      .filter((r) => r.id > after && r.path === '/v1/results' && r.query.run === rate.run)
      .map((r) => Date.parse(r.at));
    return ((at.length - 1) * 100) / ((at.at(-1) - at[0]) / 1000);
  };
  const mark = () => rate.emu.log.list().at(-1)?.id ?? 0;
  let m = mark();
  const exp = await measure(
    ['results', 'list', '--run', rate.run, '--all', '--format', 'ndjson', '-o', join(dbDir, 'rate.ndjson'), '-q'],
    rate.env,
  );
  const exportPerS = RATE_ROWS / (exp.ms / 1000);
  const exportSteady = steady(m);
  for (const [kind, to] of Object.entries(targets('rate'))) {
    m = mark();
    const r = await measure(
      ['results', 'sync', '--run', rate.run, '--to', to, '--table', `rate_${kind}`, '--json'],
      rate.env,
    );
    const s = JSON.parse(r.out);
    if (s.inserted !== RATE_ROWS) throw new Error(`${kind}: ${s.inserted} rows inserted, expected ${RATE_ROWS}`);
    const perS = RATE_ROWS / (r.ms / 1000);
    const paced = steady(m);
    console.log(
      JSON.stringify({
        name: `sync_rows_per_s_${kind}`,
        value: Math.round((paced / BUDGET) * 1000) / 1000,
        unit: 'ratio to 200 rows/s',
        target: '>= 0.95',
        rows_per_s: Math.round(paced * 10) / 10,
        end_to_end: Math.round((perS / BUDGET) * 1000) / 1000,
        vs_export: Math.round((perS / exportPerS) * 1000) / 1000,
        export_rows_per_s: Math.round(exportSteady * 10) / 10,
        export_end_to_end: Math.round((exportPerS / BUDGET) * 1000) / 1000,
        rows: RATE_ROWS,
        wall_s: Math.round(r.ms) / 1000,
        engine: s.engine,
        load: load(),
      }),
    );
  }
  await rate.emu.close();

  // Peak RSS, 100,000 rows against 10,000.
  const mem = await setUp(50, 0);
  const small = await mem.gen(SMALL);
  const big = await mem.gen(BIG);
  for (const [kind, to] of Object.entries(targets('rss'))) {
    const s = await measure(
      ['results', 'sync', '--run', small, '--to', to, '--table', `rss_small_${kind}`, '-q'],
      mem.env,
    );
    const b = await measure(
      ['results', 'sync', '--run', big, '--to', to, '--table', `rss_big_${kind}`, '--json'],
      mem.env,
    );
    if (JSON.parse(b.out).inserted !== BIG)
      throw new Error(`${kind}: the big sync inserted ${JSON.parse(b.out).inserted}`);
    console.log(
      JSON.stringify({
        name: `sync_rss_ratio_${kind}`,
        value: Math.round((b.kib / s.kib) * 1000) / 1000,
        unit: 'ratio',
        target: '<= 1.2',
        rss_big_kib: b.kib,
        rss_small_kib: s.kib,
        rows_big: BIG,
        rows_small: SMALL,
        method: rssMethod,
        load: load(),
      }),
    );
  }
  await mem.emu.close();
} finally {
  await server.stop();
  await pglite.close();
}
