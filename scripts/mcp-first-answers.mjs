// dist/mcp-first.json: what `sq mcp` answers to `initialize` and `tools/list`, taken from the SDK's own answers at
// build time (the server just built, every write tool allowed), so that a stdio server answers those two from this
// file while the SDK is still loading (src/mcp/first-answers.ts). The SDK's protocol versions come with it, for the
// negotiation. test/e2e/mcp-first-answers.test.ts holds the early answers equal to the SDK's, for several settings.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

const home = mkdtempSync(join(tmpdir(), 'sq-build-mcp-'));
try {
  const env = { PATH: process.env.PATH, HOME: home, SQ_CONFIG_DIR: join(home, 'config'), SQ_CACHE_DIR: join(home, 'cache'), SQ_MCP_FIRST_ANSWERS: '0' };
  const answers = await ask(env, [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'build', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ]);
  const init = answers.get(1);
  const list = answers.get(2);
  if (!init?.result || !list?.result?.tools?.length) throw new Error(`sq mcp did not answer initialize and tools/list: ${JSON.stringify([...answers])}`);
  const { protocolVersion: _negotiated, ...initialize } = init.result;
  const doc = { latest: LATEST_PROTOCOL_VERSION, supported: SUPPORTED_PROTOCOL_VERSIONS, initialize, tools: list.result.tools };
  await writeFile('dist/mcp-first.json.tmp', JSON.stringify(doc));
  await rename('dist/mcp-first.json.tmp', 'dist/mcp-first.json');
} finally {
  rmSync(home, { recursive: true, force: true });
}

/** The built `sq mcp --allow-writes=all`'s answers to `messages`, by id. */
function ask(env, messages) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/sq.js', 'mcp', '--quiet', '--allow-writes=all'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    const wanted = messages.filter((m) => 'id' in m).length;
    const got = new Map();
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        got.set(msg.id, msg);
        if (got.size === wanted) child.stdin.end();
      }
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(got) : reject(new Error(`sq mcp exited ${code}`))));
    child.stdin.write(`${messages.map((m) => JSON.stringify(m)).join('\n')}\n`);
  });
}
