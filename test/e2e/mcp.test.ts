// `sq mcp` as an agent runs it: the built bin/sq.js spawned over stdio, driven by the MCP SDK's own Client (and, at
// the end, by the MCP Inspector's CLI: a client nobody here wrote), against the emulator on loopback.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { useEmulator } from '../helpers/emulator.js';
import { BIN, sq, tempConfigDir } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });

const READ_TOOLS = [
  'balance', 'billing_auto_reset_get', 'crawlers_list', 'crawlers_params', 'delivery_show', 'plan', 'results_list', 'runs_credits',
  'runs_get', 'runs_list', 'runs_stats', 'squids_get', 'squids_list', 'status', 'tasks_list',
];

function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', SQ_CONFIG_DIR: tempConfigDir(), SQ_CACHE_DIR: process.env.SQ_CACHE_DIR ?? '', NO_COLOR: '1', ...emu.env(), ...extra };
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(args: string[] = [], env = serverEnv()): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d) => (err += String(d)));
  const client = new Client({ name: 'sq-test', version: '1' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => err };
}

type CallResult = { content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallResult;
const textOf = (c: object) => String((c as { text?: unknown }).text);
const json = (args: string[]) => sq([...args, '--json'], { env: emu.env() }).then((r) => JSON.parse(r.stdout) as unknown);

describe('sq mcp over stdio, with the SDK client', () => {
  it('lists the read tools only by default, typed and annotated read-only', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
    for (const t of tools) {
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      expect(t.inputSchema.type).toBe('object');
    }
    const results = tools.find((t) => t.name === 'results_list')!;
    expect(Object.keys(results.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['squid', 'run', 'limit', 'cursor']));
    expect(results.outputSchema?.properties).toHaveProperty('next_cursor');
  });

  it('a call returns what the verb prints with --json, as text and structured content', async () => {
    const { client } = await connect();
    const r = await call(client, 'squids_list', { limit: 3 });
    expect(r.isError).toBeFalsy();
    const expected = await json(['squids', 'list', '--limit', '3']);
    expect(JSON.parse(r.content[0].text)).toEqual(expected);
    expect(r.structuredContent).toEqual({ items: expected });

    const get = await call(client, 'squids_get', { squid: DEMO_SQUIDS.paris });
    expect(get.structuredContent).toEqual(await json(['squids', 'get', DEMO_SQUIDS.paris]));
    const runs = (await json(['runs', 'list', '--squid', DEMO_SQUIDS.paris])) as Array<{ id: string }>;
    const credits = await call(client, 'runs_credits', { run: runs[0].id.slice(0, 8) });
    expect(credits.structuredContent).toEqual(await json(['runs', 'credits', runs[0].id]));
    expect(credits.structuredContent).toHaveProperty('total_credits');
  });

  it('results_list pages with a cursor, at most 100 records a call', async () => {
    const { client } = await connect();
    const first = await call(client, 'results_list', { squid: DEMO_SQUIDS.paris, limit: 2 });
    expect(first.structuredContent?.items).toEqual(await json(['results', 'list', '--squid', DEMO_SQUIDS.paris, '--limit', '2', '--page', '1']));
    const cursor = first.structuredContent?.next_cursor;
    expect(typeof cursor).toBe('string');
    const second = await call(client, 'results_list', { squid: DEMO_SQUIDS.paris, cursor });
    expect(second.structuredContent?.items).toEqual(await json(['results', 'list', '--squid', DEMO_SQUIDS.paris, '--limit', '2', '--page', '2']));
    const all = (await json(['results', 'list', '--squid', DEMO_SQUIDS.paris, '--all'])) as unknown[];
    // The last page has no cursor.
    let page: CallResult = second;
    let seen = 4;
    while (typeof page.structuredContent?.next_cursor === 'string') {
      page = await call(client, 'results_list', { squid: DEMO_SQUIDS.paris, cursor: page.structuredContent.next_cursor });
      seen += ((page.structuredContent?.items ?? []) as unknown[]).length;
    }
    expect(seen).toBe(all.length);
    expect((await call(client, 'results_list', { squid: DEMO_SQUIDS.paris, limit: 101 })).isError).toBe(true);
    const bad = await call(client, 'results_list', { squid: DEMO_SQUIDS.paris, cursor: 'nope' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(/^USAGE \(exit 2\): results_list: "cursor" is not one/);
  });

  it('an error is a tool error with the CLI\'s message and its exit-code name; the server stays up', async () => {
    const { client } = await connect();
    const missing = await call(client, 'squids_get', { squid: 'no such squid' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toMatch(/^NOT_FOUND \(exit 3\): no squid matches "no such squid"/);
    const usage = await call(client, 'squids_list', { limit: 500, page: 2 });
    expect(usage.isError).toBe(true);
    expect(usage.content[0].text).toMatch(/^USAGE \(exit 2\): .*--limit/);
    const plan = await call(client, 'plan', {});
    expect(plan.content[0].text).toBe('USAGE (exit 2): plan: give exactly one of "file" (a path) and "yaml" (the content inline)');
    expect((await call(client, 'balance')).isError).toBeFalsy();

    const { client: noKey } = await connect([], serverEnv({ SQ_TOKEN: '' }));
    const auth = await call(noKey, 'balance');
    expect(auth.isError).toBe(true);
    expect(auth.content[0].text).toMatch(/^AUTH \(exit 4\): no API key/);
  });

  it('read-only by default: a write tool is refused, naming --allow-writes, and nothing is sent', async () => {
    const { client } = await connect();
    await emu.clearRequests();
    const r = await call(client, 'runs_start', { squid: DEMO_SQUIDS.paris });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toContain('runs_start is a write tool');
    expect(r.content[0].text).toContain('start it with `sq mcp --allow-writes`');
    const del = await call(client, 'tasks_delete', { task: 'abcd' });
    // Every command the message quotes is whole and runnable between its backticks.
    expect(del.content[0].text).toContain('`sq mcp --allow-writes=all`');
    expect(del.content[0].text).toContain('`sq mcp --allow-writes=tasks_delete`');
    for (const quoted of del.content[0].text.match(/`[^`]*`/g) ?? []) expect(quoted).toMatch(/^`sq mcp --allow-writes=[a-z_]+`$/);
    expect(await emu.requests('POST')).toEqual([]);
    expect(await emu.requests('DELETE')).toEqual([]);
  });

  it('--allow-writes serves the writes (annotated) but not deletes and billing; =all and a list decide those', async () => {
    const { client } = await connect(['--allow-writes']);
    const tools = (await client.listTools()).tools;
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const n of ['runs_start', 'runs_abort', 'tasks_add', 'squids_update', 'delivery_webhook', 'delivery_sftp', 'apply']) expect(byName.has(n), n).toBe(true);
    expect(byName.has('tasks_delete')).toBe(false);
    expect(byName.has('billing_auto_reset_set')).toBe(false);
    expect(byName.get('tasks_add')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.get('runs_start')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('tasks_add')!.inputSchema.properties).toHaveProperty('dry_run');

    const all = (await (await connect(['--allow-writes=all'])).client.listTools()).tools.map((t) => t.name);
    expect(all).toEqual(expect.arrayContaining(['tasks_delete', 'squids_delete', 'billing_auto_reset_set', 'runs_start']));
    const listed = (await (await connect(['--allow-writes=tasks_delete,runs_start'])).client.listTools()).tools.map((t) => t.name);
    expect(listed.filter((n) => !READ_TOOLS.includes(n)).sort()).toEqual(['runs_start', 'tasks_delete']);
  });

  it('--allow-writes with an unknown tool is exit 2 naming the allowed ones, before serving', async () => {
    const r = await execa(process.execPath, [BIN, 'mcp', '--allow-writes=runs_strat'], { env: serverEnv(), extendEnv: false, reject: false, input: '' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--allow-writes: unknown write tool "runs_strat"');
    expect(r.stderr).toContain('runs_start');
    expect(r.stdout).toBe('');
  });

  it('dry_run returns the planned request and sends nothing; without it the write is sent', async () => {
    const { client } = await connect(['--allow-writes']);
    await emu.clearRequests();
    const id = emu.squidId(DEMO_SQUIDS.paris);
    const plan = await call(client, 'squids_update', { squid: DEMO_SQUIDS.paris, concurrency: 3, params: { max_results: 50 }, dry_run: true });
    expect(plan.isError, plan.content[0]?.text).toBeFalsy();
    expect(plan.structuredContent).toMatchObject({ dry_run: true, requests: [{ method: 'POST', path: `/v1/squids/${id}`, body: { concurrency: 3, params: { max_results: 50 } } }] });
    expect(await emu.requests('POST')).toEqual([]);

    const added = await call(client, 'tasks_add', { squid: DEMO_SQUIDS.paris, values: ['https://www.google.com/maps/search/mcp+test'] });
    expect(added.isError).toBeFalsy();
    const posts = await emu.requests('POST');
    expect(posts.map((p) => p.path)).toEqual(['/v1/tasks']);
    expect(JSON.stringify(posts[0].body)).toContain('mcp+test');
  });

  it('with --allow-writes=all, a delete and the billing reset plan their requests too (the verb\'s --yes given by the server)', async () => {
    const { client } = await connect(['--allow-writes=all']);
    const runs = (await json(['runs', 'list', '--squid', DEMO_SQUIDS.paris])) as Array<{ id: string }>;
    const tasks = (await json(['tasks', 'list', '--squid', DEMO_SQUIDS.paris])) as Array<{ id: string }>;
    await emu.clearRequests();
    const billing = await call(client, 'billing_auto_reset_set', { enabled: true, threshold: 90, dry_run: true });
    expect(billing.isError, billing.content[0]?.text).toBeFalsy();
    expect(billing.structuredContent).toMatchObject({ dry_run: true, requests: [{ body: expect.objectContaining({ enabled: true, threshold_pct: 90 }) }] });
    const del = await call(client, 'tasks_delete', { task: tasks[0].id, dry_run: true });
    expect(del.structuredContent).toMatchObject({ dry_run: true, requests: [{ method: 'DELETE', path: expect.stringContaining(tasks[0].id) }] });
    const abort = await call(client, 'runs_abort', { run: runs[0].id, dry_run: true });
    expect(abort.isError, abort.content[0]?.text).toBeFalsy();
    expect(abort.structuredContent).toMatchObject({ dry_run: true, requests: [{ path: expect.stringContaining(runs[0].id) }] });
    expect((await emu.requests()).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('secrets are masked in tool results as on stdout', async () => {
    const token = 'Zq81kLmN0pQrStUvWxYz42';
    const set = await sq(['delivery', 'webhook', '--squid', DEMO_SQUIDS.paris, '--url', `https://ci.example.com/hook?token=${token}`], { env: emu.env() });
    expect(set.code).toBe(0);
    const { client } = await connect(['--allow-writes']);
    const shown = await call(client, 'delivery_show', { squid: DEMO_SQUIDS.paris });
    expect(shown.isError).toBeFalsy();
    // A webhook's URL in a record: scheme and host, the rest masked (issue 33, E3).
    expect(JSON.stringify(shown)).toContain('https://ci.example.com/********');
    expect(JSON.stringify(shown)).not.toContain(token);
    expect(shown.structuredContent).toEqual(await json(['delivery', 'show', '--squid', DEMO_SQUIDS.paris]));
    const planned = await call(client, 'delivery_webhook', { squid: DEMO_SQUIDS.paris, url: `https://ci.example.com/hook?token=${token}`, dry_run: true });
    expect(JSON.stringify(planned)).not.toContain(token);
    expect(JSON.stringify(planned)).toContain('https://ci.example.com/********');
  });

  it('resources: sq://squids/{id} and sq://runs/{id}, listed and read', async () => {
    const { client } = await connect();
    const { resources } = await client.listResources();
    const id = emu.squidId(DEMO_SQUIDS.paris);
    expect(resources).toContainEqual(expect.objectContaining({ uri: `sq://squids/${id}`, name: DEMO_SQUIDS.paris }));
    expect(resources.some((r) => r.uri.startsWith('sq://runs/'))).toBe(true);
    const squid = await client.readResource({ uri: `sq://squids/${id}` });
    expect(JSON.parse(textOf(squid.contents[0]))).toEqual(await json(['squids', 'get', id]));
    const run = resources.find((r) => r.uri.startsWith('sq://runs/'))!;
    const read = await client.readResource({ uri: run.uri });
    expect(JSON.parse(textOf(read.contents[0]))).toEqual(await json(['runs', 'get', run.uri.slice('sq://runs/'.length)]));
    await expect(client.readResource({ uri: 'sq://squids/nope' })).rejects.toThrow(/NOT_FOUND \(exit 3\)/);
  });
});

describe('sq mcp on the wire', () => {
  it('a malformed message gets a JSON-RPC error, the server stays up, and stdout holds protocol messages only', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp'], { env: serverEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    const lines = () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number }; result?: unknown; jsonrpc: string });
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
    };
    try {
      child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n');
      await until(() => lines().length >= 1);
      child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
      child.stdin.write('this is not json\n');
      child.stdin.write('{"hello":"world"}\n');
      // JSON with an id but no method: the error carries that id, or the client would wait for answer 7 forever.
      child.stdin.write('{"jsonrpc":"2.0","id":7}\n');
      child.stdin.write('{"id":"é-8","method":"tools/list"}\n');
      child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"balance","arguments":{}}}\n');
      await until(() => lines().some((l) => l.id === 2));
      const all = lines();
      expect(all.every((l) => l.jsonrpc === '2.0')).toBe(true);
      const errors = all.filter((l) => l.error).map((l) => [l.id, l.error!.code]);
      expect(errors).toHaveLength(4); // in any order: JSON-RPC answers need not follow the requests' order
      expect(errors).toEqual(expect.arrayContaining([[null, -32700], [null, -32600], [7, -32600], ['é-8', -32600]]));
      expect(all.find((l) => l.id === 2)?.result).toMatchObject({ structuredContent: { name: expect.any(String) } });
    } finally {
      child.stdin.end();
      await new Promise((r) => child.once('close', r));
    }
    expect(child.exitCode).toBe(0);
  });
});

describe('sq mcp with stdin closed at once', () => {
  it('answers every request it read before it ends (echo … | sq mcp), exit 0', async () => {
    const input = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'squids_get', arguments: { squid: DEMO_SQUIDS.paris } } },
    ];
    const r = await execa(process.execPath, [BIN, 'mcp', '--quiet'], { env: serverEnv(), extendEnv: false, reject: false, input: input.map((m) => JSON.stringify(m)).join('\n') + '\n' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const answers = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result: CallResult });
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1].result.structuredContent).toEqual(await json(['squids', 'get', DEMO_SQUIDS.paris]));
  });
});

describe('the MCP Inspector (CLI mode) against sq mcp', () => {
  // @modelcontextprotocol/inspector-cli 1.0.3 reads its own package.json at "../package.json" when that exists
  // relative to the working directory (else "../../package.json" relative to its module, which is wrong for this
  // package): it is run from test/, whose parent holds a package.json.
  const inspector = (args: string[]) =>
    execa(process.execPath, [resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol/inspector-cli/build/cli.js'), '--cli', ...Object.entries(serverEnv()).flatMap(([k, v]) => ['-e', `${k}=${v}`]), process.execPath, BIN, 'mcp', ...args], {
      cwd: resolve(import.meta.dirname, '..'),
      reject: false,
      timeout: 60_000,
    });

  it('lists the tools and calls one', async () => {
    const list = await inspector(['--method', 'tools/list']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
    const got = await inspector(['--method', 'tools/call', '--tool-name', 'squids_get', '--tool-arg', `squid=${DEMO_SQUIDS.headphones}`]);
    expect(got.exitCode, got.stderr).toBe(0);
    const result = JSON.parse(got.stdout) as CallResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await json(['squids', 'get', DEMO_SQUIDS.headphones]));
  });
});
