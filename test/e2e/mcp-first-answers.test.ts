// A stdio `sq mcp` answers initialize and tools/list from the build's answers while the MCP SDK loads (issue 48:
// the first answer was 2.46× `sq version`). Those answers must be the SDK's own, to the byte, whatever the server
// serves and whatever protocol version the client asks for; and the SDK, once loaded, must still see every message
// (a call after them works) without answering any request twice. The early answers come from the built binary (its
// dist/mcp-first.json; sq run from src/ has none, and gives none); the SDK's own answers to compare them with come
// from the server run in this process with them turned off (test/helpers/mcp-client.ts: the same SDK), ~0.3 s of CPU
// less each than a process that loads it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { startMcpInProcess } from '../helpers/mcp-client.js';

const home = mkdtempSync(join(tmpdir(), 'sq-mcp-first-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const baseEnv = {
  PATH: process.env.PATH,
  HOME: home,
  SQ_CONFIG_DIR: join(home, 'config'),
  SQ_CACHE_DIR: join(home, 'cache'),
};

type Msg = { jsonrpc: string; id?: string | number; result?: unknown; error?: unknown };

/**
 * Every line `sq mcp ARGS` writes to stdout for `messages`, stdin closed once each request has its answer: the built
 * binary, or with `how` 'in-process' the server run in this process.
 */
function session(
  args: string[],
  messages: object[],
  env: Record<string, string | undefined>,
  stderr?: string[],
  how: 'bin' | 'in-process' = 'bin',
): Promise<Msg[]> {
  if (how === 'in-process') return sdkSession(args, messages, env, stderr);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--quiet', ...args], {
      env: { ...baseEnv, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines = converse(child, messages);
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', () => stderr?.push(err));
    child.on('close', (code) => (code === 0 ? resolve(lines) : reject(new Error(`sq mcp exited ${code}: ${err}`))));
  });
}

/**
 * Writes `messages` to a server's stdin and collects the JSON lines it answers; stdin ends once every request (a
 * message with an id) has its answer, and the server with it.
 */
function converse(server: { stdin: NodeJS.WritableStream; stdout: NodeJS.ReadableStream }, messages: object[]): Msg[] {
  const wanted = new Set(messages.flatMap((m) => ('id' in m ? [(m as Msg).id] : [])));
  const lines: Msg[] = [];
  let buf = '';
  server.stdout.on('data', (d) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const msg = JSON.parse(buf.slice(0, nl)) as Msg;
      buf = buf.slice(nl + 1);
      lines.push(msg);
      wanted.delete(msg.id);
      if (!wanted.size) server.stdin.end();
    }
  });
  server.stdin.write(`${messages.map((m) => JSON.stringify(m)).join('\n')}\n`);
  return lines;
}

/** session() in this process, where only the SDK answers (no early answers: SQ_MCP_FIRST_ANSWERS=0). */
function sdkSession(
  args: string[],
  messages: object[],
  env: Record<string, string | undefined>,
  stderr?: string[],
): Promise<Msg[]> {
  const server = startMcpInProcess(['--quiet', ...args], { ...baseEnv, ...env, SQ_MCP_FIRST_ANSWERS: '0' });
  const lines = converse(server, messages);
  return server.code.then((code) => {
    stderr?.push(server.stderr());
    if (code !== 0) throw new Error(`sq mcp exited ${code}: ${server.stderr()}`);
    return lines;
  });
}

const initialize = (protocolVersion: string, id: string | number = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

describe('sq mcp: the first answers, before the SDK has loaded', () => {
  // Each row is one binary: its early answers, then the messages after them, which only the SDK answers (a ping, a
  // call, a list of templates), so that every session also shows the SDK still sees every message and answers no
  // request twice (that was a test of its own, one more process).
  it.each([
    [[], '2025-06-18'],
    [['--allow-writes'], '2025-11-25'],
    [['--allow-writes=all'], '2024-11-05'],
    [['--allow-writes=runs_start,tasks_delete'], '1999-01-01'],
  ])(
    'sq mcp %j asked for protocol %s: the same initialize and tools/list as the SDK gives; the SDK answers what follows, each request once',
    async (args, version) => {
      const messages = [
        initialize(version, 'a'),
        initialized,
        { jsonrpc: '2.0', id: 7, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'ping' },
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
        { jsonrpc: '2.0', id: 5, method: 'resources/templates/list' },
      ];
      const [earlyLog, sdkLog]: string[][] = [[], []];
      const [early, sdk] = await Promise.all([
        session([...args, '-v'], messages, {}, earlyLog),
        session([...args, '-v'], messages, { SQ_MCP_FIRST_ANSWERS: '0' }, sdkLog, 'in-process'),
      ]);
      // The early answers were given (-v says so), and only where they are not turned off.
      expect(earlyLog.join('')).toContain("sq mcp: initialize answered from the build's answers");
      expect(earlyLog.join('')).toContain("sq mcp: tools/list answered from the build's answers");
      expect(sdkLog.join('')).not.toContain('answered from the build');
      expect(sdk).toHaveLength(5);
      expect(early).toEqual(sdk);
      // Key order too: a client may hash or cache the text.
      expect(early.map((m) => JSON.stringify(m))).toEqual(sdk.map((m) => JSON.stringify(m)));
      // The SDK, once loaded, saw the messages after the early answers: each request answered once, in order.
      expect(early.map((m) => m.id)).toEqual(['a', 7, 3, 4, 5]);
      expect(early[2].result).toEqual({});
      expect(JSON.stringify(early[3].result)).toContain('no_such_tool');
      expect(JSON.stringify(early[4].result)).toContain('sq://squids/{id}');
    },
  );

  it('a tools/list before initialize, or an initialize without its params, is left to the SDK', async () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'initialize', params: {} },
    ];
    const [early, sdk] = await Promise.all([
      session([], messages, {}),
      session([], messages, { SQ_MCP_FIRST_ANSWERS: '0' }, undefined, 'in-process'),
    ]);
    expect(early).toEqual(sdk);
    expect(early).toHaveLength(2);
  });
});
