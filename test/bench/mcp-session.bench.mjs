// mcp_session_bytes: the bytes of every tool answer in an agent's scripted session (issue 31): find the Google Maps
// crawler, read it, add a task to a squid, start a run, wait for it, read its results, get its results file. The same
// calls with the tools sq mcp had before (issue 31's "today", measured on main at 9044993, BASELINE below: crawlers_list
// for the search, crawlers_params to read the crawler, runs_get to wait, results_list without fields, squids_get for the
// masked download URL). Re-measure the baseline with MCP_BENCH_LEGACY=1 MCP_BENCH_BIN=<that build's bin/sq.js>.
// Bytes are JSON.stringify of each tools/call result, as the client receives it; tools/list is given on its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const bin = process.env.MCP_BENCH_BIN || join(root, 'bin/sq.js');
const legacy = process.env.MCP_BENCH_LEGACY === '1';
/** Today's bytes for the same calls: main at 9044993 (2026-11-27), this script with MCP_BENCH_LEGACY=1. */
const BASELINE = 37_450;

const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'demo' });
const config = mkdtempSync(join(tmpdir(), 'sq-bench-'));
const cache = mkdtempSync(join(tmpdir(), 'sq-bench-cache-'));
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  SQ_CONFIG_DIR: config,
  SQ_CACHE_DIR: cache,
  SQ_BASE_URL: emu.baseUrl,
  SQ_TOKEN: emu.token,
};
const client = new Client({ name: 'bench', version: '1' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--quiet', '--allow-writes', ...(legacy ? [] : ['--confirm-above', '1000000'])],
    env,
    stderr: 'inherit',
  }),
);
const listBytes = Buffer.byteLength(JSON.stringify(await client.listTools()));
let bytes = 0;
const calls = [];
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${r.content?.[0]?.text}`);
  const n = Buffer.byteLength(JSON.stringify(r));
  bytes += n;
  calls.push(`${name} ${n}`);
  return r.structuredContent;
};
const squid = 'Paris restaurants';
try {
  if (legacy) await call('crawlers_list', {});
  else await call('crawlers_search', { query: 'google maps search' });
  if (legacy) await call('crawlers_params', { crawler: 'google-maps-search-export' });
  else await call('crawlers_get', { crawler: 'google-maps-search-export' });
  await call('tasks_add', { squid, values: ['https://www.google.com/maps/search/cafe+berlin'] });
  const run = await call('runs_start', { squid });
  await fetch(`${emu.baseUrl}/_emulator/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms: 3_600_000 }),
  });
  if (legacy) await call('runs_get', { run: run.id });
  else await call('runs_wait', { run: run.id, wait_seconds: 10 });
  if (legacy) await call('results_list', { run: run.id });
  else await call('results_list', { run: run.id, fields: ['name', 'phone', 'website'] });
  if (legacy) await call('squids_get', { squid });
  else await call('results_url', { run: run.id });
} finally {
  await client.close();
  await emu.close();
  rmSync(config, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
}
process.stderr.write(`mcp_session_bytes: ${calls.join(', ')}\n`);
console.log(
  JSON.stringify({
    name: 'mcp_session_bytes',
    value: bytes,
    unit: 'bytes',
    target: '<= 1/3 of the baseline',
    baseline: legacy
      ? 'this run is the baseline (MCP_BENCH_LEGACY=1)'
      : 'the same calls with the tools of main at 9044993',
    baseline_bytes: BASELINE,
    ratio: Math.round((bytes / BASELINE) * 1000) / 1000,
    tools_list_bytes: listBytes,
    node: process.version,
  }),
);
