// sq export / plan / apply and a squid's linked accounts: export writes them, plan compares them as a set (ids,
// usernames and id prefixes in the file), apply sends {accounts:[…]}, and an unknown reference stops everything.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { schemaText } from '../../src/account/write-schema.js';
import { DEMO_ACCOUNT_USERNAMES, DEMO_SQUIDS, newAccount } from '../../src/emulator/seed.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });
const dir = tempDir('sq-links-code-');
let n = 0;

function file(doc: unknown): string {
  const p = join(dir, `f${++n}.yaml`);
  writeFileSync(p, typeof doc === 'string' ? doc : stringify(doc));
  return p;
}
const run = (args: string[]) => sq(args, { env: emu.env() });
const writes = async () => (await emu.requests()).filter((r) => r.method !== 'GET');
const accountId = (username: string) =>
  String(Object.values(emu.emu.state.accounts).find((a) => a.username === username)!.id);
async function plan(doc: unknown): Promise<J> {
  const r = await run(['plan', '-f', file(doc), '--json']);
  expect(r.stderr).not.toContain('error');
  return JSON.parse(r.stdout);
}

describe('export', () => {
  it('writes the linked accounts of a squid by id (none: no key); the file passes the shipped schema; plan of it shows no change', async () => {
    const r = await run(['export']);
    expect(r.code, r.stderr).toBe(0);
    const doc = parse(r.stdout);
    expect(doc.squids[DEMO_SQUIDS.influencers].accounts).toEqual([accountId(DEMO_ACCOUNT_USERNAMES.twitter)]);
    expect(doc.squids[DEMO_SQUIDS.paris]).not.toHaveProperty('accounts');
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validate(JSON.parse(schemaText()), doc), JSON.stringify(ajv.errors)).toBe(true);
    expect((await plan(r.stdout)).items).toEqual([]);
  });
});

describe('plan and apply', () => {
  it('links accounts named by username and id prefix; apply sends them; the next plan shows no change', async () => {
    const inf = emu.squidId(DEMO_SQUIDS.influencers);
    await emu.api(`/v1/squids/${inf}`, { method: 'POST', body: { accounts: [] } });
    const tw = accountId(DEMO_ACCOUNT_USERNAMES.twitter);
    const tw2 = String(
      newAccount(emu.emu as unknown as Parameters<typeof newAccount>[0], 'twitter-sync', 'second_feed', Date.now()).id,
    );
    const doc = {
      squids: { [DEMO_SQUIDS.influencers]: { accounts: [tw2.slice(0, 8), DEMO_ACCOUNT_USERNAMES.twitter] } },
    };
    const p = await plan(doc);
    expect(p.items).toHaveLength(1);
    expect(p.items[0]).toMatchObject({
      kind: 'squid',
      action: 'update',
      id: inf,
      changes: [{ field: 'accounts', from: [], to: [tw, tw2].sort() }],
    });
    await emu.clearRequests();
    const a = await run(['apply', '-f', file(doc), '--yes']);
    expect(a.code, a.stderr).toBe(0);
    expect(await writes()).toEqual([
      expect.objectContaining({ method: 'POST', path: `/v1/squids/${inf}`, body: { accounts: [tw, tw2].sort() } }),
    ]);
    expect((await plan(doc)).items).toEqual([]);
  });

  it(
    "an account whose type is not the crawler's account_type is exit 2 naming both types, before " +
      "any write (changelog: account health, a crawler's account_type)",
    async () => {
      const sn = accountId(DEMO_ACCOUNT_USERNAMES.salesNav);
      const docs = [
        { squids: { [DEMO_SQUIDS.influencers]: { accounts: [DEMO_ACCOUNT_USERNAMES.salesNav] } } },
        { squids: { 'New feed': { crawler: 'twitter-profile-scraper', accounts: [DEMO_ACCOUNT_USERNAMES.salesNav] } } },
      ];
      for (const doc of docs) {
        for (const cmd of ['plan', 'apply']) {
          const r = await run([cmd, '-f', file(doc), '--yes']);
          expect([cmd, r.code]).toEqual([cmd, 2]);
          expect(r.stderr).toContain(
            `account ${DEMO_ACCOUNT_USERNAMES.salesNav} (${sn}) is of type sales-nav-sync, but crawler "Twitter Profile Scraper" needs a twitter-sync account`,
          );
        }
      }
      const paris = { squids: { [DEMO_SQUIDS.paris]: { accounts: [DEMO_ACCOUNT_USERNAMES.twitter] } } };
      const r = await run(['apply', '-f', file(paris), '--yes']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /crawler "Google Maps Search Export" uses no platform account, so account \S+ \(\w+\) of type twitter-sync cannot be linked/,
      );
      expect(await writes()).toEqual([]);
    },
  );

  it('the order of the list is no change; [] unlinks every account', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const inf = emu.squidId(DEMO_SQUIDS.influencers);
    const tw = accountId(DEMO_ACCOUNT_USERNAMES.twitter);
    expect(
      (await plan({ squids: { [DEMO_SQUIDS.influencers]: { accounts: [DEMO_ACCOUNT_USERNAMES.twitter] } } })).items,
    ).toEqual([]);
    const doc = { squids: { [DEMO_SQUIDS.influencers]: { accounts: [] } } };
    expect((await plan(doc)).items[0].changes).toEqual([{ field: 'accounts', from: [tw], to: [] }]);
    const a = await run(['apply', '-f', file(doc), '--yes']);
    expect(a.code, a.stderr).toBe(0);
    expect(emu.emu.state.squids[inf].accounts).toEqual([]);
  });

  it('a new squid gets its accounts in the update that follows its creation', async () => {
    const tw = accountId(DEMO_ACCOUNT_USERNAMES.twitter);
    const doc = {
      squids: { 'New feed': { crawler: 'twitter-profile-scraper', accounts: [DEMO_ACCOUNT_USERNAMES.twitter] } },
    };
    const p = await plan(doc);
    expect(p.items[0]).toMatchObject({
      action: 'create',
      changes: [{ field: 'crawler' }, { field: 'accounts', from: null, to: [tw] }],
    });
    await emu.clearRequests();
    const a = await run(['apply', '-f', file(doc), '--yes']);
    expect(a.code, a.stderr).toBe(0);
    const w = await writes();
    expect(w.map((x) => `${x.method} ${x.path}`)).toEqual([
      'POST /v1/squids',
      `POST /v1/squids/${emu.squidId('New feed')}`,
    ]);
    expect(w[1].body).toEqual({ accounts: [tw] });
  });

  it('an account the file names that does not exist is exit 2 at its line, and nothing is sent', async () => {
    const text = `squids:\n  ${DEMO_SQUIDS.paris}:\n    accounts:\n      - ${DEMO_ACCOUNT_USERNAMES.twitter}\n      - ghost_user\n`;
    const path = file(text);
    for (const cmd of ['plan', 'apply']) {
      const r = await run([cmd, '-f', path, '--yes']);
      expect([cmd, r.code]).toEqual([cmd, 2]);
      expect(r.stderr).toContain(
        `${path}:5:9: squids."${DEMO_SQUIDS.paris}".accounts[1]: no account has the id, username or id prefix "ghost_user"`,
      );
    }
    expect(await writes()).toEqual([]);
  });
});
