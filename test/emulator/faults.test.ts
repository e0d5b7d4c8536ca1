import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

// A fresh emulator for each test.
const e = useEmulator({ each: 'new' });

const put = (rules: unknown[], seed?: number) =>
  e.ctl('PUT', '/_emulator/faults', seed === undefined ? { rules } : { seed, rules });

/** Raw HTTP, to see exactly what arrived before the connection ended. */
function rawGet(
  url: string,
  token: string,
): Promise<{ status?: number; length?: number; received: number; error?: string }> {
  return new Promise((resolve) => {
    const out: { status?: number; length?: number; received: number; error?: string } = { received: 0 };
    const req = request(url, { headers: { Authorization: `Token ${token}` } }, (res) => {
      out.status = res.statusCode;
      out.length = Number(res.headers['content-length']);
      res.on('data', (c: Buffer) => (out.received += c.length));
      res.on('end', () => resolve(out));
      res.on('error', (err) => resolve({ ...out, error: err.message }));
      res.on('aborted', () => resolve({ ...out, error: 'aborted' }));
      res.on('close', () => resolve(out));
    });
    req.on('error', (err) => resolve({ ...out, error: err.message }));
    req.end();
  });
}

describe('faults', () => {
  it('status: answers the given status with the documented default body, count-limited, then normal', async () => {
    const set = await put([{ path: '/v1/me', action: 'status', status: 503, count: 1 }]);
    expect(set.status).toBe(200);
    const r = await e.api('GET', '/v1/me');
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ detail: 'A server error occurred.' });
    expect((await e.api('GET', '/v1/me')).status).toBe(200);
    const listed = (await e.ctl('GET', '/_emulator/faults')).body;
    expect(listed.rules[0]).toMatchObject({ action: 'status', count: 1, remaining: 0 });
  });

  it('status: custom headers and body, method filter; 429 default shape with Retry-After', async () => {
    await put([
      { method: 'POST', path: '/v1/runs', action: 'status', status: 429, headers: { 'Retry-After': '3' } },
      { path: '/v1/squids', action: 'status', status: 500, body: { detail: 'boom' } },
    ]);
    const r = await e.api('POST', '/v1/runs', { squid: e.squidId('Paris restaurants') });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('3');
    expect(r.body).toMatchObject({ type: 'RateLimitExceeded', code: 429 });
    expect(Object.keys(e.emu.state.runs).length).toBe(5);
    expect((await e.api('GET', `/v1/runs?squid=${e.squidId('Paris restaurants')}`)).status).toBe(200);
    expect((await e.api('GET', '/v1/squids')).body).toEqual({ detail: 'boom' });
  });

  it('fault rules are checked before auth and never apply to the control plane', async () => {
    await put([{ action: 'status', status: 502 }]);
    expect((await e.ctl('GET', '/v1/me')).status).toBe(502);
    expect((await e.ctl('GET', '/_emulator/clock')).status).toBe(200);
    expect((await e.ctl('DELETE', '/_emulator/faults')).body.rules).toEqual([]);
    expect((await e.api('GET', '/v1/me')).status).toBe(200);
  });

  it('delay waits at least ms real time, then answers normally', async () => {
    await put([{ path: '/v1/me', action: 'delay', ms: 300 }]);
    const t0 = Date.now();
    const r = await e.api('GET', '/v1/me');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(r.status).toBe(200);
  });

  it('hang never answers', async () => {
    await put([{ path: '/v1/me', action: 'hang', count: 1 }]);
    await expect(
      fetch(`${e.baseUrl}/v1/me`, { headers: { Authorization: `Token ${e.token}` }, signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow();
    expect((await e.api('GET', '/v1/me')).status).toBe(200);
  });

  it('reset drops the connection before the handler runs: nothing is created', async () => {
    await put([{ method: 'POST', path: '/v1/squids', action: 'reset', count: 1 }]);
    const before = Object.keys(e.emu.state.squids).length;
    await expect(
      e.api('POST', '/v1/squids', { crawler: Object.keys(e.emu.state.crawlers)[0], name: 'Never' }),
    ).rejects.toThrow();
    expect(Object.keys(e.emu.state.squids).length).toBe(before);
  });

  it('reset_mid_body runs the handler (the run starts) then cuts the body', async () => {
    await put([{ method: 'POST', path: '/v1/runs', action: 'reset_mid_body', count: 1 }]);
    const squid = e.squidId('Amazon headphones');
    await expect(e.api('POST', '/v1/runs', { squid })).rejects.toThrow();
    const runs = (await e.api('GET', `/v1/runs?squid=${squid}`)).body.data;
    expect(runs[0].status).toBe('pending');
  });

  it('truncate announces the full Content-Length and sends half', async () => {
    await put([{ path: '/v1/squids', action: 'truncate', count: 1 }]);
    const r = await rawGet(`${e.baseUrl}/v1/squids`, e.token);
    expect(r.status).toBe(200);
    expect(r.length).toBeGreaterThan(100);
    expect(r.received).toBeLessThan(r.length as number);
    expect(r.received).toBeGreaterThan(0);
  });

  it('malformed answers 200 with a body that is not JSON', async () => {
    await put([{ path: '/v1/squids', action: 'malformed', count: 1 }]);
    const r = await e.api('GET', '/v1/squids');
    expect(r.status).toBe(200);
    expect(() => JSON.parse(r.text)).toThrow();
  });

  it('html answers an HTML error page (502 by default)', async () => {
    await put([{ path: '/v1/me', action: 'html', count: 1 }]);
    const r = await e.api('GET', '/v1/me');
    expect(r.status).toBe(502);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.text).toMatch(/<html>.*502 Bad Gateway/s);
  });

  it('short_page answers the real page with half its data and every counter unchanged', async () => {
    const full = (await e.api('GET', '/v1/squids?limit=4')).body;
    expect(full.data).toHaveLength(4);
    await put([{ path: '/v1/squids', action: 'short_page', count: 1 }]);
    const r = await e.api('GET', '/v1/squids?limit=4');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...full, data: full.data.slice(0, 2) });
    expect((await e.api('GET', '/v1/squids?limit=4')).body).toEqual(full);
  });

  it('short_page leaves the last page (no next link) whole', async () => {
    const last = (await e.api('GET', '/v1/squids?limit=100')).body;
    expect(last.next).toBeNull();
    await put([{ path: '/v1/squids', action: 'short_page', count: 1 }]);
    expect((await e.api('GET', '/v1/squids?limit=100')).body).toEqual(last);
  });

  it('omit_fields answers the real record, and each record of a page, without the named fields', async () => {
    const squid = (await e.api('GET', '/v1/squids?limit=100')).body.data.find(
      (q: { name: string }) => q.name === DEMO_SQUIDS.paris,
    ).id;
    const page = (await e.api('GET', `/v1/runs?squid=${squid}&limit=3`)).body;
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((r: Record<string, unknown>) => 'created_at' in r && 'started_at' in r)).toBe(true);
    await put([{ path: '/v1/runs', action: 'omit_fields', fields: ['created_at', 'started_at'], count: 2 }]);
    const cut = (await e.api('GET', `/v1/runs?squid=${squid}&limit=3`)).body;
    const drop = ({ created_at: _c, started_at: _s, ...rest }: Record<string, unknown>) => rest;
    expect(cut).toEqual({ ...page, data: page.data.map(drop) });
    const one = (await e.api('GET', `/v1/runs/${page.data[0].id}`)).body;
    expect(one.id).toBe(page.data[0].id);
    expect('created_at' in one || 'started_at' in one).toBe(false);
    // Count spent: the next answer is whole again.
    expect((await e.api('GET', `/v1/runs?squid=${squid}&limit=3`)).body).toEqual(page);
  });

  it.each([[{}], [null], [{ data: null }], [{ detail: 'Not found.' }]])(
    'status 200 with body %j sends exactly that body',
    async (body) => {
      await put([{ path: '/v1/squids', action: 'status', status: 200, body, count: 1 }]);
      const r = await e.api('GET', '/v1/squids');
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text)).toEqual(body);
    },
  );

  it('probability draws from a seeded PRNG: the same seed gives the same sequence', async () => {
    const pattern = async (): Promise<number[]> => {
      await put([{ path: '/v1/me', action: 'status', status: 503, probability: 0.5 }], 42);
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await e.api('GET', '/v1/me')).status);
      return out;
    };
    const a = await pattern();
    const b = await pattern();
    expect(a).toEqual(b);
    expect(a).toContain(503);
    expect(a).toContain(200);
  });

  it('rejects invalid rules', async () => {
    expect((await put([{ action: 'explode' }])).status).toBe(400);
    expect((await put([{ action: 'status', probability: 2 }])).status).toBe(400);
    expect((await put([{ action: 'omit_fields' }])).status).toBe(400);
    expect((await put([{ action: 'omit_fields', fields: [] }])).status).toBe(400);
    expect((await put([{ action: 'status', fields: ['id'] }])).status).toBe(400);
    expect((await e.ctl('PUT', '/_emulator/faults', { rules: 'x' })).status).toBe(400);
  });
});
