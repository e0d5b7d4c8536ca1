// The three jobs an agent is given (issue 48), scripted through the MCP SDK's own Client against sq mcp and the
// emulator: (1) find a crawler, estimate, run and read; (2) schedule a squid and link an account; (3) deliver a run
// over SFTP to a real SFTP server (ssh2's). Each uses only arguments the tools' descriptions give, and no call is a
// tool error. What the tools answer is the point, not the process: the server runs in this process
// (test/helpers/mcp-client.ts); test/e2e/mcp.test.ts runs a whole session against the built binary.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { startSftpServer, type SftpServer } from '../helpers/sftp-server.js';
import { waitFor } from '../helpers/wait.js';

let emu: TestEmulator;
let sftp: SftpServer;
let client: Client | undefined;

beforeAll(async () => {
  [emu, sftp] = await Promise.all([startTestEmulator(), startSftpServer()]);
}, 60_000);
afterAll(async () => {
  await emu?.close();
  await sftp?.close();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
});

type Tool = { name: string; description?: string; inputSchema: { properties?: Record<string, unknown> } };

/** An agent: each call checked against the tool's own input schema (no argument it does not describe), errors counted. */
async function agent(args: string[], env: Record<string, string> = {}) {
  client = await connectMcp(args, { ...emu.env(), ...env }, 'sq-agent-tasks', 'in-process');
  const tools = new Map(((await client.listTools()).tools as Tool[]).map((t) => [t.name, t]));
  const errors: string[] = [];
  const call = async (name: string, a: Record<string, unknown> = {}): Promise<Record<string, any>> => {
    const tool = tools.get(name);
    expect(tool, `${name} is served`).toBeDefined();
    for (const k of Object.keys(a))
      expect(Object.keys(tool!.inputSchema.properties ?? {}), `${name} describes "${k}"`).toContain(k);
    const r = (await client!.callTool({ name, arguments: a })) as {
      isError?: boolean;
      content: { text: string }[];
      structuredContent?: Record<string, any>;
    };
    if (r.isError) errors.push(`${name}: ${r.content[0]?.text}`);
    return r.structuredContent ?? {};
  };
  return { tools, call, errors };
}

it('1. find a crawler by a nickname, read its inputs, estimate, run a multi-field task and read the results', async () => {
  emu.expectWrites('POST /v1/squids', 'POST /v1/squids/*', 'POST /v1/tasks', 'POST /v1/runs');
  const a = await agent(['--allow-writes', '--confirm-above', '0']);
  const found = await a.call('crawlers_search', { query: 'gmaps search' });
  expect(found.exact).toBe(true);
  const crawler = found.items.find((c: { slug: string }) => c.slug === 'google-maps-search-export');
  expect(crawler).toBeDefined();

  const got = await a.call('crawlers_get', { crawler: crawler.slug });
  // One of two task groups: a URL, or a parameter task of several fields; each input with its level and wire name.
  expect(got.task_inputs.map((g: { one_of: string }) => g.one_of)).toEqual(['url', 'params']);
  const params = got.task_inputs[1].inputs as { name: string; wire: string; level: string; description?: string }[];
  expect(params.map((i) => i.wire)).toEqual(expect.arrayContaining(['city', 'country', 'category']));
  for (const group of got.task_inputs)
    expect(new Set(group.inputs.map((i: { wire: string }) => i.wire)).size).toBe(group.inputs.length);
  expect(got.squid_params.every((i: { level: string }) => i.level === 'squid')).toBe(true);
  expect(got.functions.every((i: { wire: string }) => i.wire.startsWith('functions.'))).toBe(true);
  // Descriptions whole (they were cut at ~100 characters).
  expect([...params, ...got.squid_params].every((i: { description?: string }) => !i.description?.endsWith('…'))).toBe(
    true,
  );

  const task = { city: 'Paris', country: 'France', category: 'pizza' };
  const go = { crawler: crawler.slug, tasks: [task], params: { max_results: 5 }, idempotency_key: 'job-1' };
  const asked = await a.call('go', go);
  expect(asked.needs_confirmation).toBe(true);
  expect(asked.estimate.total_credits).toBeGreaterThan(0);
  const started = await a.call('go', { ...go, confirm: true });
  const run = started.run.id as string;
  const tasks = await a.call('tasks_list', { squid: started.squid, type: 'params' });
  expect(tasks.items).toHaveLength(1);
  expect(tasks.items[0].params).toMatchObject(task);

  // A wait above 50 s is capped with a note, not refused (the run is over by then on the emulator's clock).
  await emu.advance(3_600_000);
  const waited = await a.call('runs_wait', { run, wait_seconds: 500 });
  expect(waited.note).toMatch(/capped at 50/);
  expect(waited.status).toBe('done');
  const rows = await a.call('results_list', { run, fields: ['name'], limit: 5 });
  expect(rows.items.length).toBeGreaterThan(0);
  expect(a.errors).toEqual([]);
}, 90_000);

it('2. schedule a LinkedIn squid and link its account', async () => {
  emu.expectWrites('POST /v1/squids', 'POST /v1/squids/*');
  const a = await agent(['--allow-writes=all']);
  const found = await a.call('crawlers_search', { query: 'linkedin' });
  expect(found.items.length).toBeGreaterThan(0);
  const crawler = found.items.find((c: { name: string }) => /Sales Navigator/.test(c.name));
  expect(crawler).toBeDefined();
  expect(crawler.account_type).toBeDefined();
  const squid = await a.call('squids_create', { crawler: crawler.slug, name: 'Weekly CTO leads' });
  const accounts = await a.call('accounts_list', {});
  const account = accounts.items.find((x: { type?: string }) => x.type === crawler.account_type);
  expect(account).toBeDefined();
  const linked = await a.call('squids_attach_account', { squid: squid.id, account: account.id });
  expect(JSON.stringify(linked.accounts)).toContain(account.id);
  // A schedule starts charged runs: the first call asks, and the agent confirms once the user said yes.
  const document = 'squids:\n  "Weekly CTO leads":\n    schedule: { cron: "0 9 * * 1", timezone: Europe/Paris }\n';
  const asked = await a.call('apply', { document });
  expect(asked.needs_confirmation).toBe(true);
  expect(JSON.stringify(asked.starts_runs)).toContain('Mondays at 09:00 Europe/Paris');
  const applied = await a.call('apply', { document, confirm: true });
  expect(JSON.stringify(applied)).toMatch(/schedule|update/);
  const shown = await a.call('squids_get', { squid: squid.id });
  expect(JSON.stringify(shown)).toMatch(/0 9 \* \* 1/);
  expect(a.errors).toEqual([]);
}, 90_000);

it('3. deliver over SFTP: the tool says it applies to later runs, so the agent sets it and runs again', async () => {
  emu.expectWrites(/^POST \/v1\/delivery/, 'POST /v1/runs');
  const a = await agent(['--allow-writes', '--confirm-above', '100000', '--secret-env', 'SFTP_PASSWORD'], {
    SFTP_PASSWORD: sftp.password,
  });
  expect(a.tools.get('delivery_sftp')!.description).toMatch(/runs that END AFTER it is set/);
  expect(a.tools.get('results_url')!.description).toMatch(/hand over a run that has finished/);
  const squids = await a.call('squids_list', { name: 'Paris restaurants' });
  const squid = squids.items[0].id as string;
  const last = await a.call('runs_list', { squid, limit: 1 });
  expect(last.items[0].id).toBeDefined();
  const url = await a.call('results_url', { run: last.items[0].id });
  expect(url.url).toMatch(/^http/);
  const set = await a.call('delivery_sftp', {
    squid,
    host: sftp.host,
    port: sftp.port,
    username: sftp.username,
    directory: sftp.directory,
    password_env: 'SFTP_PASSWORD',
  });
  expect(set.delivery_host).toBe(`${sftp.host}:${sftp.port}`);
  const started = await a.call('runs_start', { squid });
  const run = started.id as string;
  expect(run).toBeDefined();
  const uploads = await waitFor(
    async () => {
      await emu.advance(60_000);
      return (await emu.control('GET', `/_emulator/deliveries?kind=sftp&run=${run}`)) as { error: string | null }[];
    },
    (u) => u.length > 0,
    'the SFTP upload of the new run',
  );
  expect(uploads[0].error).toBeNull();
  const { readdirSync } = await import('node:fs');
  expect(readdirSync(sftp.directory).some((f) => f.includes(run))).toBe(true);
  expect(a.errors).toEqual([]);
}, 90_000);

it('go links the account it is given, and replace_tasks swaps the tasks of the squid its key made', async () => {
  emu.expectWrites(/^(POST|DELETE) /);
  const a = await agent(['--allow-writes', '--confirm-above', '0']);
  const accounts = await a.call('accounts_list', {});
  const account = accounts.items.find((x: { type?: string }) => x.type === 'sales-nav-sync');
  // A squid parameter of the crawler, as crawlers_get describes it (update-settings example: max_pages).
  const got = await a.call('crawlers_get', { crawler: 'sales-navigator-leads-scraper' });
  expect(got.squid_params.find((p: { wire: string }) => p.wire === 'max_pages')).toMatchObject({ level: 'squid' });
  const go = {
    crawler: 'sales-navigator-leads-scraper',
    params: { max_pages: 2 },
    account: account.username,
    idempotency_key: 'leads-1',
  };
  // Above --confirm-above: the squid is made with its account and task, nothing is started.
  const first = await a.call('go', { ...go, tasks: ['https://www.linkedin.com/sales/search/people?query=cto'] });
  expect(first.needs_confirmation).toBe(true);
  const squid = first.squid as string;
  // The account lists the squids it is linked to.
  expect(JSON.stringify(await a.call('accounts_get', { account: account.id }))).toContain(squid);
  // The agent changes the task before confirming: the squid's tasks are swapped, then the run starts.
  const ran = await a.call('go', {
    ...go,
    tasks: ['https://www.linkedin.com/sales/search/people?query=cfo'],
    replace_tasks: true,
    confirm: true,
  });
  expect(a.errors).toEqual([]);
  expect(ran.run?.id, JSON.stringify(ran)).toBeDefined();
  expect(ran.squid).toBe(squid);
  expect((await emu.api(`/v1/squids/${squid}`)).params.max_pages).toBe(2);
  const tasks = await a.call('tasks_list', { squid });
  expect(tasks.items.map((t: { params?: { url?: string } }) => t.params?.url)).toEqual([
    'https://www.linkedin.com/sales/search/people?query=cfo',
  ]);
  expect(a.errors).toEqual([]);
}, 90_000);
