// sea_one_call_ms: `dist/sea/sq me --json` (the standalone executable, `npm run build:sea`) against the emulator,
// beside the launcher's one call (`node bin/sq.js me --json`, code cache warm: one_call_ratio's numerator), runs
// alternating so machine noise hits both alike; ratio is standalone ÷ launcher. sea_size_mb: the executable's size
// (mostly Node's own binary). Builds dist/sea/sq first when it is missing or older than dist/sq.cjs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forgetPacing, median, wall } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const sea = join(root, 'dist/sea/sq');
const RUNS = Number(process.env.BENCH_RUNS || 25);

if (!existsSync(sea) || statSync(sea).mtimeMs < statSync(join(root, 'dist/sq.cjs')).mtimeMs) {
  execFileSync(process.execPath, ['sea/build.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
const round = (x) => Math.round(x * 10) / 10;
console.log(
  JSON.stringify({
    name: 'sea_size_mb',
    value: round(statSync(sea).size / 1e6),
    unit: 'MB',
    target: 'none (node itself is most of it)',
    node: process.version,
  }),
);

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'empty' });
try {
  const env = {
    // No node on PATH for either: the launcher is started by this process's node, the executable needs none.
    PATH: '/nonexistent',
    HOME: process.env.HOME,
    SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
    SQ_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-cache-')),
    SQ_BASE_URL: emu.baseUrl,
    SQ_TOKEN: emu.token,
  };
  const call = (exe, args) => {
    forgetPacing(env.SQ_CACHE_DIR);
    return wall(args, env, exe);
  };
  // The first calls warm the launcher's code cache and the file cache for both.
  await call(process.execPath, [bin, 'me', '--json']);
  await call(sea, ['me', '--json']);
  const [launcher, standalone] = [[], []];
  for (let i = 0; i < RUNS; i++) {
    launcher.push((await call(process.execPath, [bin, 'me', '--json'])).ms);
    standalone.push((await call(sea, ['me', '--json'])).ms);
  }
  const [ms, base] = [median(standalone), median(launcher)];
  console.log(
    JSON.stringify({
      name: 'sea_one_call_ms',
      value: round(ms),
      unit: 'ms',
      target: "none (beside the launcher's one call)",
      launcher_ms: round(base),
      ratio: Math.round((ms / base) * 1000) / 1000,
      node: process.version,
    }),
  );
} finally {
  await emu.close();
}
