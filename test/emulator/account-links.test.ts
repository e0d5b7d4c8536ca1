// The endpoints behind `sq accounts update`, `sq squids update --account` and `sq accounts sync --account`, against
// the docs samples of update-account-limits, link-account-to-squid and refresh-cookies: key sets, JSON types and
// status codes. (The wording of their 400s is the emulator-fidelity work's, not asserted here.)
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT_USERNAMES, DEMO_SQUIDS, newAccount } from '../../src/emulator/seed.js';
import type { EmuCore } from '../../src/emulator/emu.js';
import { useEmulator } from '../helpers/emulator.js';
import type { J } from '../helpers/json.js';

// Key sets of the samples, as docs-samples.json has them (pages update-account-limits, link-account-to-squid,
// refresh-cookies).
const ACCOUNT_KEYS = [
  'account_type_hash',
  'baseurl',
  'cookies',
  'created_at',
  'icon',
  'id',
  'last_synchronization_time',
  'object',
  'params',
  'squids',
  'status',
  'status_code_description',
  'status_code_info',
  'type',
  'updated_at',
  'username',
];
const SYNC_KEYS = ['id', 'object', 'status_code', 'status_text'];

// A fresh emulator for each test.
const e = useEmulator({ each: 'new' });
const account = (username: string): J => Object.values(e.emu.state.accounts).find((a) => a.username === username)!;

describe('POST /v1/accounts (update-account-limits)', () => {
  it("200: the whole account, the sample's keys, params.user carrying the new maximum", async () => {
    // A healthy Sales Navigator account (the sample's is healthy): the demo one is at its daily profiles limit and
    // also shows resets_in (account health); Twitter accounts have no limits to update.
    const a = newAccount(e.emu as EmuCore, 'sales-nav-sync', 'fresh.login@acme.test', e.emu.clock.now());
    const r = await e.api('POST', '/v1/accounts', { account: a.id, type: a.type, params: { batch: 3 } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(ACCOUNT_KEYS);
    expect(r.body).toMatchObject({ id: a.id, object: 'account', status: expect.any(String) });
    expect(Array.isArray(r.body.squids) && Array.isArray(r.body.cookies)).toBe(true);
    expect(r.body.params.user.batch.max).toBe(3);
  });

  it('404 {"detail": "Account not found."} for an unknown account; 400 {detail} for a limit the type lacks', async () => {
    const nf = await e.api('POST', '/v1/accounts', {
      account: '0'.repeat(32),
      type: 'twitter-sync',
      params: { batch: 1 },
    });
    expect([nf.status, nf.body]).toEqual([404, { detail: 'Account not found.' }]);
    const a = account(DEMO_ACCOUNT_USERNAMES.twitter);
    const bad = await e.api('POST', '/v1/accounts', { account: a.id, type: a.type, params: { nope: 1 } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['detail']);
  });
});

describe('POST /v1/squids/{id} {accounts} (link-account-to-squid)', () => {
  it('200 echoes accounts as a list of hashes; the account list then names the squid', async () => {
    const a = account(DEMO_ACCOUNT_USERNAMES.salesNav);
    const b = newAccount(e.emu as EmuCore, 'sales-nav-sync', 'second.login@acme.test', e.emu.clock.now());
    const leads = e.squidId(DEMO_SQUIDS.leads);
    const r = await e.api('POST', `/v1/squids/${leads}`, { accounts: [a.id, b.id] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: DEMO_SQUIDS.leads, accounts: [a.id, b.id] });
    const listed = (await e.api('GET', '/v1/accounts')).body.data.find((x: J) => x.id === b.id);
    expect(listed.squids).toEqual([{ name: DEMO_SQUIDS.leads, hash_value: leads }]);
  });
});

describe('POST /v1/accounts/cookies with account (refresh-cookies)', () => {
  it('200 with the sample\'s keys; 404 {"detail": "Account not found."} for an unknown account', async () => {
    const a = account(DEMO_ACCOUNT_USERNAMES.twitter);
    const r = await e.api('POST', '/v1/accounts/cookies', {
      type: a.type,
      cookies: { auth_token: 'a', ct0: 'b' },
      account: a.id,
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(SYNC_KEYS);
    expect(r.body).toMatchObject({ object: 'synchronize-cookies', status_code: 100, status_text: 'created' });
    const nf = await e.api('POST', '/v1/accounts/cookies', {
      type: a.type,
      cookies: { auth_token: 'a', ct0: 'b' },
      account: '0'.repeat(32),
    });
    expect([nf.status, nf.body]).toEqual([404, { detail: 'Account not found.' }]);
  });
});
