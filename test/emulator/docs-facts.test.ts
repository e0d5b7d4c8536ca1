// One test per emulator fact of issue 21 part 2 not covered elsewhere: numbers and nulls as sampled (item 4) and
// strictness (item 7). Delivery objects: delivery.test.ts; cookies: resources.test.ts; timestamps, chain depth and
// unknown params: fidelity.test.ts; every sample's key sets and types: docs-samples.test.ts.
import { describe, expect, it } from 'vitest';
import { RUN_TIMING } from '../../src/emulator/engine.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS, newAccount } from '../../src/emulator/seed.js';
import type { EmuCore } from '../../src/emulator/emu.js';
import { useEmulator } from '../helpers/emulator.js';
import type { J } from '../helpers/json.js';

// A fresh emulator for each test.
const e = useEmulator({ each: 'new' });

async function finish(run: string): Promise<J> {
  for (let i = 0; i < 50; i++) {
    const r = (await e.api('GET', `/v1/runs/${run}`)).body;
    if (['done', 'error', 'aborted'].includes(r.status)) return r;
    await e.advance(10 * RUN_TIMING.taskMs);
  }
  throw new Error(`run ${run} did not finish`);
}

const decimals = (n: number) => (String(n).split('.')[1] ?? '').length;

describe('numbers and nulls as sampled (item 4)', () => {
  it('a new run: duration 0, export_done null, email_done null; get-run: email_done false', async () => {
    const start = await e.api('POST', '/v1/runs', { squid: e.squidId(DEMO_SQUIDS.paris) });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ duration: 0, credit_used: 0, export_done: null, email_done: null });
    expect((await e.api('GET', `/v1/runs/${start.body.id}`)).body.email_done).toBe(false);
  });

  it("credit_used and duration are floats of at most 4 decimals in lists; a done run's stats have total_requests null", async () => {
    const squid = e.squidId(DEMO_SQUIDS.paris);
    const run = (await e.api('POST', '/v1/runs', { squid })).body.id;
    await e.advance(RUN_TIMING.startMs + 1234.5678);
    await finish(run);
    const listed = (await e.api('GET', `/v1/runs?squid=${squid}`)).body.data.find((r: J) => r.id === run);
    expect(typeof listed.duration).toBe('number');
    expect(listed.duration).toBeGreaterThan(0);
    expect(decimals(listed.duration)).toBeLessThanOrEqual(4);
    expect(typeof listed.credit_used).toBe('number');
    expect(decimals(listed.credit_used)).toBeLessThanOrEqual(4);
    expect((await e.api('GET', `/v1/runs/${run}/stats`)).body).toMatchObject({ is_done: true, total_requests: null });
  });

  it('an aborted run has done_reason "aborted" and done_reason_desc null', async () => {
    const run = (await e.api('POST', '/v1/runs', { squid: e.squidId(DEMO_SQUIDS.headphones) })).body.id;
    const aborted = await e.api('POST', `/v1/runs/${run}/abort`);
    expect(aborted.body).toMatchObject({ done_reason: 'aborted', done_reason_desc: null, is_done: true });
    expect((await finish(run)).done_reason_desc).toBeNull();
  });
});

describe('the live vocabulary (item 5, Sales Navigator account limits)', () => {
  it("sales-nav-sync has the sampled limits and cookies, and the docs' limit update works unchanged", async () => {
    const types = (await e.api('GET', '/v1/account_types')).body.data as J[];
    const salesNav = types.find((t) => t.name === 'sales-nav-sync')!;
    expect(Object.keys(salesNav.params)).toEqual(['batch', 'profiles', 'searches', 'batch_hours']);
    expect(salesNav.params.profiles).toEqual({
      max: 150,
      default: 150,
      description: 'Maximum number of profile requests per day',
    });
    expect(salesNav.cookies.map((c: J) => c.name)).toEqual(['li_at', 'JSESSIONID', 'li_a']);
    // A healthy account, as the sample's (the demo one is at its daily profiles limit: 150 spent).
    const account = newAccount(e.emu as EmuCore, 'sales-nav-sync', 'fresh.login@acme.test', e.emu.clock.now());
    const r = await e.api('POST', '/v1/accounts', {
      account: account.id,
      type: 'sales-nav-sync',
      params: { batch: 10, profiles: 100, searches: 150, batch_hours: 1 },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.params.user)).toEqual(['batch', 'profiles', 'searches', 'batch_hours']);
    expect(r.body.params.user.profiles).toMatchObject({ max: 100, value: 0, default: 150, start_time: null });
    expect((await e.api('POST', '/v1/accounts', { account: account.id, params: { profiles: 151 } })).status).toBe(400);
  });
});

describe('strict where the live API is strict (item 7)', () => {
  it('a body without Content-Type: application/json is not read as JSON', async () => {
    const squid = e.squidId(DEMO_SQUIDS.paris);
    const body = JSON.stringify({ squid });
    for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded']) {
      const res = await fetch(`${e.baseUrl}/v1/runs`, {
        method: 'POST',
        body,
        headers: { Authorization: `Token ${e.token}`, ...(type ? { 'Content-Type': type } : {}) },
      });
      expect(res.status, String(type)).toBe(400);
      expect(((await res.json()) as J).error).toMatchObject({ message: 'squid is required.', param: 'squid' });
    }
    expect((await e.api('POST', '/v1/runs', { squid })).status).toBe(200);
  });

  it('a squid whose params were never set is not ready (SquidNotReady), even when all its params are optional', async () => {
    const squid = (await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.amazon, name: 'Fresh' })).body.id;
    await e.api('POST', '/v1/tasks', { squid, tasks: [{ url: 'https://www.amazon.com/s?k=kettle' }] });
    expect((await e.api('GET', `/v1/squids/${squid}`)).body.is_ready).toBe(false);
    const refused = await e.api('POST', '/v1/runs', { squid });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('SquidNotReady');
    expect(refused.body.error.message).toContain('before its first run, even when all are optional');
    // Another update leaves it not ready; setting the params (even none) makes it ready.
    await e.api('POST', `/v1/squids/${squid}`, { name: 'Fresh 2' });
    expect((await e.api('GET', `/v1/squids/${squid}`)).body.is_ready).toBe(false);
    expect((await e.api('POST', `/v1/squids/${squid}`, { params: {} })).status).toBe(201);
    expect((await e.api('GET', `/v1/squids/${squid}`)).body.is_ready).toBe(true);
    expect((await e.api('POST', '/v1/runs', { squid })).status).toBe(200);
  });

  it('seeded squids are ready', async () => {
    const list = (await e.api('GET', '/v1/squids?limit=100')).body.data as J[];
    expect(list.filter((s) => s.is_ready !== true)).toEqual([]);
  });
});
