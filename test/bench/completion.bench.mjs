// completion_tab_ms: wall time of what one Tab costs, `sq __complete squids` (the hidden command the completion
// scripts run), against the emulator; target ≤ 500 ms whatever happens, node's start-up included.
// - cached: the answer is in the completion cache (every Tab within 60 s of the first);
// - uncached: the cache file is removed before each call, so sq asks the service (GET /v1/squids) within its budget.
// Each is also given ÷ `node -e 0` measured in the same loop (the part no CLI in node can save).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, wall } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const RUNS = Number(process.env.BENCH_RUNS || 25);

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'demo' });
const cache = mkdtempSync(join(tmpdir(), 'sq-bench-cache-'));
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
  SQ_CACHE_DIR: cache,
  SQ_BASE_URL: emu.baseUrl,
  SQ_TOKEN: emu.token,
};
const forget = () => rmSync(join(cache, 'complete'), { recursive: true, force: true });
try {
  // Warm the code cache and the file cache.
  for (let i = 0; i < 3; i++) await wall([bin, '__complete', 'squids'], env);
  for (const mode of ['cached', 'uncached']) {
    const sq = [];
    const node = [];
    let empty = 0;
    await wall([bin, '__complete', 'squids'], env);
    for (let i = 0; i < RUNS; i++) {
      if (mode === 'uncached') forget();
      const r = await wall([bin, '__complete', 'squids'], env);
      sq.push(r.ms);
      if (!r.out) empty++;
      node.push((await wall(['-e', '0'], env)).ms);
    }
    const ms = median(sq);
    console.log(
      JSON.stringify({
        name: `completion_tab_ms_${mode}`,
        value: Math.round(ms * 10) / 10,
        unit: 'ms',
        target: '<= 500',
        ratio_to_node: Math.round((ms / median(node)) * 100) / 100,
        max_ms: Math.round(Math.max(...sq)),
        answered: RUNS - empty,
        runs: RUNS,
      }),
    );
  }
} finally {
  await emu.close();
  rmSync(cache, { recursive: true, force: true });
}
