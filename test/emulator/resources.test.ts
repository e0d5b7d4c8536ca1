import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';
import type { J } from '../helpers/json.js';

let e: TestEmu;
beforeAll(async () => {
  e = await startTestEmulator();
});
afterAll(async () => {
  await e.close();
});

describe('user and crawlers', () => {
  it('/me and /user/balance have the documented fields', async () => {
    const me = (await e.api('GET', '/v1/me')).body;
    expect(Object.keys(me).sort()).toEqual([
      'credit_interval',
      'email',
      'email_verified',
      'first_name',
      'is_staff',
      'last_name',
      'login_count',
      'plan',
      'profile_image',
    ]);
    const b = (await e.api('GET', '/v1/user/balance')).body;
    expect(b).toMatchObject({
      object: 'plan',
      available: 10000,
      consumed: 2500,
      interval: 'monthly',
      has_unpaid_bill: false,
    });
    expect(b.reset_time).toMatch(/Z$/);
  });

  it('crawler list, detail with input/result, keyed params with functions, attributes', async () => {
    const list = (await e.api('GET', '/v1/crawlers')).body.data;
    expect(list.map((c: { slug: string }) => c.slug)).toContain('google-maps-search-export');
    expect(list[0].input).toBeUndefined();
    const id = DEMO_CRAWLERS.googleMaps;
    const d = (await e.api('GET', `/v1/crawlers/${id}`)).body;
    expect(d).toMatchObject({
      id: '4734d096159ef05210e0e1677e8be823',
      object: 'crawler',
      slug: 'google-maps-search-export',
      name: 'Google Maps Search Export',
      credits_per_row: 2,
      account: null,
    });
    expect(d.result).toContain('score');
    expect(d.input.find((i: { name: string }) => i.name === 'url').level).toBe('task');
    const p = (await e.api('GET', `/v1/crawlers/${id}/params`)).body;
    expect(p.task.url).toMatchObject({ type: 'string', group: 'url', required: true, attribute: 'url' });
    expect(p.squid.language).toMatchObject({
      allowed: expect.arrayContaining(['English (United States)', 'Français (France)']),
      default: 'English (United States)',
    });
    expect(p.squid.functions.extract_emails_from_website).toEqual({ sort: 2, default: true, credits_per_function: 10 });
    const attrs = (await e.api('GET', `/v1/crawlers/${id}/attributes`)).body.data;
    expect(attrs.find((a: { name: string }) => a.name === 'name')).toMatchObject({
      function: 'Export Local Businesses',
      is_main: true,
    });
    expect(attrs.find((a: { name: string }) => a.name === 'email')).toMatchObject({
      function: 'Extract Emails From Website',
      is_main: false,
    });
    const tw = (await e.api('GET', `/v1/crawlers/${DEMO_CRAWLERS.twitter}`)).body;
    expect(tw.account.type).toBe('twitter-sync');
    // The list-crawlers sample's ids, slugs, limits and account cookies.
    expect(tw).toMatchObject({
      id: '6c5227261fbbd3430f926d409f4c44bf',
      slug: 'twitter-profile-scraper',
      max_concurrency: 20,
      credits_per_row: 2,
    });
    const sn = (await e.api('GET', `/v1/crawlers/${DEMO_CRAWLERS.salesNav}`)).body;
    expect(sn).toMatchObject({
      id: 'a1d243d3824a1ac773414416eb80362d',
      slug: 'sales-navigator-leads-scraper',
      name: 'Sales Navigator Leads Scraper',
      max_concurrency: 10,
      credits_per_row: 3,
      is_premium: false,
    });
    expect(sn.account.cookies).toEqual([
      { name: 'li_at', required: true },
      { name: 'JSESSIONID', required: true },
    ]);
    expect((await e.api('GET', '/v1/crawlers/c47dfc2beba9fdc2472d3b3321b06b66')).body).toMatchObject({
      slug: 'facebook-pages-search-export',
      name: 'Facebook Pages Search Export',
      max_concurrency: 20,
      credits_per_row: 20,
      account: { type: 'facebook-sync' },
    });
    expect((await e.api('GET', `/v1/crawlers/${'0'.repeat(32)}`)).status).toBe(404);
  });
});

describe('squids', () => {
  it('create (200, defaults), detail (delivery fields at their sampled defaults), list with name filter, update echo, delete', async () => {
    const c = await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.googleMaps, name: 'Berlin cafés' });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({
      account: [],
      concurrency: 1,
      crawler: DEMO_CRAWLERS.googleMaps,
      is_active: true,
      name: 'Berlin cafés',
      schedule: null,
      to_complete: false,
      params: {
        max_results: 200,
        country: 'United States',
        ratings: 'Any rating',
        language: 'English (United States)',
      },
    });
    // The create-squid sample's params have no functions; the squid has them at their defaults (get-squid-details).
    // create-squid sample: "…Z"; get-squid-details sample: naive with microseconds.
    expect(c.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const id = c.body.id;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const d = (await e.api('GET', `/v1/squids/${id}`)).body;
    expect(d.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    for (const k of ['email', 'last_run_status', 'download_url']) expect(d[k], k).toBeNull();
    expect(d.ftp_fields).toEqual({ host: 'localhost', port: 22, is_active: false });
    expect(d.s3_fields).toEqual({ bucket: null, is_active: false });
    expect(d).toMatchObject({
      notifications: false,
      total_runs: 0,
      crawler_name: 'Google Maps Search Export',
      notifications_params: { run_notify: null },
    });
    expect(d.params.functions).toEqual({
      collect_business_details: false,
      fetch_business_images: false,
      extract_emails_from_website: true,
    });

    const found = (await e.api('GET', '/v1/squids?name=BERLIN')).body;
    expect(found.total_results).toBe(1);
    expect(found.data[0].id).toBe(id);
    expect(found.data[0].params.functions).toBeUndefined(); // list-squids sample: params without functions
    expect((await e.api('GET', '/v1/squids?name=paris')).body.data[0].name).toBe(DEMO_SQUIDS.paris);

    const auto = await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.amazon });
    expect(auto.body.name).toBe('Amazon Products Scraper (1)');
    const dup = await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.amazon, name: 'berlin CAFÉS' });
    expect(dup.status).toBe(400);

    const u = await e.api('POST', `/v1/squids/${id}`, {
      name: 'Berlin coffee',
      concurrency: 5,
      params: { functions: { collect_business_details: true } },
      run_notify: 'on_error',
    });
    // The update-squid page's answer for its crawler: 200, the settings record as stored (concurrency not in it).
    expect(u.status).toBe(200);
    expect(u.body).toEqual({
      name: 'Berlin coffee',
      no_line_breaks: false,
      params: {
        max_results: 200,
        country: 'United States',
        ratings: 'Any rating',
        language: 'English (United States)',
        functions: { collect_business_details: true, fetch_business_images: false, extract_emails_from_website: true },
      },
      to_complete: false,
      run_notify: 'on_error',
      export_unique_results: false,
    });
    const d2 = (await e.api('GET', `/v1/squids/${id}`)).body;
    expect(d2).toMatchObject({
      name: 'Berlin coffee',
      concurrency: 5,
      notifications_params: { run_notify: 'on_error' },
    });
    for (const bad of [0, 21, 2.5, '3']) {
      const r = await e.api('POST', `/v1/squids/${id}`, { concurrency: bad });
      expect(r.status, String(bad)).toBe(400);
      expect(r.body.error.param).toBe('concurrency');
    }
    expect((await e.api('GET', `/v1/squids/${id}`)).body.concurrency).toBe(5);

    const del = await e.api('DELETE', `/v1/squids/${id}`);
    expect(del.body).toEqual({ id, object: 'squid', deleted: true });
    expect((await e.api('GET', `/v1/squids/${id}`)).status).toBe(404);
    await e.api('DELETE', `/v1/squids/${auto.body.id}`);
  });

  it('links accounts on update and rejects unknown ones', async () => {
    const squid = e.squidId(DEMO_SQUIDS.influencers);
    const accounts = (await e.api('GET', '/v1/accounts')).body.data;
    const r = await e.api('POST', `/v1/squids/${squid}`, { accounts: [accounts[0].id] });
    expect(r.body).toMatchObject({ name: 'Tech influencers', accounts: [accounts[0].id] });
    expect((await e.api('POST', `/v1/squids/${squid}`, { accounts: ['nope'] })).status).toBe(400);
  });

  it('empty removes the tasks of one type and their results', async () => {
    const s = (await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.googleMaps, name: 'Empty me' })).body.id;
    await e.api('POST', '/v1/tasks', {
      squid: s,
      tasks: [{ url: 'https://www.google.com/maps/search/a' }, { category: 'b', city: 'Nice' }],
    });
    const r = await e.api('POST', `/v1/squids/${s}/empty`, { type: 'url' });
    expect(r.body).toEqual({ id: s, object: 'squid', emptied: true, deleted_count: 1 });
    expect((await e.api('GET', `/v1/tasks?squid=${s}`)).body.total_results).toBe(1);
    expect((await e.api('POST', `/v1/squids/${s}/empty`, { type: 'all' })).status).toBe(400);
  });

  it('empty keeps the results finished runs collected from the deleted tasks (issue 36)', async () => {
    const squid = e.squidId(DEMO_SQUIDS.paris);
    const tasks = (await e.api('GET', `/v1/tasks?squid=${squid}`)).body.data as {
      type?: string;
      params?: Record<string, unknown>;
    }[];
    const runs = (await e.api('GET', `/v1/runs?squid=${squid}`)).body.data as { id: string; is_done: boolean }[];
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r) => r.is_done)).toBe(true);
    const before = (await e.api('GET', `/v1/results?squid=${squid}`)).body.total_results;
    const byRun = (await e.api('GET', `/v1/results?run=${runs[0].id}`)).body.total_results;
    expect(before).toBeGreaterThan(0);
    const types = [...new Set(tasks.map((t) => (t.params && 'url' in t.params ? 'url' : 'params')))];
    let deleted = 0;
    for (const type of types)
      deleted += (await e.api('POST', `/v1/squids/${squid}/empty`, { type })).body.deleted_count;
    expect(deleted).toBe(tasks.length);
    expect((await e.api('GET', `/v1/tasks?squid=${squid}`)).body.total_results).toBe(0);
    expect((await e.api('GET', `/v1/results?squid=${squid}`)).body.total_results).toBe(before);
    expect((await e.api('GET', `/v1/results?run=${runs[0].id}`)).body.total_results).toBe(byRun);
    // The demo squid's tasks are back for the tests after this one.
    expect((await e.api('POST', '/_emulator/reset')).status).toBe(200);
  });
});

describe('tasks', () => {
  it('adds tasks, skips duplicates, lists, gets (hash_value + status), deletes', async () => {
    const squid = e.squidId(DEMO_SQUIDS.headphones);
    const add = await e.api('POST', '/v1/tasks', {
      squid,
      tasks: [
        { url: 'https://www.amazon.com/s?k=speakers' },
        { url: 'https://www.amazon.com/s?k=speakers' },
        { url: 'https://www.amazon.com/s?k=wireless+headphones' },
      ],
    });
    expect(add.status).toBe(200);
    expect(add.body.duplicated_count).toBe(2);
    expect(add.body.tasks).toHaveLength(1);
    const t = add.body.tasks[0];
    expect(t).toMatchObject({
      object: 'task',
      is_active: true,
      params: { url: 'https://www.amazon.com/s?k=speakers' },
      module: DEMO_CRAWLERS.amazon,
    });
    const list = (await e.api('GET', `/v1/tasks?squid=${squid}`)).body;
    expect(list.total_results).toBe(3);
    expect(Object.keys(list.data[0]).sort()).toEqual(['created_at', 'id', 'is_active', 'params']);
    const one = (await e.api('GET', `/v1/tasks/${t.id}`)).body;
    expect(one.hash_value).toBe(t.id);
    expect(one.id).toBeUndefined();
    expect(typeof one.module).toBe('number');
    expect(one.status).toMatchObject({ status: 'pending', is_done: false });
    expect((await e.api('DELETE', `/v1/tasks/${t.id}`)).body).toEqual({ id: t.id, object: 'task', deleted: true });
    const gone = await e.api('GET', `/v1/tasks/${t.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: { message: 'Task not found', type: 'not_found_error', param: 'task_hash' } });
  });

  // api-reference: "type default url; params = fuller detail": a detail level, not a filter of the tasks listed.
  it('GET /v1/tasks?type= is a detail level: every task either way, params with the get-task record of each', async () => {
    const squid = (await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.googleMaps, name: 'levels' })).body.id;
    const tasks = [{ url: 'https://www.google.com/maps/search/bakery' }, { city: 'Lyon', category: 'bakery' }];
    expect((await e.api('POST', '/v1/tasks', { squid, tasks })).status).toBe(200);
    const listed = async (type: string) => (await e.api('GET', `/v1/tasks?squid=${squid}${type}`)).body.data;
    for (const type of ['', '&type=url', '&type=params']) {
      expect(
        (await listed(type)).map((t: J) => t.params),
        type,
      ).toEqual(tasks);
    }
    expect(Object.keys((await listed('&type=url'))[0]).sort()).toEqual(['created_at', 'id', 'is_active', 'params']);
    const full = (await listed('&type=params'))[1];
    expect(full).toMatchObject({ object: 'task', params: tasks[1], status: { status: 'pending', is_done: false } });
    expect(full.hash_value).toBeUndefined();
    expect((await e.api('GET', `/v1/tasks?squid=${squid}&type=all`)).status).toBe(400);
    await e.api('DELETE', `/v1/squids/${squid}`);
  });

  it('validates with ErrB bodies', async () => {
    const squid = e.squidId(DEMO_SQUIDS.headphones);
    expect((await e.api('GET', '/v1/tasks')).body.error).toMatchObject({ type: 'validation_error', param: 'squid' });
    expect((await e.api('POST', '/v1/tasks', { squid, tasks: [] })).body.error.param).toBe('tasks');
    expect((await e.api('POST', '/v1/tasks', { squid, tasks: [{ nope: 1 }] })).status).toBe(400);
    expect((await e.api('POST', '/v1/tasks', { squid, tasks: [{ url: 'https://example.com' }] })).status).toBe(400);
    const unknown = await e.api('POST', '/v1/tasks', { squid: 'x'.repeat(32), tasks: [{ url: 'a' }] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('not_found_error');
  });
});

describe('results', () => {
  it('needs exactly one of squid and run', async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    const run = (await e.api('GET', `/v1/runs?squid=${paris}`)).body.data[0].id;
    for (const q of ['', `?squid=${paris}&run=${run}`]) {
      const r = await e.api('GET', `/v1/results${q}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ type: 'validation_error', param: 'squid,run' });
    }
    const bySquid = (await e.api('GET', `/v1/results?squid=${paris}&limit=100`)).body;
    const byRun = (await e.api('GET', `/v1/results?run=${run}&limit=100`)).body;
    expect(bySquid.total_results).toBeGreaterThan(byRun.total_results);
    // Rows carry no task (get-results sample); ?task= still filters.
    expect(byRun.data.some((r: J) => 'task' in r)).toBe(false);
    const task = (await e.api('GET', `/v1/runtasks?run=${run}`)).body.data[0].task;
    const byTask = (await e.api('GET', `/v1/results?run=${run}&task=${task}&limit=100`)).body;
    expect(byTask.total_results).toBeGreaterThanOrEqual(3);
    expect(byTask.total_results).toBeLessThanOrEqual(8);
    expect(byTask.total_results).toBeLessThan(byRun.total_results);
  });
});

describe('accounts and synchronization', () => {
  it('lists, gets as a one-element envelope, types under both paths, updates limits, deletes', async () => {
    const list = (await e.api('GET', '/v1/accounts')).body;
    expect(list.total_results).toBe(2);
    const a = list.data.find((x: { type: string }) => x.type === 'twitter-sync');
    expect(a.squids).toEqual([{ name: DEMO_SQUIDS.influencers, hash_value: e.squidId(DEMO_SQUIDS.influencers) }]);
    expect(a.status).toBe('200');
    const one = (await e.api('GET', `/v1/accounts/${a.id}`)).body;
    expect(one.total_results).toBe(1);
    expect(one.data[0].id).toBe(a.id);
    expect((await e.api('GET', `/v1/accounts/${'0'.repeat(32)}`)).body).toEqual({ detail: 'Not found.' });
    const t1 = (await e.api('GET', '/v1/accounts/types')).body;
    const t2 = (await e.api('GET', '/v1/account_types')).body;
    expect(t1).toEqual(t2);
    expect(t1.data.map((t: { name: string }) => t.name)).toEqual(['facebook-sync', 'sales-nav-sync', 'twitter-sync']);
    // Limits are the Sales Navigator account's (Twitter accounts have none, as sampled).
    const other = list.data.find((x: { type: string }) => x.type === 'sales-nav-sync');
    const upd = await e.api('POST', '/v1/accounts', {
      account: other.id,
      type: 'sales-nav-sync',
      params: { profiles: 100 },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.params.user.profiles.max).toBe(100);
    expect((await e.api('POST', '/v1/accounts', { account: other.id, params: { profiles: 151 } })).status).toBe(400);
    expect((await e.api('DELETE', `/v1/accounts/${other.id}`)).body).toEqual({
      id: other.id,
      object: 'account',
      deleted: true,
    });
    expect(await e.api('DELETE', `/v1/accounts/${other.id}`)).toMatchObject({
      status: 404,
      body: { detail: 'Account not found.' },
    });
    expect((await e.api('GET', '/v1/accounts')).body.total_results).toBe(1);
  });

  it('synchronize progresses 100 → 120 → 200 and creates an account; both paths', async () => {
    for (const path of ['/v1/synchronize', '/v1/accounts/cookies']) {
      const r = await e.api('POST', path, { type: 'facebook-sync', cookies: { c_user: '1', xs: 'secret' } });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ object: 'synchronize-cookies', status_code: 100, status_text: 'created' });
      const id = r.body.id;
      await e.advance(1000);
      // check-sync-status's 120 sample shows the account_hash its 200 sample shows: known while synchronizing, the
      // account made once synchronized.
      const syncing = (await e.api('GET', `/v1/synchronize/${id}`)).body;
      expect(syncing.status_code).toBe(120);
      expect(syncing.account_hash).toMatch(/^[0-9a-f]{32}$/);
      expect((await e.api('GET', `/v1/accounts/${syncing.account_hash}`)).status).toBe(404);
      await e.advance(2000);
      const done = (await e.api('GET', `/v1/synchronize/${id}`)).body;
      expect(done).toMatchObject({ status_code: 200, status_text: 'synchronized', account_hash: syncing.account_hash });
      const acc = (await e.api('GET', `/v1/accounts/${done.account_hash}`)).body.data[0];
      expect(acc.type).toBe('facebook-sync');
    }
  });

  it('a missing or empty required cookie, or an unknown type, is refused at once (400); refresh of an unknown account is 404', async () => {
    const invalid = { detail: 'Invalid account type or missing required cookies.' };
    for (const body of [
      { type: 'twitter-sync', cookies: { auth_token: 'x', ct0: '' } },
      { type: 'twitter-sync', cookies: { auth_token: 'x' } },
      { type: 'myspace-sync', cookies: { a: 'b' } },
      { cookies: {} },
    ]) {
      expect(await e.api('POST', '/v1/accounts/cookies', body)).toMatchObject({ status: 400, body: invalid });
    }
    const bad = await e.api('POST', '/v1/synchronize', {
      type: 'twitter-sync',
      cookies: { auth_token: 'x', ct0: 'y' },
      account: 'nope',
    });
    expect(bad.status).toBe(404);
    expect(bad.body).toEqual({ detail: 'Account not found.' });
    const twitter = (await e.api('GET', '/v1/accounts')).body.data.find(
      (x: { type: string }) => x.type === 'twitter-sync',
    );
    const mismatch = await e.api('POST', '/v1/accounts/cookies', {
      type: 'facebook-sync',
      cookies: { c_user: '1', xs: '2' },
      account: twitter.id,
    });
    expect(mismatch).toMatchObject({ status: 400, body: { detail: 'Invalid cookies or account type mismatch.' } });
    expect((await e.api('GET', '/v1/synchronize/nope')).body).toEqual({ detail: 'Synchronization task not found.' });
  });
});
