// Shapes and rules taken from the vendor's public docs samples (api-reference §4, §7, §8, §9, §11, §13, §15).
import { describe, expect, it } from 'vitest';
import { crawlerId } from '../../src/emulator/crawlers.js';
import { RUN_TIMING } from '../../src/emulator/engine.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { useEmulator } from '../helpers/emulator.js';
import type { J } from '../helpers/json.js';

// A fresh emulator for each test.
const e = useEmulator({ each: 'new' });

const HEX32 = /^[0-9a-f]{32}$/;

/** Runs the squid's run to its end on the virtual clock. */
async function finish(run: string): Promise<J> {
  for (let i = 0; i < 50; i++) {
    const r = (await e.api('GET', `/v1/runs/${run}`)).body;
    if (r.status === 'done' || r.status === 'error' || r.status === 'aborted') return r;
    await e.advance(10 * RUN_TIMING.taskMs);
  }
  throw new Error(`run ${run} did not finish`);
}

async function salesNavSquid(params?: J): Promise<string> {
  const id = (await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.salesNav, name: 'Leads' })).body.id;
  await e.api('POST', '/v1/tasks', {
    squid: id,
    tasks: [{ url: 'https://www.linkedin.com/sales/search/people?query=cto' }],
  });
  if (params) expect((await e.api('POST', `/v1/squids/${id}`, { params })).status).toBe(201);
  return id;
}

describe('squid chains', () => {
  it('GET answers 200 null without a chain; POST validates, creates (201) and refuses a second (409)', async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    const none = await e.api('GET', `/v1/squids/${paris}/chain`);
    expect(none.status).toBe(200);
    expect(none.text).toBe('null');

    expect(await e.api('POST', `/v1/squids/${paris}/chain`, { target_module_id: DEMO_CRAWLERS.amazon })).toMatchObject({
      status: 400,
      body: { error: 'field_map is required and must be a dict.' },
    });
    expect(
      (await e.api('POST', `/v1/squids/${paris}/chain`, { target_module_id: 'nope', field_map: { url: 'url' } }))
        .status,
    ).toBe(404);
    expect(
      (
        await e.api('POST', `/v1/squids/${paris}/chain`, {
          target_module_id: DEMO_CRAWLERS.amazon,
          field_map: { url: 'url' },
          cluster_concurrency: 99,
        })
      ).status,
    ).toBe(400);

    const c = await e.api('POST', `/v1/squids/${paris}/chain`, {
      target_module_id: DEMO_CRAWLERS.amazon,
      field_map: { website: 'url' },
    });
    expect(c.status).toBe(201);
    expect(c.body).toEqual({
      id: expect.stringMatching(HEX32),
      target_module: {
        id: DEMO_CRAWLERS.amazon,
        public_name: 'Amazon Products Scraper',
        name: 'amazon-products',
        max_concurrency: 20,
      },
      target_cluster: null,
      field_map: { website: 'url' },
      is_active: true,
      autostart: true,
      cluster_name: null,
      cluster_concurrency: 1,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect((await e.api('GET', `/v1/squids/${paris}/chain`)).body).toEqual(c.body);
    expect((await e.api('GET', `/v1/squids/${paris}`)).body.chain).toEqual(c.body);
    expect(
      await e.api('POST', `/v1/squids/${paris}/chain`, {
        target_module_id: DEMO_CRAWLERS.amazon,
        field_map: { url: 'url' },
      }),
    ).toMatchObject({
      status: 409,
      body: { error: 'This squid already has a chain configured.' },
    });
  });

  it('PATCH updates the settings; DELETE answers 204 with no body; both are 404 {error} once there is no chain', async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    await e.api('POST', `/v1/squids/${paris}/chain`, {
      target_module_id: DEMO_CRAWLERS.amazon,
      field_map: { url: 'url' },
    });
    const p = await e.api('PATCH', `/v1/squids/${paris}/chain`, {
      autostart: false,
      cluster_name: 'Downstream',
      cluster_concurrency: 3,
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ autostart: false, cluster_name: 'Downstream', cluster_concurrency: 3 });
    expect((await e.api('PATCH', `/v1/squids/${paris}/chain`, { autostart: 'yes' })).status).toBe(400);

    const d = await e.api('DELETE', `/v1/squids/${paris}/chain`);
    expect(d.status).toBe(204);
    expect(d.text).toBe('');
    expect((await e.api('GET', `/v1/squids/${paris}/chain`)).text).toBe('null');
    for (const m of ['PATCH', 'DELETE']) {
      expect(
        await e.api(m, `/v1/squids/${paris}/chain`, m === 'PATCH' ? { autostart: true } : undefined),
      ).toMatchObject({
        status: 404,
        body: { error: 'No chain configured on this squid.' },
      });
    }
  });

  it('a done run feeds the chain: the target squid is created, results become its tasks, a run starts with origin "chain"', async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    await e.api('POST', `/v1/squids/${paris}/chain`, {
      target_module_id: DEMO_CRAWLERS.googleMaps,
      field_map: { name: 'category' },
      cluster_concurrency: 2,
    });
    const run = (await e.api('POST', '/v1/runs', { squid: paris })).body.id;
    const done = await finish(run);
    expect(done.status).toBe('done');

    const chain = (await e.api('GET', `/v1/squids/${paris}/chain`)).body;
    expect(chain.target_cluster).toMatchObject({ name: 'Google Maps Search Export (1) (chained)' });
    const target = chain.target_cluster.id;
    expect(chain.target_cluster.hash_value).toBe(target);
    expect((await e.api('GET', `/v1/squids/${target}`)).body).toMatchObject({ concurrency: 2 });
    const names = new Set((await e.api('GET', `/v1/results?run=${run}&limit=100`)).body.data.map((r: J) => r.name));
    const tasks = (await e.api('GET', `/v1/tasks?squid=${target}&type=params&limit=100`)).body.data.map(
      (t: J) => t.params,
    );
    expect(tasks).toHaveLength(names.size);
    expect(new Set(tasks.map((t: J) => t.category))).toEqual(names);
    const runs = (await e.api('GET', `/v1/runs?squid=${target}`)).body.data;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ origin: 'chain' });
  });

  it('with autostart off the downstream run is created paused; a run ending in error feeds nothing', async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    await e.api('POST', `/v1/squids/${paris}/chain`, {
      target_module_id: DEMO_CRAWLERS.googleMaps,
      field_map: { name: 'category' },
      autostart: false,
    });
    await finish((await e.api('POST', '/v1/runs', { squid: paris })).body.id);
    const target = (await e.api('GET', `/v1/squids/${paris}/chain`)).body.target_cluster.id;
    const runs = (await e.api('GET', `/v1/runs?squid=${target}`)).body.data;
    expect(runs.map((r: J) => [r.status, r.origin])).toEqual([['paused', 'chain']]);

    const jobs = e.squidId(DEMO_SQUIDS.jobs);
    await e.api('POST', `/v1/squids/${jobs}/chain`, {
      target_module_id: DEMO_CRAWLERS.amazon,
      field_map: { url: 'url' },
    });
    expect((await finish((await e.api('POST', '/v1/runs', { squid: jobs })).body.id)).status).toBe('error');
    expect((await e.api('GET', `/v1/squids/${jobs}/chain`)).body.target_cluster).toBeNull();
  });

  it('a chain holds at most 3 squids: the link that would make a fourth is refused with 422', async () => {
    const link = (squid: string) =>
      e.api('POST', `/v1/squids/${squid}/chain`, {
        target_module_id: DEMO_CRAWLERS.googleMaps,
        field_map: { name: 'category' },
      });
    let squid = e.squidId(DEMO_SQUIDS.paris);
    let run = (await e.api('POST', '/v1/runs', { squid })).body.id;
    // Paris → 1st target → 2nd target: three squids.
    for (let depth = 1; depth <= 2; depth++) {
      expect((await link(squid)).status).toBe(201);
      await finish(run);
      squid = (await e.api('GET', `/v1/squids/${squid}/chain`)).body.target_cluster.id;
      run = (await e.api('GET', `/v1/runs?squid=${squid}`)).body.data[0].id;
    }
    expect(await link(squid)).toMatchObject({ status: 422, body: { error: 'Chain depth limit of 3 reached.' } });
  });
});

describe('squid readiness and params', () => {
  // get-crawler-parameters marks the Google Maps Search Export's `language` required (its default set on a new squid).
  it('a squid whose crawler has a required param without a value is not ready: POST /v1/runs answers SquidNotReady', async () => {
    const id = (await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.googleMaps, name: 'Places' })).body.id;
    await e.api('POST', '/v1/tasks', { squid: id, tasks: [{ url: 'https://www.google.com/maps/search/bakery+lyon' }] });
    expect((await e.api('POST', `/v1/squids/${id}`, { params: { language: null } })).status).toBe(200);
    expect((await e.api('GET', `/v1/squids/${id}`)).body).toMatchObject({
      is_ready: false,
      params: { language: null },
    });
    const r = await e.api('POST', '/v1/runs', { squid: id });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'validation_error', param: 'squid' });
    expect(r.body.error.message).toContain('SquidNotReady');
    expect(r.body.error.message).toContain('required parameters (language)');

    expect((await e.api('POST', `/v1/squids/${id}`, { params: { language: 'Français (France)' } })).status).toBe(200);
    expect((await e.api('GET', `/v1/squids/${id}`)).body.is_ready).toBe(true);
    expect((await e.api('POST', '/v1/runs', { squid: id })).status).toBe(200);
  });

  it.each([
    [
      DEMO_CRAWLERS.googleMaps,
      { ratings: '5.0+' },
      'params.ratings must be one of "Any rating", "2.0+", "2.5+", "3.0+", "3.5+", "4.0+", "4.5+" (InvalidParameterValue).',
    ],
    [
      DEMO_CRAWLERS.salesNav,
      { profiles_per_page: 50 },
      'params.profiles_per_page must be one of 25 (InvalidParameterValue).',
    ],
    [DEMO_CRAWLERS.amazon, { max_results: 'ten' }, 'params.max_results must be an integer (InvalidParamType).'],
  ])('squid params are checked against the crawler: %s %j', async (crawler, params, message) => {
    const id = (await e.api('POST', '/v1/squids', { crawler })).body.id;
    const r = await e.api('POST', `/v1/squids/${id}`, { params });
    expect(r).toMatchObject({ status: 400, body: { error: { message, param: 'params' } } });
    // A param the crawler does not define is refused, naming the allowed ones; nothing is stored.
    const unknown = await e.api('POST', `/v1/squids/${id}`, { params: { zip: '01234', max_results: 5 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^Unknown parameter "zip" for this crawler; allowed: .*max_results/);
    expect((await e.api('GET', `/v1/squids/${id}`)).body.params.zip).toBeUndefined();
  });

  // Each crawler answers its updates in its one update page's form and status (docs/emulator.md, "The update's answer").
  it("the update answers in its crawler's form: the settings record (update-squid's), an echo, the whole squid", async () => {
    const lyon = e.squidId(DEMO_SQUIDS.lyon);
    const settings = await e.api('POST', `/v1/squids/${lyon}`, { is_active: false, timezone: 'Europe/Paris' });
    expect(settings.status).toBe(200);
    expect(Object.keys(settings.body)).toEqual([
      'name',
      'no_line_breaks',
      'is_active',
      'params',
      'to_complete',
      'export_unique_results',
    ]);
    expect(settings.body).toMatchObject({ is_active: false, to_complete: false });
    const made = async (crawler: string) =>
      (await e.api('POST', '/v1/squids', { crawler, name: crawler })).body.id as string;
    const amazon = await made(DEMO_CRAWLERS.amazon);
    const echo = await e.api('POST', `/v1/squids/${amazon}`, {
      to_complete: true,
      run_notify: 'on_success',
      timezone: 'Europe/Paris',
      export_unique_results: true,
    });
    expect(echo.status).toBe(201);
    expect(echo.body).toEqual({ to_complete: true, run_notify: 'on_success', export_unique_results: true });
    const tiktok = await made(crawlerId('tiktok-video-scraper'));
    const whole = await e.api('POST', `/v1/squids/${tiktok}`, { name: 'TikTok videos' });
    expect(whole.status).toBe(201);
    expect(whole.body).toMatchObject({ id: tiktok, name: 'TikTok videos', status: 'idle', concurrency: 1 });
    expect(whole.body.crawler).toEqual({
      id: crawlerId('tiktok-video-scraper'),
      name: 'TikTok Video Scraper',
      slug: 'tiktok-video-scraper',
    });
  });
});

describe('documented shapes', () => {
  it('a finished run\'s stats give eta "∞"', async () => {
    const run = (await e.api('POST', '/v1/runs', { squid: e.squidId(DEMO_SQUIDS.paris) })).body.id;
    await finish(run);
    expect((await e.api('GET', `/v1/runs/${run}/stats`)).body).toMatchObject({
      is_done: true,
      percent_done: '100%',
      eta: '∞',
    });
  });

  it('credit_used is fractional when a rate is (a 0.5-credit function), without float noise', async () => {
    const id = await salesNavSquid({ functions: { email_enrichment: true } });
    const done = await finish((await e.api('POST', '/v1/runs', { squid: id })).body.id);
    expect(done.status).toBe('done');
    expect(done.credit_used).toBe(done.total_results * 3.5);
    expect(Number.isInteger(done.credit_used)).toBe(false);
    expect((await e.api('GET', `/v1/runs/${done.id}/credits`)).body.breakdown).toContainEqual({
      function: 'email_enrichment',
      credits: done.total_results * 0.5,
      attempts: 1,
    });
  });

  it('timestamps take each endpoint\'s sampled form whatever created the run: list/start "…Z", get naive µs', async () => {
    const Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
    const US = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/;
    const paris = e.squidId(DEMO_SQUIDS.paris);
    const seeded = (await e.api('GET', `/v1/runs?squid=${paris}`)).body.data;
    for (const r of seeded) for (const k of ['created_at', 'started_at', 'ended_at']) expect(r[k]).toMatch(Z);
    for (const k of ['created_at', 'started_at', 'ended_at'])
      expect((await e.api('GET', `/v1/runs/${seeded[0].id}`)).body[k]).toMatch(US);
    const fresh = (await e.api('POST', '/v1/runs', { squid: paris })).body;
    expect(fresh.created_at).toMatch(Z);
    expect((await e.api('GET', `/v1/runs/${fresh.id}`)).body.created_at).toMatch(US);
    const listed = (await e.api('GET', `/v1/runs?squid=${paris}`)).body.data[0];
    expect(listed.created_at).toMatch(Z);
    const rts = (await e.api('GET', `/v1/runtasks?run=${seeded[0].id}`)).body.data;
    for (const k of ['started_at', 'ended_at']) expect(rts[0][k]).toMatch(Z);
    const ids = (await e.api('GET', `/v1/runs?squid=${paris}`)).body.data.map((r: J) => r.id);
    expect(ids).toEqual([fresh.id, ...seeded.map((r: J) => r.id)]);
  });

  it('upload and sync task ids are 32-hex', async () => {
    const f = new FormData();
    f.set('squid', e.squidId(DEMO_SQUIDS.lyon));
    f.set('file', new Blob(['url\nhttps://www.google.com/maps/search/bakery+lyon\n']), 'tasks.csv');
    expect((await e.api('POST', '/v1/tasks/upload', f)).body.id).toMatch(HEX32);
    expect(
      (await e.api('POST', '/v1/synchronize', { type: 'twitter-sync', cookies: { auth_token: 'a', ct0: 'b' } })).body
        .id,
    ).toMatch(HEX32);
  });

  it('Sales Navigator accounts take a batch of up to 20; Twitter accounts have no limits to set (as sampled)', async () => {
    const accounts = (await e.api('GET', '/v1/accounts')).body.data as J[];
    const salesNav = accounts.find((a) => a.type === 'sales-nav-sync')!;
    const twitter = accounts.find((a) => a.type === 'twitter-sync')!;
    expect(salesNav.params.default.batch.max).toBe(20);
    const set = (a: J, batch: number) =>
      e.api('POST', '/v1/accounts', { account: a.id, type: a.type, params: { batch } });
    const ok = await set(salesNav, 20);
    expect(ok.status).toBe(200);
    expect(ok.body.params.user.batch.max).toBe(20);
    expect((await set(salesNav, 21)).status).toBe(400);
    expect(twitter.params).toEqual({ default: {}, user: {} });
    expect((await set(twitter, 1)).body).toEqual({
      detail: 'Unknown limit "batch": twitter-sync accounts have no limits.',
    });
  });
});
