// mcp_first_answer_ms: wall time from spawning `sq mcp` to the answer of tools/list (issue 24), what an agent waits
// for before it can use sq: node's start-up, the CLI, the MCP SDK loaded from dist/vendor/, initialize, tools/list.
// The client writes initialize, the initialized notification and tools/list at once, as soon as it spawned. Given
// with `sq version` (spawn to exit, the CLI's start-up) measured in the same loop, and as the ratio of the two.
// Since issue 48 initialize and tools/list are answered from the build's answers (src/mcp/first-answers.ts) while the
// SDK loads: the target is 1.5x `sq version`.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, median, wall } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const RUNS = Number(process.env.BENCH_RUNS || 25);
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  SQ_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-')),
  SQ_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sq-bench-cache-')),
};

const REQUESTS =
  [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ]
    .map((m) => JSON.stringify(m))
    .join('\n') + '\n';

/** ms from spawn to a complete answer to tools/list (id 2); the server is then closed. */
function firstAnswer() {
  return new Promise((done, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(NODE, [bin, 'mcp', '--quiet'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let ms = null;
    child.stdout.on('data', (d) => {
      out += d;
      if (ms === null && out.split('\n').some((l) => l.startsWith('{') && JSON.parse(l).id === 2)) {
        ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (!out.includes('"squids_list"')) reject(new Error(`tools/list without squids_list: ${out}`));
        child.stdin.end();
      }
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) =>
      ms !== null && code === 0 ? done(ms) : reject(new Error(`sq mcp exited ${code} before answering: ${err}`)),
    );
    child.stdin.write(REQUESTS);
  });
}

// Warm the code cache and the file cache (the SDK's vendored file included).
for (let i = 0; i < 3; i++) {
  await firstAnswer();
  await wall([bin, 'version'], env);
}
const mcp = [];
const version = [];
for (let i = 0; i < RUNS; i++) {
  mcp.push(await firstAnswer());
  version.push((await wall([bin, 'version'], env)).ms);
}
const [m, v] = [median(mcp), median(version)];
const round = (x) => Math.round(x * 10) / 10;
console.log(
  JSON.stringify({
    name: 'mcp_first_answer_ms',
    value: round(m),
    unit: 'ms',
    target: '<= 1.5 x sq version (issue 48)',
    baseline: 'sq version',
    baseline_ms: round(v),
    ratio: Math.round((m / v) * 100) / 100,
    max_ms: round(Math.max(...mcp)),
    runs: RUNS,
    node: process.version,
    timed_node: NODE,
  }),
);
