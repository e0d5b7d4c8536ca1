// `sq mcp` over stdio (the MCP SDK's client) against the emulator: an idempotency_key outlives the server (a restarted
// `sq mcp` given the same key finds the squid go made and the run it started: one POST /v1/squids and one POST
// /v1/runs in the request log), and list tools follow what the API says about more pages (next, total_pages), never
// the length of the page they got. The servers run in this process (test/helpers/mcp-client.ts), each a run of its
// own that keeps its keys where the binary does (the cache directory), ~0.3 s of CPU less each than a process that
// loads the MCP SDK; the first server of the first test is the built binary, whose keys the next one finds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { useEmulator } from '../helpers/emulator.js';
import { BIN, tempConfigDir } from '../helpers/cli.js';
import { mcpInProcess, newClient } from '../helpers/mcp-client.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const clients: Client[] = [];
const fileClients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await Promise.all(fileClients.splice(0).map((c) => c.close()));
});

/** One profile and one cache directory, shared by the servers a test starts one after another. */
function sharedEnv(): Record<string, string> {
  const cache = mkdtempSync(join(tmpdir(), 'sq-mcp-keys-'));
  dirs.push(cache);
  return {
    PATH: process.env.PATH ?? '',
    SQ_CONFIG_DIR: tempConfigDir(),
    SQ_CACHE_DIR: cache,
    NO_COLOR: '1',
    ...emu.env(),
  };
}

type Answer = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, any> };

/**
 * A server on stdio, in this process unless `how` is 'bin'; `stop()` ends it as a restart of the agent's host would
 * (its stdin closed), and resolves once it has ended.
 */
async function server(
  env: Record<string, string>,
  args: string[],
  closeAfter: 'test' | 'file' = 'test',
  how: 'in-process' | 'bin' = 'in-process',
) {
  let client: Client;
  if (how === 'in-process') client = (await mcpInProcess(args, env, 'sq-keys-test')).client;
  else {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', ...args],
      env,
      stderr: 'pipe',
    });
    client = newClient('sq-keys-test');
    await client.connect(transport);
  }
  (closeAfter === 'test' ? clients : fileClients).push(client);
  return {
    async ok(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
      const r = (await client.callTool({ name, arguments: args })) as Answer;
      expect(r.isError, `${name}: ${r.content[0]?.text}`).toBeFalsy();
      return r.structuredContent!;
    },
    stop: () => client.close(),
  };
}

const posted = async (path: string) => (await emu.requests('POST')).filter((r) => r.path === path).length;

describe('idempotency_key outlives sq mcp', () => {
  const go = {
    crawler: 'google-maps-search-export',
    tasks: ['https://www.google.com/maps/search/bakery+lyon'],
    params: { max_results: 5 },
  };

  it('go: a restarted server given the same key answers the same squid and run, and starts nothing more', async () => {
    const env = sharedEnv();
    const first = await server(env, ['--allow-writes', '--confirm-above', '100000'], 'test', 'bin');
    const a = await first.ok('go', { ...go, idempotency_key: 'agent-7' });
    expect(a.run.id).toEqual(expect.any(String));
    await first.stop();
    const second = await server(env, ['--allow-writes', '--confirm-above', '100000']);
    const b = await second.ok('go', { ...go, idempotency_key: 'agent-7' });
    expect(b.squid).toBe(a.squid);
    expect(b.run.id).toBe(a.run.id);
    expect(await posted('/v1/squids')).toBe(1);
    expect(await posted('/v1/runs')).toBe(1);
    // Another key is another job.
    const c = await second.ok('go', { ...go, name: 'another job', idempotency_key: 'agent-8' });
    expect(c.run.id).not.toBe(a.run.id);
    expect(await posted('/v1/runs')).toBe(2);
  });

  it('go: a restart between needs_confirmation and the confirmed call reuses the squid made first', async () => {
    const env = sharedEnv();
    const first = await server(env, ['--allow-writes', '--confirm-above', '0']);
    const asked = await first.ok('go', { ...go, idempotency_key: 'ask-1' });
    expect(asked.needs_confirmation).toBe(true);
    await first.stop();
    const second = await server(env, ['--allow-writes', '--confirm-above', '0']);
    const ran = await second.ok('go', { ...go, idempotency_key: 'ask-1', confirm: true });
    expect(ran.squid).toBe(asked.squid);
    expect(await posted('/v1/squids')).toBe(1);
    expect(await posted('/v1/runs')).toBe(1);
  });

  it('go: a kept squid that was deleted since is made again (its runs went with it)', async () => {
    const env = sharedEnv();
    const first = await server(env, ['--allow-writes', '--confirm-above', '100000']);
    const a = await first.ok('go', { ...go, idempotency_key: 'gone-1' });
    await first.stop();
    await emu.api(`/v1/squids/${a.squid}`, { method: 'DELETE' });
    const second = await server(env, ['--allow-writes', '--confirm-above', '100000']);
    const b = await second.ok('go', { ...go, name: 'made again', idempotency_key: 'gone-1' });
    expect(b.squid).not.toBe(a.squid);
    expect(b.run.id).not.toBe(a.run.id);
    // One squid and one run each time: the second server made again what was gone, nothing more.
    expect(await posted('/v1/squids')).toBe(2);
    expect(await posted('/v1/runs')).toBe(2);
  });

  it('runs_start: the same key after a restart is the same run', async () => {
    const env = sharedEnv();
    const first = await server(env, ['--allow-writes', '--confirm-above', '100000']);
    const a = await first.ok('runs_start', { squid: DEMO_SQUIDS.paris, idempotency_key: 'nightly-1' });
    await first.stop();
    const second = await server(env, ['--allow-writes', '--confirm-above', '100000']);
    const b = await second.ok('runs_start', { squid: DEMO_SQUIDS.paris, idempotency_key: 'nightly-1' });
    expect(b.id).toBe(a.id);
    expect(await posted('/v1/runs')).toBe(1);
  });
});

describe('list tools follow the API about more pages (api-reference §2: next, total_pages)', () => {
  // One server for both (a process start with the MCP SDK is the costly part): each test sets its own faults, and
  // the emulator is reset before each.
  let agent: Awaited<ReturnType<typeof server>>;
  beforeAll(async () => {
    agent = await server(sharedEnv(), [], 'file');
  });

  it('a short page whose next link says more: the rows it has, and a next_cursor that reads on', async () => {
    const all = (await emu.api('/v1/squids?limit=100')).data as { id: string }[];
    expect(all.length).toBeGreaterThanOrEqual(4);
    // The API answers page 1 (limit 2) with one row, and says more follow (its next link, total_pages).
    await emu.faults([
      {
        method: 'GET',
        path: '/v1/squids',
        action: 'status',
        status: 200,
        count: 1,
        body: {
          total_results: all.length,
          limit: 2,
          page: 1,
          total_pages: Math.ceil(all.length / 2),
          next: 'http://127.0.0.1/v1/squids?page=2&limit=2',
          data: all.slice(0, 1),
        },
      },
    ]);
    const first = await agent.ok('squids_list', { limit: 2, fields: ['id'] });
    expect(first.items.map((s: { id: string }) => s.id)).toEqual([all[0].id]);
    expect(typeof first.next_cursor).toBe('string');
    const second = await agent.ok('squids_list', { cursor: first.next_cursor, fields: ['id'] });
    expect(second.items.map((s: { id: string }) => s.id)).toEqual(all.slice(2, 4).map((s) => s.id));
  });

  it('a full page the API says is the last (next: null, total_pages 1): no next_cursor', async () => {
    await emu.faults([
      { method: 'GET', path: '/v1/squids', action: 'envelope', count: 1, body: { next: null, total_pages: 1 } },
    ]);
    const page = await agent.ok('squids_list', { limit: 2 });
    expect(page.items).toHaveLength(2);
    expect(page).not.toHaveProperty('next_cursor');
  });
});

describe('a card charge the API leaves unknown asks (needs_confirmation)', () => {
  it('runs_start under --confirm-above, the auto-reset settings without max_resets_per_24h: needs_confirmation naming it, nothing started', async () => {
    await emu.faults([
      {
        method: 'GET',
        path: '/v1/plans/auto-reset',
        action: 'status',
        status: 200,
        body: { enabled: true, threshold_pct: 80, resets_used_in_window: 0, current_usage_pct: 25 },
      },
    ]);
    const agent = await server(sharedEnv(), ['--allow-writes', '--confirm-above', '100000']);
    const r = await agent.ok('runs_start', { squid: DEMO_SQUIDS.headphones });
    expect(r.needs_confirmation).toBe(true);
    expect(r.message).toMatch(
      /whether it sets off an Auto Billing Reset \(a card charge\) is unknown: the API's settings left out max_resets_per_24h/,
    );
    expect(r.estimate.auto_reset_unknown).toEqual(['max_resets_per_24h']);
    expect(await posted('/v1/runs')).toBe(0);
  });
});
