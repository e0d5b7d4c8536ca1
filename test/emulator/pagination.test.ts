import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_PLAN_WARNING } from '../../src/emulator/pagination.js';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';

let e: TestEmu;
let run: string;
beforeAll(async () => {
  e = await startTestEmulator();
  const gen = await e.ctl('POST', '/_emulator/generate', { squid: e.squidId('Paris restaurants'), results: 123 });
  expect(gen.status).toBe(200);
  run = gen.body.id;
});
afterAll(async () => {
  await e.close();
});

const page = (q: string) => e.api('GET', `/v1/results?run=${run}${q}`);

describe('pagination envelope', () => {
  it('page 1 with the default limit of 10', async () => {
    const r = await page('');
    expect(r.status).toBe(200);
    const { data, next, ...counters } = r.body;
    expect(counters).toEqual({
      total_results: 123,
      limit: 10,
      page: 1,
      total_pages: 13,
      result_from: 1,
      result_to: 10,
      previous: null,
    });
    expect(data).toHaveLength(10);
    const u = new URL(next);
    expect(u.origin).toBe(e.baseUrl);
    expect(u.pathname).toBe('/v1/results');
    expect(u.searchParams.get('page')).toBe('2');
    expect(u.searchParams.get('run')).toBe(run);
  });

  it('a middle page links both ways and holds the right records', async () => {
    const first = await page('&limit=100');
    const r = await page('&page=7&limit=10');
    expect(r.body.result_from).toBe(61);
    expect(r.body.result_to).toBe(70);
    expect(new URL(r.body.next).searchParams.get('page')).toBe('8');
    expect(new URL(r.body.previous).searchParams.get('page')).toBe('6');
    expect(r.body.data.map((x: { id: string }) => x.id)).toEqual(
      first.body.data.slice(60, 70).map((x: { id: string }) => x.id),
    );
  });

  it('the last page is short and has no next', async () => {
    const r = await page('&page=13');
    expect(r.body.data).toHaveLength(3);
    expect(r.body.result_from).toBe(121);
    expect(r.body.result_to).toBe(123);
    expect(r.body.next).toBeNull();
  });

  it('past the end: empty data, true counters', async () => {
    const r = await page('&page=20');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      total_results: 123,
      total_pages: 13,
      page: 20,
      result_from: 0,
      result_to: 0,
      data: [],
      next: null,
    });
  });

  it('accepts limit 1 and 100 and the legacy page_size', async () => {
    expect((await page('&limit=1')).body.data).toHaveLength(1);
    expect((await page('&limit=100')).body.data).toHaveLength(100);
    const legacy = await page('&page_size=25');
    expect(legacy.body.limit).toBe(25);
    expect(legacy.body.data).toHaveLength(25);
  });

  it.each(['limit=101', 'limit=0', 'limit=-5', 'limit=abc', 'limit=2.5', 'page=0', 'page=x'])(
    'rejects %s with 400',
    async (q) => {
      const r = await page(`&${q}`);
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe('validation_error');
      expect(r.body.error.param).toBe(q.split('=')[0]);
    },
  );

  it('uses {detail} for list endpoints of that family (accounts)', async () => {
    const r = await e.api('GET', '/v1/accounts?limit=500');
    expect(r.status).toBe(400);
    expect(typeof r.body.detail).toBe('string');
  });

  it('every list endpoint answers the envelope', async () => {
    const paris = e.squidId('Paris restaurants');
    for (const p of [
      '/v1/crawlers',
      '/v1/squids',
      `/v1/tasks?squid=${paris}`,
      `/v1/runs?squid=${paris}`,
      `/v1/runs/${run}/tasks`,
      `/v1/runtasks?run=${run}`,
      '/v1/accounts',
      '/v1/accounts/types',
      '/v1/account_types',
    ]) {
      const r = await e.api('GET', p);
      expect(r.status, p).toBe(200);
      // The list-tasks sample's envelope has no result_from/result_to.
      const range = p.startsWith('/v1/tasks') ? [] : ['result_from', 'result_to'];
      expect(Object.keys(r.body).sort(), p).toEqual(
        ['data', 'limit', 'next', 'page', 'previous', ...range, 'total_pages', 'total_results'].sort(),
      );
    }
  });
});

describe('free plan', () => {
  it('delivers at most 50 records, keeps the true total, warns on every page', async () => {
    expect((await e.ctl('POST', '/_emulator/config', { freePlan: true })).status).toBe(200);
    try {
      const big = await page('&limit=100');
      expect(big.body.total_results).toBe(123);
      expect(big.body.data).toHaveLength(50);
      expect(big.body.result_to).toBe(50);
      expect(big.body.next).toBeNull();
      expect(big.body.warning).toBe(FREE_PLAN_WARNING);
      expect(FREE_PLAN_WARNING).toBe(
        'Free plan: only 50 results returned. Upgrade at https://app.lobstr.io/dashboard/pricing',
      );
      const p5 = await page('&page=5');
      expect(p5.body.data).toHaveLength(10);
      expect(p5.body.result_from).toBe(41);
      expect(p5.body.next).toBeNull();
      expect(p5.body.warning).toBe(FREE_PLAN_WARNING);
      const p6 = await page('&page=6');
      expect(p6.body.data).toEqual([]);
      expect(p6.body.warning).toBe(FREE_PLAN_WARNING);
      const p2 = await page('&page=2');
      expect(new URL(p2.body.next).searchParams.get('page')).toBe('3');
      const small = await e.api('GET', '/v1/squids');
      expect(small.body.warning).toBeUndefined();
    } finally {
      await e.ctl('POST', '/_emulator/config', { freePlan: false });
    }
  });

  it('can be set at start', async () => {
    const f = await startTestEmulator({ freePlan: true });
    try {
      const gen = await f.ctl('POST', '/_emulator/generate', { squid: f.squidId('Lyon bakeries'), results: 60 });
      const r = await f.api('GET', `/v1/results?run=${gen.body.id}&limit=100`);
      expect(r.body.data).toHaveLength(50);
      expect(r.body.total_results).toBe(60);
      expect(r.body.warning).toBe(FREE_PLAN_WARNING);
    } finally {
      await f.close();
    }
  });
});
