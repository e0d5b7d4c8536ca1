// Safe account links (changelog, SDK 0.7: the update's `accounts` is a full replace; "adding one account safely =
// read the links, send the union"; a crawler has an `account_type`): --add-account/--remove-account keep the other
// links, a change made by another writer is re-read and the update sent once more, and an account of another type
// than the crawler's is exit 2 before any write, naming both types.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import type { EmuCore } from '../../src/emulator/emu.js';
import { DEMO_ACCOUNT_USERNAMES, DEMO_SQUIDS, newAccount } from '../../src/emulator/seed.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });
const account = (username: string): J => Object.values(emu.emu.state.accounts).find((a) => a.username === username)!;
const writes = async () => (await emu.requests()).filter((r) => r.method !== 'GET');

describe('--add-account / --remove-account (changelog SDK 0.7: accounts is a full replace, send the union)', () => {
  it('adds to the linked accounts and removes one, keeping the others', async () => {
    const inf = emu.squidId(DEMO_SQUIDS.influencers);
    const tw = account(DEMO_ACCOUNT_USERNAMES.twitter);
    const other = newAccount(emu.emu as EmuCore, 'twitter-sync', 'second_login', Date.now());
    const add = await sq(['squids', 'update', DEMO_SQUIDS.influencers, '--add-account', 'second_login'], {
      env: emu.env(),
    });
    expect(add.code, add.stderr).toBe(0);
    expect(await writes()).toEqual([
      expect.objectContaining({ path: `/v1/squids/${inf}`, body: { accounts: [tw.id, other.id].sort() } }),
    ]);
    expect(add.stderr).toContain('accounts linked:');
    await emu.clearRequests();
    const rm = await sq(
      ['squids', 'update', DEMO_SQUIDS.influencers, '--remove-account', DEMO_ACCOUNT_USERNAMES.twitter],
      { env: emu.env() },
    );
    expect(rm.code, rm.stderr).toBe(0);
    expect(await writes()).toEqual([expect.objectContaining({ body: { accounts: [other.id] } })]);
    expect(emu.emu.state.squids[inf].accounts).toEqual([other.id]);
  });

  it('a writer that replaces the links right after ours: re-read, and our change sent once more on top of theirs', async () => {
    const inf = emu.squidId(DEMO_SQUIDS.influencers);
    const tw = account(DEMO_ACCOUNT_USERNAMES.twitter);
    const theirs = newAccount(emu.emu as EmuCore, 'twitter-sync', 'their_login', Date.now());
    const ours = newAccount(emu.emu as EmuCore, 'twitter-sync', 'our_login', Date.now());
    // The other writer: its full replace [theirs] lands just after our first write.
    const squid = emu.emu.state.squids[inf];
    let stored = squid.accounts as string[];
    let sets = 0;
    Object.defineProperty(squid, 'accounts', {
      configurable: true,
      enumerable: true,
      get: () => stored,
      set: (v) => {
        stored = ++sets === 1 ? [theirs.id] : v;
      },
    });
    const r = await sq(['squids', 'update', DEMO_SQUIDS.influencers, '--add-account', 'our_login'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    const posts = (await writes()).map((w) => w.body);
    expect(posts).toEqual([{ accounts: [tw.id, ours.id].sort() }, { accounts: [theirs.id, ours.id].sort() }]);
    expect([...stored].sort()).toEqual([theirs.id, ours.id].sort());
  });

  // Issue 46, 9: the last one won.
  it('--add-account and --remove-account of one account are exit 2: by the same name before any request, by two names before any write', async () => {
    const same = await sq(
      [
        'squids',
        'update',
        DEMO_SQUIDS.influencers,
        '--add-account',
        'demo_scraper',
        '--remove-account',
        'demo_scraper',
      ],
      { env: emu.env() },
    );
    expect(same.code, same.stderr).toBe(2);
    expect(same.stderr).toContain('--add-account and --remove-account both name "demo_scraper"');
    expect(await emu.requests()).toEqual([]);
    const tw = Object.values(emu.emu.state.accounts).find((a) => a.username === 'demo_scraper')!;
    const two = await sq(
      ['squids', 'update', DEMO_SQUIDS.influencers, '--add-account', 'demo_scraper', '--remove-account', String(tw.id)],
      { env: emu.env() },
    );
    expect(two.code, two.stderr).toBe(2);
    expect(two.stderr).toContain(`--add-account and --remove-account both name account ${tw.id}`);
    expect((await emu.requests()).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('--account with --add-account is exit 2 before any request (one replaces, the other changes)', async () => {
    const r = await sq(['squids', 'update', DEMO_SQUIDS.influencers, '--account', 'a', '--add-account', 'b'], {
      env: emu.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot be used together');
    expect(await emu.requests()).toEqual([]);
  });
});

describe("account type against the crawler's account_type (changelog: a crawler has account_type)", () => {
  it.each([['--add-account'], ['--account']])(
    '%s: a Sales Navigator login on a Twitter squid is exit 2 naming both types, before any write',
    async (flag) => {
      const r = await sq(['squids', 'update', DEMO_SQUIDS.influencers, flag, DEMO_ACCOUNT_USERNAMES.salesNav], {
        env: emu.env(),
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${flag}: account ${DEMO_ACCOUNT_USERNAMES.salesNav}`);
      expect(r.stderr).toContain(
        'is of type sales-nav-sync, but crawler "Twitter Profile Scraper" needs a twitter-sync account',
      );
      expect(await writes()).toEqual([]);
    },
  );

  it('an account on a crawler that uses none is exit 2', async () => {
    const r = await sq(['squids', 'update', DEMO_SQUIDS.paris, '--add-account', DEMO_ACCOUNT_USERNAMES.twitter], {
      env: emu.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('uses no platform account');
    expect(await writes()).toEqual([]);
  });
});
