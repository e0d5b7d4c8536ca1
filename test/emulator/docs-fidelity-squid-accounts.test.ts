// Emulator fidelity items of issue 32, each with the docs page it follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlerId } from '../../src/emulator/crawlers.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';

let e: TestEmu;
beforeAll(async () => {
  e = await startTestEmulator();
});
afterAll(async () => {
  await e.close();
});

describe('update-squid page + SDK 0.7: a field the update does not take is refused, not dropped', () => {
  it.each([['chain'], ['auto_verify_emails'], ['nmae']])(
    '%s → 400 naming it and the allowed fields; nothing changes',
    async (field) => {
      const id = e.squidId(DEMO_SQUIDS.paris);
      const r = await e.api('POST', `/v1/squids/${id}`, { name: 'Renamed', [field]: true });
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe(field);
      expect(r.body.error.message).toContain('allowed: name, is_active, concurrency');
      expect((await e.api('GET', `/v1/squids/${id}`)).body.name).toBe(DEMO_SQUIDS.paris);
    },
  );
});

describe("update-squid page + api-changelog (the vendor's clients): a params update replaces the params", () => {
  it("a key left out goes back to the crawler's default; functions sent are the whole map, left out their defaults", async () => {
    const id = e.squidId(DEMO_SQUIDS.paris);
    const set = await e.api('POST', `/v1/squids/${id}`, {
      params: { ratings: '4.5+', max_results: 50, functions: { fetch_business_images: true } },
    });
    expect(set.status).toBe(200);
    expect(set.body.params).toMatchObject({
      ratings: '4.5+',
      max_results: 50,
      functions: { fetch_business_images: true },
    });
    const r = await e.api('POST', `/v1/squids/${id}`, { params: { max_results: 10 } });
    expect(r.status).toBe(200);
    const live = (await e.api('GET', `/v1/squids/${id}`)).body.params;
    expect(live.max_results).toBe(10);
    expect(live.ratings).toBe('Any rating');
    // The crawler's defaults (e-mail extraction is on by default), not what the squid had (the seed turned it off).
    expect(live.functions).toEqual({
      collect_business_details: false,
      fetch_business_images: false,
      extract_emails_from_website: true,
    });
  });

  // Google Maps' `language` is required (get-crawler-parameters); each params update is a replace, readiness follows it.
  it('readiness follows every params update: a required param sent null makes the squid not ready, left out its default', async () => {
    const id = (await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.googleMaps, name: 'replace-readiness' }))
      .body.id;
    await e.api('POST', `/v1/squids/${id}`, { params: { language: 'Français (France)' } });
    expect((await e.api('GET', `/v1/squids/${id}`)).body.is_ready).toBe(true);
    await e.api('POST', `/v1/squids/${id}`, { params: { language: null, max_results: 5 } });
    expect((await e.api('GET', `/v1/squids/${id}`)).body.is_ready).toBe(false);
    // Left out, it is not the value set before but the crawler's default: the squid is ready again.
    await e.api('POST', `/v1/squids/${id}`, { params: { max_results: 5 } });
    expect((await e.api('GET', `/v1/squids/${id}`)).body).toMatchObject({
      is_ready: true,
      params: { language: 'English (United States)' },
    });
  });
});

describe('link-account-to-squid page: linking accounts alone answers {name, concurrency, accounts}', () => {
  it("the sample's keys", async () => {
    const id = e.squidId(DEMO_SQUIDS.influencers);
    const account = (await e.api('GET', '/v1/accounts?type=twitter-sync')).body.data[0].id;
    const r = await e.api('POST', `/v1/squids/${id}`, { accounts: [account] });
    expect(r.body).toEqual({ name: DEMO_SQUIDS.influencers, concurrency: expect.any(Number), accounts: [account] });
  });
});

describe('list-accounts page: the type and status filters', () => {
  it('?type= keeps that type, ?status= that status', async () => {
    const all = (await e.api('GET', '/v1/accounts')).body.data as { type: string; status: string }[];
    expect(new Set(all.map((a) => a.type)).size).toBeGreaterThan(1);
    const sn = (await e.api('GET', '/v1/accounts?type=sales-nav-sync')).body;
    expect(sn.data.length).toBeGreaterThan(0);
    expect(sn.data.every((a: { type: string }) => a.type === 'sales-nav-sync')).toBe(true);
    expect(sn.total_results).toBe(sn.data.length);
    expect((await e.api('GET', '/v1/accounts?status=401')).body.data).toEqual([]);
    expect((await e.api('GET', '/v1/accounts?status=200')).body.data).toHaveLength(all.length);
  });
});

describe('examples/twitter-profile-scraper and examples/sales-navigator-leads-scraper: their params', () => {
  it("a Twitter task by screen_name, the squid's json; Sales Navigator's profiles_per_page, max_pages, email_enrichment", async () => {
    const tw = (await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.twitter })).body.id;
    expect(
      (await e.api('POST', '/v1/tasks', { squid: tw, tasks: [{ screen_name: 'elonmusk' }] })).body.tasks[0].params,
    ).toEqual({ screen_name: 'elonmusk' });
    // Twitter User Tweets' page sends {screen_name} and shows {username}: the alias is stored as the param's name.
    const tweets = (await e.api('POST', '/v1/squids', { crawler: crawlerId('twitter-user-tweets-scraper') })).body.id;
    const added = await e.api('POST', '/v1/tasks', { squid: tweets, tasks: [{ screen_name: 'nasa' }] });
    expect(added.body.tasks[0].params).toEqual({ username: 'nasa' });
    const again = await e.api('POST', '/v1/tasks', { squid: tweets, tasks: [{ username: 'nasa' }] });
    expect(again.body.duplicated_count).toBe(1);
    expect((await e.api('POST', `/v1/squids/${tw}`, { params: { json: true } })).status).toBe(201);
    expect((await e.api('POST', `/v1/squids/${tw}`, { params: { json: 'yes' } })).status).toBe(400);
    const sn = (await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.salesNav })).body.id;
    const r = await e.api('POST', `/v1/squids/${sn}`, {
      params: { functions: { email_enrichment: true }, profiles_per_page: 25, max_pages: 100, max_results: null },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.params).toMatchObject({
      profiles_per_page: 25,
      max_pages: 100,
      functions: { email_enrichment: true },
    });
  });

  it("the quick starts' slug google-maps-leads-scraper is a crawler (examples/google-maps-leads-scraper)", async () => {
    const list = (await e.api('GET', '/v1/crawlers?limit=100')).body.data as { slug: string }[];
    expect(list.map((c) => c.slug)).toContain('google-maps-leads-scraper');
  });
});
