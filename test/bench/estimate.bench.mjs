// estimate_overhead_ms: what a spending cap adds to starting a run. Median wall time of `sq runs start --max-credits N`
// minus that of `sq runs start` (the same squid, the same emulator, alternating so machine noise hits both alike);
// the cap costs the estimate (POST /v1/squid/estimate, with the balance and the auto-reset settings read at once),
// so the target is one request's worth: <= 40 ms on the emulator. Each run is aborted through the API before the next
// start (one active run per squid). The emulator's request log must show one estimate per capped start.
// SQ_BENCH_NODE=/path/to/node runs every timed process under that Node (the emulator stays in this one).
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, median, wall } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const SAMPLES = 15;
const NODE = process.env.SQ_BENCH_NODE || process.execPath;
const NODE_VERSION = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const { squidIdByName, DEMO_SQUIDS } = await import(join(root, 'dist/emulator/seed.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'demo' });
try {
  const env = benchEnv(emu);
  const squid = squidIdByName(emu.emu.state, DEMO_SQUIDS.paris);
  const abort = async (out) => {
    const id = JSON.parse(out).id;
    const res = await fetch(`${emu.baseUrl}/v1/runs/${id}/abort`, { method: 'POST', headers: { authorization: `Token ${emu.token}` } });
    if (!res.ok) throw new Error(`abort of run ${id}: ${res.status}`);
  };
  const plain = ['runs', 'start', '--squid', squid, '--json'];
  const capped = [...plain, '--max-credits', '100000'];
  // One of each first: bin/sq.js's code cache and the file cache are warm for every timed call.
  await abort((await wall([bin, ...plain], env, NODE)).out);
  await abort((await wall([bin, ...capped], env, NODE)).out);
  await fetch(`${emu.baseUrl}/_emulator/requests`, { method: 'DELETE' });
  const a = [];
  const b = [];
  for (let i = 0; i < SAMPLES; i++) {
    const p = await wall([bin, ...plain], env, NODE);
    a.push(p.ms);
    await abort(p.out);
    const c = await wall([bin, ...capped], env, NODE);
    b.push(c.ms);
    await abort(c.out);
  }
  const log = await (await fetch(`${emu.baseUrl}/_emulator/requests`)).json();
  const estimates = (Array.isArray(log) ? log : log.data).filter((r) => r.path === '/v1/squid/estimate').length;
  const ms = (x) => Math.round(x * 10) / 10;
  console.log(
    JSON.stringify({
      name: 'estimate_overhead_ms',
      value: ms(median(b) - median(a)),
      unit: 'ms',
      target: '<= 40',
      node: NODE_VERSION,
      samples: SAMPLES,
      start_ms: ms(median(a)),
      start_capped_ms: ms(median(b)),
      estimates,
    }),
  );
} finally {
  await emu.close();
}
