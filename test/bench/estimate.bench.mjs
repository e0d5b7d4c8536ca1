// run_start_round_trips: what the estimate every run start makes (its one line on stderr, the --yes rule of a card
// charge) costs in wall time, counted in round trips. The emulator delays every /v1 request by DELAY ms (a fault rule);
// the median wall time of `sq runs start` with the delay minus without it, over DELAY, is the number of round trips
// one after another. A start of a squid given by id needs 1 (POST /v1/runs; by name, 1 more to find it); the estimate
// adds 1 (POST /v1/squid/estimate, once the squid is known), the balance and the auto-reset settings are read beside
// it (or beside the squid's lookup) and add none. Target: <= 2 (at most 1 round trip more than the start alone).
// run_start_extra_round_trips pairs it with its baseline in the same run: `sq api -X POST /v1/runs` (the same start
// through the same client, with no estimate), timed the same way; the difference is what the estimate adds (target <= 1).
// Also estimate_overhead_ms: the same start with --max-credits (the cap) minus without (the cap adds no request now).
// Each run is aborted through the API before the next start (one active run per squid).
// SQ_BENCH_NODE=/path/to/node runs every timed process under that Node (the emulator stays in this one).
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, median, wall } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const SAMPLES = 11;
const DELAY = 300;
const NODE = process.env.SQ_BENCH_NODE || process.execPath;
const NODE_VERSION = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const { squidIdByName, DEMO_SQUIDS } = await import(join(root, 'dist/emulator/seed.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'demo' });
const control = (method, path, body) =>
  fetch(`${emu.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const delay = (on) =>
  on
    ? control('PUT', '/_emulator/faults', { seed: 1, rules: [{ path: '/v1/', action: 'delay', ms: DELAY }] })
    : control('DELETE', '/_emulator/faults');
try {
  const env = benchEnv(emu);
  const squid = squidIdByName(emu.emu.state, DEMO_SQUIDS.paris);
  const abort = async (out) => {
    await delay(false);
    const id = JSON.parse(out).id;
    const res = await fetch(`${emu.baseUrl}/v1/runs/${id}/abort`, {
      method: 'POST',
      headers: { authorization: `Token ${emu.token}` },
    });
    if (!res.ok) throw new Error(`abort of run ${id}: ${res.status}`);
  };
  const plain = ['runs', 'start', '--squid', squid, '--json'];
  const capped = [...plain, '--max-credits', '100000'];
  const bare = ['api', '-X', 'POST', '/v1/runs', '-f', `squid=${squid}`];
  const timed = async (args, slow) => {
    await delay(slow);
    const r = await wall([bin, ...args], env, NODE);
    await abort(r.out);
    return r.ms;
  };
  // One of each first: bin/sq.js's code cache and the file cache are warm for every timed call.
  await timed(plain, false);
  await timed(capped, false);
  await timed(bare, false);
  await control('DELETE', '/_emulator/requests');
  const fast = [];
  const slow = [];
  const cap = [];
  const bareFast = [];
  const bareSlow = [];
  for (let i = 0; i < SAMPLES; i++) {
    fast.push(await timed(plain, false));
    slow.push(await timed(plain, true));
    cap.push(await timed(capped, false));
    bareFast.push(await timed(bare, false));
    bareSlow.push(await timed(bare, true));
  }
  const log = await (await control('GET', '/_emulator/requests')).json();
  const starts = (Array.isArray(log) ? log : log.data).filter(
    (r) => r.path.startsWith('/v1/') && !r.path.endsWith('/abort'),
  );
  // The baseline's starts are one POST /v1/runs each (2 per sample): left out of the counts per `runs start`.
  const sqStarts = starts.length - 2 * SAMPLES;
  const per = (p) => starts.filter((r) => r.path === p).length / (3 * SAMPLES);
  const ms = (x) => Math.round(x * 10) / 10;
  console.log(
    JSON.stringify({
      name: 'run_start_round_trips',
      value: Math.round(((median(slow) - median(fast)) / DELAY) * 100) / 100,
      unit: 'round trips',
      target: '<= 2 (the start alone: 1)',
      node: NODE_VERSION,
      samples: SAMPLES,
      delay_ms: DELAY,
      start_ms: ms(median(fast)),
      start_delayed_ms: ms(median(slow)),
      requests_per_start: Math.round((sqStarts / (3 * SAMPLES)) * 100) / 100,
      estimates_per_start: per('/v1/squid/estimate'),
    }),
  );
  const trips = (a, b) => (median(a) - median(b)) / DELAY;
  console.log(
    JSON.stringify({
      name: 'run_start_extra_round_trips',
      value: Math.round((trips(slow, fast) - trips(bareSlow, bareFast)) * 100) / 100,
      unit: 'round trips',
      target: '<= 1 (over `sq api -X POST /v1/runs`, the start without the estimate, in the same run)',
      node: NODE_VERSION,
      samples: SAMPLES,
      start_round_trips: Math.round(trips(slow, fast) * 100) / 100,
      bare_start_round_trips: Math.round(trips(bareSlow, bareFast) * 100) / 100,
      bare_start_ms: ms(median(bareFast)),
      bare_start_delayed_ms: ms(median(bareSlow)),
    }),
  );
  console.log(
    JSON.stringify({
      name: 'estimate_overhead_ms',
      value: ms(median(cap) - median(fast)),
      unit: 'ms',
      target: '<= 10 (the cap adds no request)',
      node: NODE_VERSION,
      samples: SAMPLES,
      start_ms: ms(median(fast)),
      start_capped_ms: ms(median(cap)),
    }),
  );
} finally {
  await emu.close();
}
