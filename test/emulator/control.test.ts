import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CRAWLERS } from '../../src/emulator/seed.js';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';

let e: TestEmu;
beforeAll(async () => {
  e = await startTestEmulator();
});
afterAll(async () => {
  await e.close();
});

describe('control plane', () => {
  it('clock: GET shows the virtual time; advance moves it and answers the clock', async () => {
    const c = (await e.ctl('GET', '/_emulator/clock')).body;
    expect(c.mode).toBe('virtual');
    expect(new Date(c.now).getTime()).toBe(c.now_ms);
    const a = await e.advance(5000);
    expect(a.status).toBe(200);
    expect(a.body.now_ms).toBe(c.now_ms + 5000);
    expect((await e.ctl('POST', '/_emulator/clock/advance', { ms: -1 })).status).toBe(400);
  });

  it('advance is refused on a real clock', async () => {
    const real = await startTestEmulator({ clock: 'real' });
    try {
      expect((await real.ctl('GET', '/_emulator/clock')).body.mode).toBe('real');
      const r = await real.advance(1000);
      expect(r.status).toBe(400);
      expect(r.body.detail).toMatch(/real/);
    } finally {
      await real.close();
    }
  });

  it('request log: newest last, key cut to its last 4, secret-named fields masked at any depth', async () => {
    await e.ctl('DELETE', '/_emulator/requests');
    await e.api('POST', '/v1/synchronize?api_key=abc123', {
      type: 'twitter-sync',
      cookies: { auth_token: 'SECRET1', ct0: 'SECRET2' },
    });
    await e.api('POST', '/v1/squids', {
      crawler: DEMO_CRAWLERS.amazon,
      name: 'Logged',
      nested: { password: 'hunter2', ok: 'visible' },
    });
    await e.ctl('GET', '/_emulator/clock');
    const log = (await e.ctl('GET', '/_emulator/requests')).body;
    expect(log).toHaveLength(2);
    const [sync, squid] = log;
    expect(sync).toMatchObject({ method: 'POST', path: '/v1/synchronize', status: 200, query: { api_key: '****' } });
    expect(sync.headers.authorization).toBe('Token ****oken');
    expect(sync.body).toEqual({ type: 'twitter-sync', cookies: '****' });
    expect(squid.body.nested).toEqual({ password: '****', ok: 'visible' });
    expect(squid.id).toBeGreaterThan(sync.id);
    expect(typeof squid.at).toBe('string');
    expect(JSON.stringify(log)).not.toMatch(/SECRET1|hunter2|sq_emulator_demo_token/);
    expect((await e.ctl('DELETE', '/_emulator/requests')).status).toBe(200);
    expect((await e.ctl('GET', '/_emulator/requests')).body).toEqual([]);
  });

  it('request log: a short key is not shown at all; signed-URL credentials in the query are masked', async () => {
    await e.ctl('DELETE', '/_emulator/requests');
    await e.api('GET', '/v1/me', undefined, { Authorization: 'Token abc' });
    await e.api('GET', '/v1/me?Signature=SIG-SECRET-1&key=KEY-SECRET-2&X-Amz-Credential=CRED-3&page=2');
    const [short, signed] = (await e.ctl('GET', '/_emulator/requests')).body;
    expect(short.headers.authorization).toBe('Token ****');
    expect(signed.query).toEqual({ Signature: '****', key: '****', 'X-Amz-Credential': '****', page: '2' });
  });

  it('generate creates a done, exported run with that many results, quickly pageable', async () => {
    const squid = e.squidId('Amazon headphones');
    const g = await e.ctl('POST', '/_emulator/generate', { squid, results: 100_000 });
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ status: 'done', export_done: true, is_done: true, total_results: 100_000, squid });
    const last = await e.api('GET', `/v1/results?run=${g.body.id}&limit=100&page=1000`);
    expect(last.body).toMatchObject({
      total_results: 100_000,
      total_pages: 1000,
      result_from: 99_901,
      result_to: 100_000,
      next: null,
    });
    expect(last.body.data).toHaveLength(100);
    expect((await e.ctl('POST', '/_emulator/generate', { squid: 'nope', results: 1 })).status).toBe(404);
    expect((await e.ctl('POST', '/_emulator/generate', { squid, results: -1 })).status).toBe(400);
  });

  it('reset: back to the start seed (same ids), faults and logs cleared', async () => {
    const before = (await e.api('GET', '/v1/squids?limit=100')).body.data.map((s: { id: string }) => s.id);
    await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.amazon, name: 'Temporary' });
    await e.ctl('PUT', '/_emulator/faults', { rules: [{ path: '/v1/crawlers', action: 'status', status: 500 }] });
    const r = await e.ctl('POST', '/_emulator/reset');
    expect(r.status).toBe(200);
    const after = (await e.api('GET', '/v1/squids?limit=100')).body.data.map((s: { id: string }) => s.id);
    expect(after).toEqual(before.filter((id: string) => e.emu.state.squids[id]));
    expect(after).toHaveLength(6);
    expect((await e.ctl('GET', '/_emulator/faults')).body.rules).toEqual([]);
    expect((await e.ctl('GET', '/_emulator/requests')).body).toHaveLength(1);
    expect((await e.api('GET', '/v1/crawlers')).status).toBe(200);
  });

  it('the same seed gives the same ids and rows in two emulators', async () => {
    const other = await startTestEmulator();
    try {
      const key = async (x: TestEmu) => {
        const squids = (await x.api('GET', '/v1/squids')).body.data.map((s: { id: string; name: string }) => [
          s.id,
          s.name,
        ]);
        const rows = (
          await x.api('GET', `/v1/results?squid=${x.squidId('Paris restaurants')}&limit=100`)
        ).body.data.map(({ scraping_time: _t, ...rest }: Record<string, unknown>) => rest);
        return { squids, rows };
      };
      await e.ctl('POST', '/_emulator/reset');
      expect(await key(other)).toEqual(await key(e));
    } finally {
      await other.close();
    }
  });

  it('feature routes are registered and reachable without auth (/_emulator/outbox)', async () => {
    const r = await e.ctl('GET', '/_emulator/outbox');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
  });
});
