// What the service refuses and what the vendor's clients read (SDK 0.7, the vendor MCP; api-changelog.md "What the
// vendor's own clients rely on"; pages link-account-to-squid, update-account-limits, list-accounts,
// examples/google-search-scraper/get-geolocation).
import { describe, expect, it } from 'vitest';
import type { EmuCore } from '../../src/emulator/emu.js';
import { DEMO_ACCOUNT_USERNAMES, DEMO_SQUIDS, newAccount } from '../../src/emulator/seed.js';
import { finishRun, useEmulator } from '../helpers/emulator.js';
import type { J } from '../helpers/json.js';
import * as store from '../../src/emulator/model/store.js';

const e = useEmulator({ each: 'new' });
const account = (username: string): J => Object.values(e.emu.state.accounts).find((a) => a.username === username)!;
const squid = async (id: string): Promise<J> => (await e.api('GET', `/v1/squids/${id}`)).body;

describe('link-account-to-squid: wrong-type and foreign accounts are refused (AccountDoesNotExist)', () => {
  it('a Sales Navigator account on a Twitter squid, or an id not of this user: 400, the links unchanged', async () => {
    const inf = e.squidId(DEMO_SQUIDS.influencers);
    const before = (await squid(inf)).accounts;
    for (const id of [account(DEMO_ACCOUNT_USERNAMES.salesNav).id, 'f'.repeat(32), 'constructor']) {
      const r = await e.api('POST', `/v1/squids/${inf}`, { accounts: [id] });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({
        param: 'accounts',
        message: expect.stringContaining('AccountDoesNotExist'),
      });
    }
    expect((await squid(inf)).accounts).toEqual(before);
  });

  it('a crawler without accounts ignores them: 200, nothing linked, no account lists the squid', async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    const tw = account(DEMO_ACCOUNT_USERNAMES.twitter);
    const r = await e.api('POST', `/v1/squids/${paris}`, { accounts: [tw.id] });
    expect(r.status).toBe(200);
    expect(r.body.accounts).toEqual([]);
    const listed = (await e.api('GET', '/v1/accounts')).body.data.find((x: J) => x.id === tw.id);
    expect(listed.squids.map((s: J) => s.hash_value)).not.toContain(paris);
    expect('accounts' in (await squid(paris))).toBe(false);
  });
});

describe('GET /v1/squids/{id} carries accounts as SDK 0.7 reads them', () => {
  it('[] for an account crawler with none, [{id, status}] once linked', async () => {
    const fresh = (
      await e.api('POST', '/v1/squids', { crawler: (await squid(e.squidId(DEMO_SQUIDS.influencers))).crawler })
    ).body.id;
    expect((await squid(fresh)).accounts).toEqual([]);
    const tw = account(DEMO_ACCOUNT_USERNAMES.twitter);
    expect((await e.api('POST', `/v1/squids/${fresh}`, { accounts: [tw.id] })).status).toBe(200);
    expect((await squid(fresh)).accounts).toEqual([{ id: tw.id, status: '200' }]);
  });

  it('attach_accounts reads accounts, merges and writes: the existing link stays (ids or the objects read)', async () => {
    const inf = e.squidId(DEMO_SQUIDS.influencers);
    const tw = account(DEMO_ACCOUNT_USERNAMES.twitter);
    expect((await squid(inf)).accounts).toEqual([{ id: tw.id, status: '200' }]);
    const second = newAccount(e.emu as EmuCore, 'twitter-sync', 'second_login', e.emu.clock.now());
    // As SDK 0.7 does: what is linked now, plus the new one.
    const read = (await squid(inf)).accounts as J[];
    const merged = [...read, { id: second.id }];
    expect((await e.api('POST', `/v1/squids/${inf}`, { accounts: merged })).status).toBe(200);
    expect((await squid(inf)).accounts.map((a: J) => a.id).sort()).toEqual([tw.id, second.id].sort());
    // With ids, the same.
    const third = newAccount(e.emu as EmuCore, 'twitter-sync', 'third_login', e.emu.clock.now());
    const ids = [...((await squid(inf)).accounts as J[]).map((a) => a.id), third.id];
    expect((await e.api('POST', `/v1/squids/${inf}`, { accounts: ids })).status).toBe(200);
    expect((await squid(inf)).accounts).toHaveLength(3);
  });
});

describe("update-account-limits: only the type's own limits, never a prototype name", () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('%s → 400, nothing stored', async (key) => {
    const tw = account(DEMO_ACCOUNT_USERNAMES.twitter);
    const sn = newAccount(e.emu as EmuCore, 'sales-nav-sync', 'limits.login@acme.test', e.emu.clock.now());
    for (const a of [tw, sn]) {
      const before = JSON.stringify(e.emu.state.accounts[a.id].params);
      // A raw body: JSON.stringify of an object literal would drop a __proto__ key.
      const r = await e.api(
        'POST',
        '/v1/accounts',
        JSON.parse(`{"account": "${a.id}", "type": "${a.type}", "params": {"${key}": 5}}`),
      );
      expect(r.status).toBe(400);
      expect(r.body.detail).toContain(key);
      expect(JSON.stringify(e.emu.state.accounts[a.id].params)).toBe(before);
      expect(Object.getPrototypeOf((e.emu.state.accounts[a.id].params as J).user)).toBe(Object.prototype);
    }
  });

  it('an unknown field of the update is refused, naming the allowed ones', async () => {
    const sn = newAccount(e.emu as EmuCore, 'sales-nav-sync', 'fields.login@acme.test', e.emu.clock.now());
    const r = await e.api('POST', '/v1/accounts', {
      account: sn.id,
      type: sn.type,
      params: { batch: 2 },
      limits: { batch: 3 },
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('Unknown field "limits"; allowed: account, type, params.');
  });
});

describe('list-accounts ?status= (the vendor MCP picks an account with status=1)', () => {
  it('1 keeps the healthy accounts, 0 the others, a code matches as given', async () => {
    const bad = newAccount(e.emu as EmuCore, 'twitter-sync', 'expired_login', e.emu.clock.now());
    store.updateRecord(e.emu, 'accounts', bad.id, { status: '401' });
    const ids = async (q: string) => (await e.api('GET', `/v1/accounts${q}`)).body.data.map((a: J) => a.id) as string[];
    const all = await ids('');
    expect(await ids('?status=1')).toEqual(all.filter((id) => id !== bad.id));
    expect(await ids('?status=0')).toEqual([bad.id]);
    expect(await ids('?status=401')).toEqual([bad.id]);
  });
});

describe('a download still converting answers status "processing" (the state the vendor MCP waits for)', () => {
  it('202 processing, then the URL', async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    const run = await finishRun(e, (await e.api('POST', '/v1/runs', { squid: paris })).body.id);
    const first = await e.api('GET', `/v1/runs/${run.id}/download?file_format=json`);
    expect([first.status, first.body.status]).toEqual([202, 'processing']);
    await e.advance(3_600_000);
    expect(Object.keys((await e.api('GET', `/v1/runs/${run.id}/download?file_format=json`)).body)).toEqual(['s3']);
  });
});

describe('GET /v1/googlelocations?q=…&country_name=… (examples/google-search-scraper/get-geolocation)', () => {
  it("the sample's shape and places; country_name narrows; q is required", async () => {
    const r = await e.api('GET', '/v1/googlelocations?q=alabama&country_name=United%20States');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['success', 'data']);
    expect(r.body.data[0]).toEqual({
      name: 'Alabama',
      canonical_name: 'Alabama,United States',
      country_name: 'United States',
      country_code: 'US',
    });
    expect(r.body.data.map((p: J) => p.name)).toContain('University of Alabama at Birmingham');
    const paris = (await e.api('GET', '/v1/googlelocations?q=paris')).body.data;
    expect(paris).toContainEqual({
      name: 'Paris',
      canonical_name: 'Paris,Île-de-France,France',
      country_name: 'France',
      country_code: 'FR',
    });
    expect((await e.api('GET', '/v1/googlelocations?q=paris&country_name=Germany')).body.data).toEqual([]);
    expect((await e.api('GET', '/v1/googlelocations?country_name=France')).status).toBe(400);
  });
});

describe('unknown update fields, bad cron and zone are refused, nothing changed', () => {
  it('a chain create or update with a field it does not take: 400 {error} naming the allowed ones', async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    const amazon = (await squid(e.squidId(DEMO_SQUIDS.headphones))).crawler;
    const bad = await e.api('POST', `/v1/squids/${paris}/chain`, {
      target_module_id: amazon,
      field_map: { website: 'url' },
      target_crawler: 'x',
    });
    expect([bad.status, bad.body]).toEqual([
      400,
      {
        error:
          'Unknown field "target_crawler"; allowed: target_module_id, field_map, autostart, cluster_name, cluster_concurrency.',
      },
    ]);
    expect(
      (await e.api('POST', `/v1/squids/${paris}/chain`, { target_module_id: amazon, field_map: { website: 'url' } }))
        .status,
    ).toBe(201);
    const patch = await e.api('PATCH', `/v1/squids/${paris}/chain`, { field_map: { name: 'url' } });
    expect([patch.status, patch.body]).toEqual([
      400,
      { error: 'Unknown field "field_map"; allowed: autostart, cluster_name, cluster_concurrency.' },
    ]);
    expect((await e.api('GET', `/v1/squids/${paris}/chain`)).body.field_map).toEqual({ website: 'url' });
  });

  it.each([
    [{ cron_expression: '61 9 * * *' }, 'cron_expression', /minute "61"/],
    [{ cron_expression: '0 9 * *' }, 'cron_expression', /5 fields/],
    [{ timezone: 'europe/paris' }, 'timezone', /Unknown timezone/],
    [{ timezone: 'Mars/Olympus' }, 'timezone', /Unknown timezone/],
  ])('%j → 400 naming %s', async (body, param, why) => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    const r = await e.api('POST', `/v1/squids/${paris}`, body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ param, message: expect.stringMatching(why) });
    expect((await squid(paris)).schedule).toBeNull();
  });
});
