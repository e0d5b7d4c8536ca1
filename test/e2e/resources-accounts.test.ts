// sq against the emulator: every account verb; cookie values must never reach stdout or stderr. In-process
// (against: the requests and output are the CLI's own), but for sync --wait, run by the built binary.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { against } from '../helpers/bin.js';
import { DEMO_ACCOUNT_USERNAMES } from '../../src/emulator/seed.js';
import { tempDir } from '../helpers/fs.js';

const emu = useEmulator({ each: 'reset' });
const { run, calls, runAdvancing } = against(emu);
let twitter: string;
const dir = tempDir('sq-acc-');
const SECRET_A = 'auth-token-value-ABC123';
const SECRET_B = 'ct0-value-XYZ789';

beforeEach(() => {
  twitter = String(
    Object.values(emu.emu.state.accounts).find((a) => a.username === DEMO_ACCOUNT_USERNAMES.twitter)!.id,
  );
});

describe('sq accounts', () => {
  it('list prints id first', async () => {
    const r = await run('accounts', 'list', '--fields', 'id,username,type,status');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${twitter}\tdemo_scraper\ttwitter-sync\t200\n`);
    expect(await calls()).toEqual([
      { method: 'GET', path: '/v1/accounts', query: { page: '1', limit: '30' }, body: null },
    ]);
  });

  it('get reads the one-element envelope and prints the account itself', async () => {
    const r = await run('accounts', 'get', twitter, '--json');
    expect(r.code).toBe(0);
    const a = JSON.parse(r.stdout);
    expect(a).toMatchObject({ id: twitter, username: 'demo_scraper', type: 'twitter-sync' });
    expect(a.data).toBeUndefined();
    expect(await calls()).toEqual([{ method: 'GET', path: `/v1/accounts/${twitter}`, query: {}, body: null }]);
  });

  it('get of an unknown account exits 3', async () => {
    const r = await run('accounts', 'get', 'ffffffffffffffffffffffffffffffff');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Not found');
  });

  it('types lists names with their cookies (names are not secrets)', async () => {
    const r = await run('accounts', 'types', '--fields', 'name,domain,cookies');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('name\tdomain\tcookies');
    expect(r.stdout).toContain('twitter-sync\tTwitter\tauth_token*, ct0*\n');
    expect((await calls()).map((c) => c.path)).toEqual(['/v1/accounts/types']);
  });

  it('types falls back to /v1/account_types when /v1/accounts/types is 404', async () => {
    await emu.faults([{ method: 'GET', path: '/v1/accounts/types', action: 'status', status: 404 }]);
    const r = await run('accounts', 'types', '--fields', 'name');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('name\nfacebook-sync\nsales-nav-sync\ntwitter-sync\n');
    expect((await emu.requests()).map((q) => `${q.status} ${q.path}`)).toEqual([
      '404 /v1/accounts/types',
      '200 /v1/account_types',
    ]);
  });

  it('sync --wait posts type and cookies, waits for 200, never prints a cookie value', async () => {
    const f = join(dir, 'c.json');
    writeFileSync(f, JSON.stringify({ auth_token: SECRET_A, ct0: SECRET_B }));
    const r = await runAdvancing([
      'accounts',
      'sync',
      '--type',
      'twitter-sync',
      '--cookies-file',
      f,
      '--wait',
      '--verbose',
      '--fields',
      'status_code,status_text',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('status_code\tstatus_text\n200\tsynchronized\n');
    for (const s of [SECRET_A, SECRET_B]) {
      expect(r.stdout).not.toContain(s);
      expect(r.stderr).not.toContain(s);
    }
    const reqs = await emu.requests();
    const post = reqs.find((q) => q.method === 'POST')!;
    expect(post.path).toBe('/v1/accounts/cookies');
    expect((post.body as { type: string }).type).toBe('twitter-sync');
    // The emulator received the real cookies: the account it created exists now.
    const created = Object.values(emu.emu.state.accounts).filter((a) => a.type === 'twitter-sync');
    expect(created).toHaveLength(2);
    expect(reqs.filter((q) => q.path.startsWith('/v1/synchronize/')).length).toBeGreaterThanOrEqual(1);
  });

  it('sync from a Netscape cookies.txt with an empty required cookie is refused at once (400): exit 1', async () => {
    emu.expectWrites('POST /v1/accounts/cookies');
    const f = join(dir, 'cookies.txt');
    writeFileSync(
      f,
      `# Netscape HTTP Cookie File\n.x.com\tTRUE\t/\tTRUE\t0\tauth_token\t${SECRET_A}\n#HttpOnly_.x.com\tTRUE\t/\tTRUE\t0\tct0\t\n`,
    );
    const r = await runAdvancing([
      'accounts',
      'sync',
      '--type',
      'twitter-sync',
      '--cookies-file',
      f,
      '--wait',
      '--fields',
      'status_code',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Invalid account type or missing required cookies.');
    expect(r.stderr).not.toContain(SECRET_A);
  });

  it('sync --dry-run shows cookie names only, even with --show-secrets, and sends nothing', async () => {
    const f = join(dir, 'c2.json');
    writeFileSync(f, JSON.stringify({ auth_token: SECRET_A }));
    const r = await run(
      'accounts',
      'sync',
      '--type',
      'twitter-sync',
      '--cookies-file',
      f,
      '--dry-run',
      '--show-secrets',
      '--json',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      dry_run: true,
      requests: [
        {
          method: 'POST',
          path: '/v1/accounts/cookies',
          body: { type: 'twitter-sync', cookies: { auth_token: '********' } },
        },
      ],
    });
    expect(await calls()).toEqual([]);
  });

  it('delete --yes deletes the account', async () => {
    const r = await run('accounts', 'delete', twitter, '--yes', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: twitter, object: 'account', deleted: true });
    expect(await calls()).toEqual([{ method: 'DELETE', path: `/v1/accounts/${twitter}`, query: {}, body: null }]);
  });
});

describe('accounts by username or id prefix', () => {
  it('get resolves the exact username, then reads that account', async () => {
    const r = await run('accounts', 'get', DEMO_ACCOUNT_USERNAMES.twitter, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(twitter);
    const paths = (await calls()).map((c) => c.path);
    expect(paths).toEqual(['/v1/accounts', `/v1/accounts/${twitter}`]);
  });

  it('get takes a unique id prefix; an unknown name is exit 3', async () => {
    const r = await run('accounts', 'get', twitter.slice(0, 8), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(twitter);
    expect((await run('accounts', 'get', 'nobody_here')).code).toBe(3);
  });

  it('delete by username names the account and deletes exactly that id', async () => {
    const r = await run('accounts', 'delete', DEMO_ACCOUNT_USERNAMES.twitter, '--yes');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Deleted account ${DEMO_ACCOUNT_USERNAMES.twitter} (${twitter})`);
    expect((await calls()).filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      `/v1/accounts/${twitter}`,
    ]);
  });
});
