// In-process against the emulator: `sq accounts update --limit`, `sq squids update --account`, the documented
// refresh form of `sq accounts sync --account`, and `sq crawlers list --search`. Bad input is exit 2 naming what is
// allowed, and no write is sent.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import type { EmuCore } from '../../src/emulator/emu.js';
import { tempFiles } from '../helpers/fs.js';
import { DEMO_ACCOUNT_USERNAMES, DEMO_CRAWLERS, DEMO_SQUIDS, newAccount } from '../../src/emulator/seed.js';
import type { J } from '../helpers/json.js';
import * as store from '../../src/emulator/model/store.js';

const emu = useEmulator({ each: 'reset' });
const file = tempFiles('sq-links-');

const account = (username: string): J => Object.values(emu.emu.state.accounts).find((a) => a.username === username)!;
const writes = async () => (await emu.requests()).filter((r) => r.method !== 'GET');
/** The limit keys the emulator gives an account type, and the first of them that is a daily counter. */
const limitsOf = (a: J) => Object.keys(a.params.default);
const tsv = (out: string) =>
  out
    .trimEnd()
    .split('\n')
    .map((l) => l.split('\t'));

describe('sq accounts update --limit', () => {
  it('posts {account, type, params} to /v1/accounts and shows the updated account', async () => {
    const a = account(DEMO_ACCOUNT_USERNAMES.salesNav);
    const key = limitsOf(a).find((k) => k !== 'batch' && k !== 'batch_hours')!;
    const r = await sq(
      ['accounts', 'update', DEMO_ACCOUNT_USERNAMES.salesNav, '--limit', `${key}=7`, '--limit', 'batch=2', '--json'],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await writes()).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/accounts',
        body: { account: a.id, type: a.type, params: { [key]: 7, batch: 2 } },
      }),
    ]);
    expect(JSON.parse(r.stdout).params.user[key].max).toBe(7);
    expect(account(DEMO_ACCOUNT_USERNAMES.salesNav).params.user.batch.max).toBe(2);
  });

  it('a key the account type does not have is exit 2 naming the allowed ones; nothing is written', async () => {
    const a = account(DEMO_ACCOUNT_USERNAMES.salesNav);
    const r = await sq(['accounts', 'update', String(a.id).slice(0, 8), '--limit', 'profiles_per_week=3'], {
      env: emu.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`has no limit "profiles_per_week" (allowed: ${limitsOf(a).join(', ')})`);
    expect(await writes()).toEqual([]);
  });

  // Issue 33 E11: `allowed[key]` found Object.prototype's own names, so these passed the check and were written.
  it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'])(
    '--limit %s=5 (a name of Object.prototype) is exit 2; nothing is written',
    async (key) => {
      const a = account(DEMO_ACCOUNT_USERNAMES.salesNav);
      const r = await sq(['accounts', 'update', DEMO_ACCOUNT_USERNAMES.salesNav, '--limit', `${key}=5`], {
        env: emu.env(),
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`has no limit "${key}" (allowed: ${limitsOf(a).join(', ')})`);
      expect(await writes()).toEqual([]);
    },
  );

  // Issue 46, 6: with no limits listed for the type, nothing was checked and every key was stored.
  it.each(['constructor', 'toString', '__proto__', 'batch'])(
    '--limit %s=5 on an account type without limits is exit 2; nothing is written',
    async (key) => {
      const a = account(DEMO_ACCOUNT_USERNAMES.twitter);
      expect(Object.keys(a.params?.default ?? {})).toEqual([]);
      const r = await sq(['accounts', 'update', DEMO_ACCOUNT_USERNAMES.twitter, '--limit', `${key}=5`], {
        env: emu.env(),
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`has no limit "${key}" (it has no limits to set)`);
      expect(await writes()).toEqual([]);
    },
  );

  it("a value above the type's maximum is exit 2 naming the maximum; nothing is written", async () => {
    const a = account(DEMO_ACCOUNT_USERNAMES.salesNav);
    const max = a.params.default.batch.max;
    const r = await sq(['accounts', 'update', DEMO_ACCOUNT_USERNAMES.salesNav, '--limit', `batch=${max + 1}`], {
      env: emu.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--limit batch=${max + 1}: at most ${max}`);
    expect(await writes()).toEqual([]);
  });

  it.each([
    [['--limit', 'batch'], '--limit must look like key=value'],
    [['--limit', 'batch=0'], '--limit batch must be a whole number of at least 1'],
    [['--limit', 'batch=ten'], '--limit batch must be a whole number of at least 1'],
    // E16: the last value won silently.
    [['--limit', 'batch=2', '--limit', 'batch=3'], '--limit batch is given twice (2 and 3); give each key once'],
    [[], 'nothing to update: pass --limit KEY=VALUE'],
  ])('%j is exit 2 before any request', async (flags, message) => {
    const r = await sq(['accounts', 'update', DEMO_ACCOUNT_USERNAMES.twitter, ...flags], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await emu.requests()).toEqual([]);
  });
});

describe('sq squids update --account', () => {
  it('--account replaces: accounts named by username and id prefix are sent as the whole list; the account list shows the link', async () => {
    const inf = emu.squidId(DEMO_SQUIDS.influencers);
    const tw = account(DEMO_ACCOUNT_USERNAMES.twitter);
    const other = newAccount(emu.emu as EmuCore, 'twitter-sync', 'second_login', Date.now());
    const r = await sq(['squids', 'update', DEMO_SQUIDS.influencers, '--account', String(other.id).slice(0, 8)], {
      env: emu.env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(await writes()).toEqual([
      expect.objectContaining({ method: 'POST', path: `/v1/squids/${inf}`, body: { accounts: [other.id] } }),
    ]);
    const listed = (await emu.api('/v1/accounts')).data as J[];
    expect(listed.find((a) => a.id === other.id)!.squids.map((s: J) => s.hash_value)).toContain(inf);
    expect(listed.find((a) => a.id === tw.id)!.squids).toEqual([]);
  });

  it('--no-accounts unlinks them all', async () => {
    const inf = emu.squidId(DEMO_SQUIDS.influencers);
    const r = await sq(['squids', 'update', DEMO_SQUIDS.influencers, '--no-accounts'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(await writes()).toEqual([expect.objectContaining({ path: `/v1/squids/${inf}`, body: { accounts: [] } })]);
    expect(emu.emu.state.squids[inf].accounts).toEqual([]);
  });

  it('an unknown account is exit 3 and nothing is written', async () => {
    const r = await sq(
      [
        'squids',
        'update',
        DEMO_SQUIDS.paris,
        '--account',
        DEMO_ACCOUNT_USERNAMES.twitter,
        '--account',
        'nobody@nowhere',
      ],
      { env: emu.env() },
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no account matches "nobody@nowhere"');
    expect(await writes()).toEqual([]);
  });

  it('--account with --no-accounts is exit 2 before any request', async () => {
    const r = await sq(['squids', 'update', DEMO_SQUIDS.paris, '--account', 'x', '--no-accounts'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--account and --no-accounts cannot be used together');
    expect(await emu.requests()).toEqual([]);
  });
});

describe('sq accounts sync --account: the documented refresh form', () => {
  it('POST /v1/accounts/cookies {type, cookies, account}, the type read from the account when --type is left out', async () => {
    const a = account(DEMO_ACCOUNT_USERNAMES.twitter);
    const f = file('c.json', JSON.stringify({ auth_token: 'tok-SECRET', ct0: 'ct0-SECRET' }));
    const r = await sq(['accounts', 'sync', '--account', String(a.id).slice(0, 8), '--cookies-file', f, '--json'], {
      env: emu.env(),
    });
    expect(r.code, r.stderr).toBe(0);
    const [post] = await writes();
    expect(post).toMatchObject({ method: 'POST', path: '/v1/accounts/cookies' });
    expect(Object.keys(post.body as J).sort()).toEqual(['account', 'cookies', 'type']);
    expect(post.body).toMatchObject({ account: a.id, type: a.type });
    expect(JSON.parse(r.stdout)).toMatchObject({ object: 'synchronize-cookies', status_code: 100 });
    expect(r.stdout + r.stderr).not.toContain('SECRET');
  });

  it('without --account, --type is still required (exit 2, no request)', async () => {
    const f = file('c2.json', '{"auth_token":"x"}');
    const r = await sq(['accounts', 'sync', '--cookies-file', f], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--type is required');
    expect(await emu.requests()).toEqual([]);
  });
});

describe('sq crawlers list --search', () => {
  it('matches name and slug case-insensitively, "-" and "_" as spaces', async () => {
    for (const text of ['MAPS SEARCH', 'maps search', 'google-maps-search']) {
      const r = await sq(['crawlers', 'list', '--search', text, '--fields', 'slug'], { env: emu.env() });
      expect([text, r.code, r.stdout]).toEqual([text, 0, 'slug\ngoogle-maps-search-export\n']);
    }
    // The quick starts' slug (examples/google-maps-leads-scraper) is a crawler of its own.
    const both = await sq(['crawlers', 'list', '--search', 'google-maps', '--fields', 'slug'], { env: emu.env() });
    expect(both.stdout.split('\n').sort()).toEqual([
      '',
      'google-maps-leads-scraper',
      'google-maps-reviews-scraper',
      'google-maps-search-export',
      'slug',
    ]);
  });

  it('matches a description when the records carry one', async () => {
    store.updateRecord(emu.emu, 'crawlers', DEMO_CRAWLERS.twitter, {
      description: 'Collects public PROFILES of accounts',
    });
    const r = await sq(['crawlers', 'list', '--search', 'public profiles', '--fields', 'slug'], { env: emu.env() });
    expect(r.stdout).toBe('slug\ntwitter-profile-scraper\n');
  });

  it('--limit counts matches and says when more exist; no match is said on stderr, exit 0', async () => {
    const all = Object.values(emu.emu.state.crawlers).filter((c) => String(c.name).toLowerCase().includes('s'));
    expect(all.length).toBeGreaterThan(1);
    const r = await sq(['crawlers', 'list', '--search', 's', '--limit', '1', '--fields', 'slug'], { env: emu.env() });
    expect(tsv(r.stdout)).toHaveLength(2);
    expect(r.stderr).toContain('Showing the first match —');
    const none = await sq(['crawlers', 'list', '--search', 'zzzz-nothing'], { env: emu.env() });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('No crawler\'s name, slug or description contains "zzzz-nothing"');
  });

  it('--search with --page is exit 2 before any request', async () => {
    const r = await sq(['crawlers', 'list', '--search', 'maps', '--page', '2'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(await emu.requests()).toEqual([]);
  });
});
