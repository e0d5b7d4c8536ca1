// sq mcp does what the CLI does for a squid's settings and delivery tests: squids_update schedules, activates and links
// accounts with the CLI's checks and money rules; delivery_test takes every kind `sq delivery test` takes; an argument
// these tools do not know is an error naming the allowed ones, never dropped. The servers run in this process
// (test/helpers/mcp-client.ts): what they answer is the point, not the process.
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { unusedPort } from '../helpers/net.js';

const emu = useEmulator({ each: 'reset' });
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Answer = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, any> };

async function agent(args: string[], env: Record<string, string> = {}) {
  const client = await connectMcp(args, { ...emu.env(), ...env }, 'sq-test', 'in-process');
  clients.push(client);
  return {
    call: async (name: string, a: Record<string, unknown>): Promise<Answer> =>
      (await client.callTool({ name, arguments: a })) as Answer,
  };
}

/** The text of a refused call, whether the SDK refused it (-32602) or the tool did. */
async function refusal(p: Promise<Answer>): Promise<string> {
  try {
    const r = await p;
    expect(r.isError, r.content[0]?.text).toBe(true);
    return r.content[0].text;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('squids_update', () => {
  it('a schedule on an active squid: needs_confirmation with the estimate above --confirm-above, nothing written; confirm: true writes it', async () => {
    const a = await agent(['--allow-writes', '--confirm-above', '0']);
    const id = emu.squidId('Paris restaurants');
    await emu.clearRequests();
    const ask = await a.call('squids_update', { squid: id, schedule: '0 9 * * 1', timezone: 'Europe/Paris' });
    expect(ask.isError, ask.content[0].text).toBeFalsy();
    expect(ask.structuredContent).toMatchObject({
      needs_confirmation: true,
      estimate: { total_credits: expect.any(Number) },
    });
    expect(ask.structuredContent?.message).toContain('nothing was written');
    expect((await emu.requests('POST')).filter((r) => r.path.startsWith('/v1/squids/'))).toEqual([]);

    emu.expectWrites('POST /v1/squids/*');
    const done = await a.call('squids_update', {
      squid: id,
      schedule: '0 9 * * 1',
      timezone: 'Europe/Paris',
      confirm: true,
      run_notify: 'on_error',
      export_unique_results: true,
    });
    expect(done.isError, done.content[0].text).toBeFalsy();
    const s = await emu.api(`/v1/squids/${id}`);
    expect(JSON.stringify(s.schedule)).toContain('0 9 * * 1');
    expect(s.export_unique_results).toBe(true);
    expect(s.notifications_params.run_notify).toBe('on_error');
  });

  it("the CLI's cap applies (exit 9, nothing written), and its checks: a bad cron is exit 2 naming the argument", async () => {
    const a = await agent(['--allow-writes'], { SQ_MAX_CREDITS: '0.0001' });
    const id = emu.squidId('Paris restaurants');
    const over = await refusal(a.call('squids_update', { squid: id, schedule: '0 9 * * 1', confirm: true }));
    expect(over).toMatch(/exit 9|over budget|above/i);
    const bad = await refusal(a.call('squids_update', { squid: id, schedule: 'every monday', confirm: true }));
    expect(bad).toMatch(/exit 2/);
    expect(bad).toContain('schedule');
    expect((await emu.requests('POST')).filter((r) => r.path.startsWith('/v1/squids/'))).toEqual([]);
  });

  it('active: false, and add_accounts / remove_accounts keep the other links', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const a = await agent(['--allow-writes']);
    const id = emu.squidId('Tech influencers');
    const off = await a.call('squids_update', { squid: id, active: false });
    expect(off.isError, off.content[0].text).toBeFalsy();
    expect((await emu.api(`/v1/squids/${id}`)).is_active).toBe(false);
    const linked = async () =>
      ((await emu.api('/v1/accounts')).data as { username: string; squids?: { hash_value?: string; id?: string }[] }[])
        .filter((x) => x.squids?.some((q) => (q.hash_value ?? q.id) === id))
        .map((x) => x.username);
    const before = await linked();
    const add = await a.call('squids_update', { squid: id, add_accounts: ['demo_scraper'] });
    expect(add.isError, add.content[0].text).toBeFalsy();
    expect((await linked()).sort()).toEqual([...new Set([...before, 'demo_scraper'])].sort());
    const remove = await a.call('squids_update', { squid: id, remove_accounts: ['demo_scraper'] });
    expect(remove.isError, remove.content[0].text).toBeFalsy();
    expect(await linked()).toEqual(before.filter((u) => u !== 'demo_scraper'));
  });

  it('an argument it does not know is an error naming the allowed ones; nothing is sent', async () => {
    const a = await agent(['--allow-writes']);
    const text = await refusal(
      a.call('squids_update', { squid: emu.squidId('Paris restaurants'), frequency: 'daily' }),
    );
    expect(text).toContain('squids_update: unknown argument "frequency"');
    expect(text).toContain('schedule');
    expect(text).toContain('timezone');
    expect(await emu.requests('POST')).toEqual([]);
  });
});

describe('delivery_test', () => {
  it('takes sftp as sq delivery test does: the password from an allowed variable, the outcome as the CLI says it', async () => {
    const a = await agent(['--allow-writes', '--secret-env', 'SFTP_PASSWORD'], { SFTP_PASSWORD: 'mcp-Secret-11' });
    emu.expectWrites('POST /v1/delivery/test-sftp');
    const port = await unusedPort();
    const r = await a.call('delivery_test', {
      kind: 'sftp',
      host: '127.0.0.1',
      port,
      username: 'deploy',
      directory: '/upload',
      password_env: 'SFTP_PASSWORD',
    });
    // Nobody listens there: the service's test fails, with the CLI's causes; the password never shows.
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toContain('Common causes');
    expect(r.content[0].text).not.toContain('mcp-Secret-11');
    const sent = (await emu.requests('POST')).filter((q) => q.path === '/v1/delivery/test-sftp');
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatchObject({ host: '127.0.0.1', port, username: 'deploy', directory: '/upload' });
  });

  it('a variable --secret-env does not allow is refused naming the flag; an unknown argument names the allowed ones', async () => {
    const a = await agent(['--allow-writes'], { SFTP_PASSWORD: 'x' });
    const env = await refusal(
      a.call('delivery_test', {
        kind: 'sftp',
        host: 'h',
        username: 'u',
        directory: '/d',
        password_env: 'SFTP_PASSWORD',
      }),
    );
    expect(env).toContain('--secret-env SFTP_PASSWORD');
    const unknown = await refusal(a.call('delivery_test', { kind: 'sftp', hostname: 'h' }));
    expect(unknown).toContain('delivery_test: unknown argument "hostname"');
    expect(unknown).toContain('password_env');
    expect(await emu.requests('POST')).toEqual([]);
  });
});
