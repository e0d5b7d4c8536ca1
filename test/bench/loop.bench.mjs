// loop_ratio_squids, loop_ratio_me: a script's loop of sq calls, as shell scripts and CI jobs run it. 20 sequential
// `sq squids list --json` (`sq me --json`) against the emulator with its documented rate limits on, the pacing state
// kept between calls as a user's loop keeps it, ÷ 20 sequential GETs of the same path by the CommonJS node:http
// script that prints the answer (lib.mjs getScript); both in one run, alternating, every process in a clean
// environment, so machine noise hits both alike (target ≤ 1.3). The emulator's request log must hold no 429
// (loop_429 is reported with each figure). `npm run bench -- --node PATH` runs every timed process under that Node.
// The loop runs BENCH_LOOPS times (5), each against an emulator of its own (a fresh rate-limit window: five loops of
// 40 requests would pass the documented 120 a minute of /v1/squids, and the bare script does not pace itself); the
// figure is the median of the loops' ratios. One loop alone moved by ±0.07 when the machine stalled one call for
// 100 ms; each loop's ratio is reported with it.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_VERSION, benchEnv, getScript, load, wall } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const CALLS = 20;

const LOOPS = Number(process.env.BENCH_LOOPS || 5);
const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const script = getScript();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [name, args, path] of [
  ['loop_ratio_squids', ['squids', 'list', '--json'], '/v1/squids'],
  ['loop_ratio_me', ['me', '--json'], '/v1/me'],
]) {
  const loops = [];
  for (let l = 0; l < LOOPS; l++) {
    const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'on', seed: 'demo' });
    try {
      const env = benchEnv(emu);
      // One call each first: bin/sq.js's code cache and the file cache are warm for every timed call.
      await wall([bin, ...args], env);
      await wall([script, path], env);
      await fetch(`${emu.baseUrl}/_emulator/requests`, { method: 'DELETE' });
      let sq = 0;
      let bare = 0;
      for (let i = 0; i < CALLS; i++) {
        sq += (await wall([bin, ...args], env)).ms;
        bare += (await wall([script, path], env)).ms;
      }
      const log = await (await fetch(`${emu.baseUrl}/_emulator/requests`)).json();
      const n429 = (Array.isArray(log) ? log : log.data).filter((r) => r.status === 429).length;
      loops.push({ sq, bare, ratio: sq / bare, n429 });
    } finally {
      await emu.close();
    }
  }
  const mid = loops.find((x) => x.ratio === median(loops.map((y) => y.ratio)));
  const ms = (x) => Math.round(x);
  console.log(
    JSON.stringify({
      name,
      value: Math.round(mid.ratio * 1000) / 1000,
      unit: 'ratio',
      target: '<= 1.3',
      node: NODE_VERSION,
      calls: CALLS,
      loops: LOOPS,
      loop_ratios: loops.map((x) => Math.round(x.ratio * 1000) / 1000),
      sq_ms: ms(mid.sq),
      bare_ms: ms(mid.bare),
      loop_429: loops.reduce((n, x) => n + x.n429, 0),
      load: load(),
    }),
  );
}
