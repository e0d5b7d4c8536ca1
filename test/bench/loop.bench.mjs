// loop_ratio_squids, loop_ratio_me: a script's loop of sq calls, as shell scripts and CI jobs run it. 20 sequential
// `sq squids list --json` (`sq me --json`) against the emulator with its documented rate limits on, the pacing state
// kept between calls as a user's loop keeps it, ÷ 20 sequential GETs of the same path by the CommonJS node:http
// script that prints the answer (lib.mjs getScript); both in one run, alternating, every process in a clean
// environment, so machine noise hits both alike (target ≤ 1.3). The emulator's request log must hold no 429
// (loop_429 is reported with each figure). `npm run bench -- --node PATH` runs every timed process under that Node.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_VERSION, benchEnv, getScript, load, wall } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const CALLS = 20;

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'on', seed: 'demo' });
try {
  const script = getScript();
  const env = benchEnv(emu);
  for (const [name, args, path] of [
    ['loop_ratio_squids', ['squids', 'list', '--json'], '/v1/squids'],
    ['loop_ratio_me', ['me', '--json'], '/v1/me'],
  ]) {
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
    const ms = (x) => Math.round(x);
    console.log(JSON.stringify({ name, value: Math.round((sq / bare) * 1000) / 1000, unit: 'ratio', target: '<= 1.3', node: NODE_VERSION, calls: CALLS, sq_ms: ms(sq), bare_ms: ms(bare), loop_429: n429, load: load() }));
  }
} finally {
  await emu.close();
}
