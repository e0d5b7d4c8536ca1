// resume_overhead: `sq results list --run <r> --all -o file.ndjson` killed mid-export (SIGKILL, or SIGINT), then the
// same command with --resume. Value: records fetched twice across both runs ÷ records in the export, the worst of a
// few kills at different points (target: at most one page, i.e. 100 ÷ total). Pages come from the emulator's request
// log (successful /v1/results answers), so a page counts as fetched twice only if the server sent it twice. Each trial
// also checks that the resumed file equals the emulator's records, record for record.
// Run alone after a build: node test/bench/resume.bench.mjs (BENCH_RESUME_RECORDS changes the size; default 2,000).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const TOTAL = Number(process.env.BENCH_RESUME_RECORDS || 2_000);
const PAGE = 100;
// [whole pages written before the kill, then: ms to wait, or 'served' = the moment the server has sent the next page
// (the worst case: a page on its way to the file), signal]
const TRIALS = [
  [2, 0, 'SIGKILL'],
  [Math.floor(TOTAL / PAGE / 2), 250, 'SIGKILL'],
  [Math.floor(TOTAL / PAGE / 2) + 2, 'served', 'SIGKILL'],
  [Math.floor(TOTAL / PAGE) - 3, 450, 'SIGINT'],
  [Math.floor(TOTAL / PAGE) - 2, 'served', 'SIGINT'],
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'demo' });
try {
  const auth = { authorization: `Token ${emu.token}`, 'content-type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(emu.baseUrl + path, {
      method,
      headers: auth,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  };
  const squids = await call('GET', '/v1/squids?limit=100');
  const squid = squids.data.find((s) => s.name === 'Amazon headphones') ?? squids.data[0];
  const run = (await call('POST', '/_emulator/generate', { squid: squid.id, results: TOTAL })).id;
  const expected = [];
  for (let page = 1; expected.length < TOTAL; page++)
    expected.push(...(await call('GET', `/v1/results?run=${run}&page=${page}&limit=${PAGE}`)).data);
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
    SQ_BASE_URL: emu.baseUrl,
    SQ_TOKEN: emu.token,
  };

  /** Successful /v1/results pages since the last call, as page numbers. */
  const pagesServed = async () => {
    const log = await call('GET', '/_emulator/requests');
    await call('DELETE', '/_emulator/requests');
    const list = Array.isArray(log) ? log : (log.data ?? []);
    return list.filter((r) => r.path === '/v1/results' && r.status === 200).map((r) => Number(r.query.page));
  };
  const recordsOn = (page) => Math.max(0, Math.min(PAGE, TOTAL - (page - 1) * PAGE));
  const sq = (args, stop) =>
    new Promise((res, rej) => {
      const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('error', rej);
      child.on('close', (code, signal) => res({ code, signal, err }));
      stop?.(child);
    });

  const results = [];
  for (const [afterPages, extraMs, signal] of TRIALS) {
    const dir = mkdtempSync(join(tmpdir(), 'sq-bench-resume-'));
    const file = join(dir, 'out.ndjson');
    const ckpt = join(dir, '.out.ndjson.sq-checkpoint');
    await pagesServed();
    const args = ['results', 'list', '--run', run, '--all', '-o', file, '-q'];
    const first = await sq(args, async (child) => {
      for (;;) {
        await sleep(5);
        if (!existsSync(ckpt)) continue;
        try {
          if (JSON.parse(readFileSync(ckpt, 'utf8')).pages >= afterPages) break;
        } catch {
          // read while being replaced
        }
      }
      if (extraMs === 'served') {
        const next = String(afterPages + 1);
        for (;;) {
          const log = await call('GET', '/_emulator/requests');
          const list = Array.isArray(log) ? log : (log.data ?? []);
          if (list.some((r) => r.path === '/v1/results' && r.status === 200 && r.query.page === next)) break;
        }
      } else await sleep(extraMs);
      child.kill(signal);
    });
    if (existsSync(file)) throw new Error(`the killed export left ${file}`);
    const before = await pagesServed();
    const second = await sq([...args, '--resume']);
    if (second.code !== 0) throw new Error(`--resume exited ${second.code}: ${second.err}`);
    const after = await pagesServed();
    const got = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    if (JSON.stringify(got) !== JSON.stringify(expected))
      throw new Error(`trial ${afterPages}/${signal}: the resumed export differs from the emulator's records`);
    const twice = before.filter((p) => after.includes(p));
    results.push({
      signal,
      killed_after_pages: afterPages,
      then: extraMs,
      exit: first.code ?? first.signal,
      pages_first: before.length,
      pages_resume: after.length,
      pages_twice: twice.length,
      records_twice: twice.reduce((n, p) => n + recordsOn(p), 0),
    });
  }
  const worst = Math.max(...results.map((r) => r.records_twice));
  console.log(
    JSON.stringify({
      name: 'resume_overhead',
      value: Math.round((worst / TOTAL) * 10000) / 10000,
      unit: 'ratio',
      target: `<= ${PAGE / TOTAL} (one page of ${PAGE} in ${TOTAL})`,
      records: TOTAL,
      worst_records_twice: worst,
      trials: results,
    }),
  );
} finally {
  await emu.close();
}
