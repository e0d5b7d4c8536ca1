// loop_ratio_squids, loop_ratio_me: a script's loop of sq calls, as shell scripts and CI jobs run it. 20 sequential
// `sq squids list --json` (`sq me --json`) against the emulator with its documented rate limits on, the pacing state
// kept between calls as a user's loop keeps it, ÷ 20 sequential bare node:http GETs of the same path printing the
// answer; both in one run, alternating, so machine noise hits both alike (target ≤ 1.3 on Node 20). The emulator's
// request log must hold no 429 (loop_429 is reported with each figure).
// SQ_BENCH_NODE=/path/to/node runs every timed process under that Node (the emulator stays in this one).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wall, benchEnv } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const CALLS = 20;
const NODE = process.env.SQ_BENCH_NODE || process.execPath;
const NODE_VERSION = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'on', seed: 'demo' });
try {
  const script = join(mkdtempSync(join(tmpdir(), 'sq-bench-')), 'get.mjs');
  writeFileSync(
    script,
    `import http from 'node:http';
const u = new URL(process.argv[2], process.env.SQ_BASE_URL);
http.get(u, { headers: { authorization: 'Token ' + process.env.SQ_TOKEN, accept: 'application/json' } }, (res) => {
  let b = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (b += c));
  res.on('end', () => { process.stdout.write(JSON.stringify(JSON.parse(b), null, 2) + '\\n'); });
});
`,
  );
  const env = benchEnv(emu);
  for (const [name, args, path] of [
    ['loop_ratio_squids', ['squids', 'list', '--json'], '/v1/squids'],
    ['loop_ratio_me', ['me', '--json'], '/v1/me'],
  ]) {
    // One call each first: bin/sq.js's code cache and the file cache are warm for every timed call.
    await wall([bin, ...args], env, NODE);
    await wall([script, path], env, NODE);
    await fetch(`${emu.baseUrl}/_emulator/requests`, { method: 'DELETE' });
    let sq = 0;
    let bare = 0;
    for (let i = 0; i < CALLS; i++) {
      sq += (await wall([bin, ...args], env, NODE)).ms;
      bare += (await wall([script, path], env, NODE)).ms;
    }
    const log = await (await fetch(`${emu.baseUrl}/_emulator/requests`)).json();
    const n429 = (Array.isArray(log) ? log : log.data).filter((r) => r.status === 429).length;
    const ms = (x) => Math.round(x);
    console.log(JSON.stringify({ name, value: Math.round((sq / bare) * 1000) / 1000, unit: 'ratio', target: '<= 1.3', node: NODE_VERSION, calls: CALLS, sq_ms: ms(sq), bare_ms: ms(bare), loop_429: n429 }));
  }
} finally {
  await emu.close();
}
