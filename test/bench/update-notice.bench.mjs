// The update check never delays a command: `sq version` on a terminal (a pty from util-linux's `script`) while the
// registry hangs, against the same with the notice off (SQ_NO_UPDATE_NOTIFIER=1), alternated, in the same run. Each
// hanging call starts from an empty cache, so each one does start a check. Figure: the difference of the medians, in
// ms (target: within 50 ms), and the ratio.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, wall } from './lib.mjs';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../bin/sq.js');
const RUNS = 15;

if (spawnSync('script', ['--version']).status !== 0) {
  process.stderr.write('update-notice bench: skipped, `script` (util-linux) is not installed\n');
  process.exit(0);
}

const hanging = [];
const server = createServer((_q, res) => hanging.push(res));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const registry = `http://127.0.0.1:${server.address().port}`;
const home = mkdtempSync(join(tmpdir(), 'sq-bench-update-'));
const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `sq version` in a pty; the notice on (a fresh cache: it checks) or off. */
async function once(i, on) {
  const cache = join(home, `cache-${i}-${on ? 'on' : 'off'}`);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    SQ_CONFIG_DIR: join(home, 'cfg'),
    SQ_CACHE_DIR: cache,
    SQ_UPDATE_URL: registry,
    TERM: 'xterm',
  };
  if (!on) env.SQ_NO_UPDATE_NOTIFIER = '1';
  const vars = Object.entries(env)
    .map(([k, v]) => `${k}=${q(v)}`)
    .join(' ');
  const r = await wall(
    ['-qec', `env -i ${vars} ${q(process.execPath)} ${q(BIN)} version`, '/dev/null'],
    process.env,
    'script',
  );
  return r.ms;
}

const on = [];
const off = [];
try {
  for (let i = 0; i < RUNS; i++) {
    off.push(await once(i, false));
    on.push(await once(i, true));
  }
} finally {
  for (const r of hanging) r.destroy();
  server.closeAllConnections();
  server.close();
  // The detached checks may still be writing their cache files: give them their 1 s budget, then remove everything.
  await new Promise((r) => setTimeout(r, 1500));
  rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
const diff = median(on) - median(off);
console.log(
  JSON.stringify({
    name: 'update_check_delay_ms',
    value: Math.round(diff * 10) / 10,
    unit: 'ms',
    target: '<= 50',
    baseline: `${Math.round(median(off))} ms with the notice off`,
    requests: hanging.length,
  }),
);
console.log(
  JSON.stringify({
    name: 'update_check_ratio',
    value: Math.round((median(on) / median(off)) * 100) / 100,
    unit: 'ratio',
    target: '<= 1.0 + 50 ms',
  }),
);
