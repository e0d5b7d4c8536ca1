// Account health and the account a new squid uses (changelog, SDK 0.7: an account has status ("200" healthy),
// resets_in and lock_time; a crawler has account_type): sq accounts list/get show them with the squids using each,
// sq crawlers get shows the type, and sq squids create / sq go pick the one healthy account of the crawler's type,
// or exit 2 naming --account in a script when there are several.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import type { EmuCore } from '../../src/emulator/emu.js';
import { DEMO_ACCOUNT_USERNAMES, DEMO_CRAWLERS, DEMO_SQUIDS, newAccount } from '../../src/emulator/seed.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });
const account = (username: string): J => Object.values(emu.emu.state.accounts).find((a) => a.username === username)!;
const writes = async () => (await emu.requests()).filter((r) => r.method !== 'GET');

describe('sq accounts list/get: health and squids (changelog: status, resets_in, lock_time)', () => {
  it('shows resets_in of an account at its daily limit, and the squids using it', async () => {
    // The demo Sales Navigator account is at its daily profiles limit; the Twitter one has no limits (as sampled).
    const sn = account(DEMO_ACCOUNT_USERNAMES.salesNav);
    const counter = Object.entries(sn.params.user as J).find(([k]) => k !== 'batch' && k !== 'batch_hours')![1];
    counter.timestamp = Math.floor(emu.emu.clock.now() / 1000) + 3 * 3600 + 150;
    const r = await sq(['accounts', 'list', '--format', 'csv', '--fields', 'username,status,resets_in,squids'], {
      env: emu.env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${DEMO_ACCOUNT_USERNAMES.salesNav},200,3h 2m,${DEMO_SQUIDS.leads}`);
    const get = await sq(['accounts', 'get', DEMO_ACCOUNT_USERNAMES.twitter, '--json'], { env: emu.env() });
    expect(JSON.parse(get.stdout)).not.toHaveProperty('resets_in');
  });

  it('shows lock_time while a run of a squid holds the account', async () => {
    const a = account(DEMO_ACCOUNT_USERNAMES.twitter);
    const s = (
      await emu.api('/v1/squids', { method: 'POST', body: { crawler: DEMO_CRAWLERS.twitter, name: 'Profiles' } })
    ).id;
    await emu.api(`/v1/squids/${s}`, { method: 'POST', body: { params: {} } });
    await emu.api('/v1/tasks', {
      method: 'POST',
      body: { squid: s, tasks: [{ url: 'https://x.com/nasa' }, { url: 'https://x.com/github' }] },
    });
    await emu.api('/v1/runs', { method: 'POST', body: { squid: s } });
    await emu.advance(3_500);
    const r = await sq(['accounts', 'get', String(a.id), '--json'], { env: emu.env() });
    expect(r.stdout, JSON.stringify((await emu.api(`/v1/runs?squid=${s}`)).data[0])).toContain('lock_time');
    expect(JSON.parse(r.stdout).lock_time).toMatch(/Z$/);
  });
});

describe('sq crawlers get shows account_type (changelog: a crawler has account_type or none)', () => {
  it.each([
    [DEMO_CRAWLERS.twitter, 'twitter-sync'],
    [DEMO_CRAWLERS.googleMaps, 'none (no login needed)'],
  ])('%s → %s', async (crawler, type) => {
    const r = await sq(['crawlers', 'get', crawler, '--format', 'table'], { env: emu.env() });
    expect(r.stdout).toMatch(new RegExp(`account type\\s+${type.replace(/[()]/g, '\\$&')}`));
  });
});

describe('squids create / go on an account crawler pick its account (changelog: account_type, status "200")', () => {
  it('squids create links the one healthy account of the type', async () => {
    emu.expectWrites('POST /v1/squids', 'POST /v1/squids/*');
    const tw = account(DEMO_ACCOUNT_USERNAMES.twitter);
    const r = await sq(['squids', 'create', '--crawler', 'twitter-profile-scraper', '--name', 'Profiles', '--json'], {
      env: emu.env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`account ${DEMO_ACCOUNT_USERNAMES.twitter} (${tw.id}) picked`);
    const id = JSON.parse(r.stdout).id;
    expect(emu.emu.state.squids[id].accounts).toEqual([tw.id]);
  });

  it('several healthy accounts in a script: exit 2 naming --account, nothing created', async () => {
    newAccount(emu.emu as EmuCore, 'twitter-sync', 'second_login', Date.now());
    const r = await sq(['squids', 'create', '--crawler', 'twitter-profile-scraper', '--name', 'Profiles'], {
      env: emu.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('needs a twitter-sync account and 2 are healthy');
    expect(r.stderr).toContain('pass --account');
    expect(await writes()).toEqual([]);
    const go = await sq(['go', 'twitter-profile-scraper', 'https://x.com/nasa'], { env: emu.env() });
    expect(go.code).toBe(2);
    expect(go.stderr).toContain('pass --account');
    expect(await writes()).toEqual([]);
  });

  it('--account of another type is exit 2 naming both types', async () => {
    const r = await sq(
      ['squids', 'create', '--crawler', 'twitter-profile-scraper', '--account', DEMO_ACCOUNT_USERNAMES.salesNav],
      { env: emu.env() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'is of type sales-nav-sync, but crawler "Twitter Profile Scraper" needs a twitter-sync account',
    );
    expect(await writes()).toEqual([]);
  });

  it('sq go with --account links it with the params', async () => {
    const other = newAccount(emu.emu as EmuCore, 'twitter-sync', 'second_login', Date.now());
    const r = await sq(
      ['go', 'twitter-profile-scraper', 'https://x.com/nasa', '--account', 'second_login', '--timeout', '1s'],
      { env: emu.env() },
    );
    const post = (await writes()).find((w) => w.path.startsWith('/v1/squids/') && (w.body as J).params);
    expect(post?.body, r.stderr).toMatchObject({ accounts: [other.id] });
  });
});
