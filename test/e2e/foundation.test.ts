// The core's promises against a real emulator on loopback: each exit code from a real situation, pacing on 429,
// safe-only retries, redaction, profile file modes. sq runs in-process (sqIn: these are the CLI's own logic), but for
// a few shown with the built binary as well (sqBin: no key, a login storing its profile, options on both sides).
// What a stored profile gives the calls after it is in-process too: each built-binary call is ~0.2 s of CPU.
import { beforeAll, describe, expect, it } from 'vitest';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { sqBin, sqIn, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { ndjson } from '../helpers/json.js';

const emu = useEmulator({ each: 'clear' });
let squidId: string;
beforeAll(() => {
  squidId = emu.squidId(DEMO_SQUIDS.paris);
});

describe('exit codes from real situations', () => {
  it('no key → 4, and nothing is sent', async () => {
    const r = await sqBin(['me'], { env: { SQ_BASE_URL: emu.baseUrl } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('no API key');
    expect(await emu.requests()).toHaveLength(0);
  });

  it('a rejected key → 4 with the API message', async () => {
    const r = await sqIn(['me'], { env: emu.env({ SQ_TOKEN: 'wrong-key-1234' }) });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/Invalid token|credentials/);
    expect(r.stderr).not.toContain('wrong-key-1234');
  });

  it.each([
    [['me', '--bogus']],
    [['api', '/v1/me', '-X', 'BREW']],
    [['api', '/v1/me', '--format', 'xml']],
    [['--json', '--format', 'csv', 'me']],
    [['api', '/v1/squids', '-f', 'novalue']],
  ])('bad flags %j → 2 before any request', async (args) => {
    const r = await sqIn(args, { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr.length).toBeGreaterThan(0);
    expect(await emu.requests()).toHaveLength(0);
  });

  it('an unknown --flag=value → 2, naming the flag without echoing the value (it may be a key)', async () => {
    const r = await sqIn(['auth', 'login', '--token=sk_live_DoNotEcho1234'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--token=…'");
    expect(r.stderr).not.toContain('DoNotEcho');
    expect(await emu.requests()).toHaveLength(0);
  });

  it('unknown id → 3', async () => {
    const r = await sqIn(['api', '/v1/runs/00000000000000000000000000000000'], { env: emu.env() });
    expect(r.code).toBe(3);
  });

  // reliability.md: "Retry only what is safe: GET/HEAD/DELETE on 502/503/504, connection reset, or timeout". The
  // retries, their back-off and the 429 waits run in-process on a fake clock: test/commands/retry-faults.test.ts.
  it('a 500 on GET is not retried (the spec retries only 502/503/504) → 1 after one request', async () => {
    await emu.faults([{ method: 'GET', path: '/v1/me', action: 'status', status: 500 }]);
    const r = await sqIn(['me'], { env: emu.env() });
    expect(r.code).toBe(1);
    expect((await emu.requests()).filter((q) => q.path === '/v1/me')).toHaveLength(1);
  });

  it('an HTML error page becomes a clear message, not a stack trace', async () => {
    emu.expectWrites('POST /v1/squids');
    await emu.faults([{ method: 'POST', path: '/v1/squids', action: 'html', status: 502 }]);
    const r = await sqIn(['api', '/v1/squids', '-X', 'POST', '-f', 'crawler=x'], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('HTTP 502');
    expect(r.stderr).toContain('HTML');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('pacing and retries', () => {
  it('a POST is not retried after a reset mid-response, and says the outcome is unknown', async () => {
    await emu.faults([{ method: 'POST', path: '/v1/runs', action: 'reset_mid_body', count: 1 }]);
    const r = await sqIn(['api', '/v1/runs', '-X', 'POST', '-f', `squid=${squidId}`], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/may have reached the server/);
    expect((await emu.requests()).filter((q) => q.method === 'POST' && q.path === '/v1/runs')).toHaveLength(1);
    // It did reach the server: a run exists. A retry would have started a second one.
    const runs = (await emu.api(`/v1/runs?squid=${squidId}&limit=100`)) as { data: { status: string }[] };
    expect(runs.data.filter((x) => !['done', 'error', 'aborted'].includes(x.status))).toHaveLength(1);
  });

  it('a GET is retried after a connection reset', async () => {
    await emu.faults([{ method: 'GET', path: '/v1/me', action: 'reset', count: 1 }]);
    const r = await sqIn(['me', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
  });
});

describe('secrets', () => {
  it('the key and an SFTP password never appear in --verbose output', async () => {
    emu.expectWrites('POST /v1/delivery');
    const dir = tempDir('sq-body-');
    const password = 'Hunter2-very-secret-pw';
    const body = join(dir, 'body.json');
    writeFileSync(
      body,
      JSON.stringify({
        ftp_fields: { host: '127.0.0.1', port: 22, username: 'u', password, directory: '/up', is_active: false },
      }),
    );
    const r = await sqIn(['api', `/v1/delivery?squid=${squidId}`, '--input', body, '-v'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('> POST');
    expect(r.stderr).toContain(`Token ****${emu.token.slice(-4)}`);
    for (const s of [r.stdout, r.stderr]) {
      expect(s).not.toContain(emu.token);
      expect(s).not.toContain(password);
    }
    const shown = await sqIn(['api', `/v1/delivery?squid=${squidId}`, '--input', body, '--show-secrets'], {
      env: emu.env(),
    });
    expect(shown.stdout).toContain(password);
  });
});

describe('profiles', () => {
  it('login --with-token checks the key, stores it 0600 in a 0700 dir; status masks it', async () => {
    const cfg = tempConfigDir();
    const env = { SQ_CONFIG_DIR: join(cfg, 'sq'), SQ_BASE_URL: emu.baseUrl };
    const login = await sqBin(['auth', 'login', '--with-token'], { env, input: `${emu.token}\n` });
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('demo@sq-emulator.local');
    expect(statSync(join(cfg, 'sq')).mode & 0o777).toBe(0o700);
    expect(statSync(join(cfg, 'sq', 'config.json')).mode & 0o777).toBe(0o600);

    // What the stored profile gives the calls after it is the CLI's logic: in-process.
    const status = await sqIn(['auth', 'status', '--json'], { env: { SQ_CONFIG_DIR: join(cfg, 'sq') } });
    expect(status.code).toBe(0);
    const s = JSON.parse(status.stdout);
    expect(s).toMatchObject({
      profile: 'default',
      base_url: emu.baseUrl,
      key_source: 'profile',
      key: `****${emu.token.slice(-4)}`,
      user: 'demo@sq-emulator.local',
      status: 'valid',
    });
    expect(status.stdout).not.toContain(emu.token);

    const me = await sqIn(['me', '--json'], { env: { SQ_CONFIG_DIR: join(cfg, 'sq') } });
    expect(me.code).toBe(0);

    const bad = await sqIn(['auth', 'status'], {
      env: { SQ_CONFIG_DIR: join(cfg, 'sq'), SQ_TOKEN: 'rejected-key-9999' },
    });
    expect(bad.code).toBe(4);
    expect(bad.stdout).toContain('env (SQ_TOKEN)');
    expect(bad.stdout).not.toContain('rejected-key-9999');
  });

  it('login refuses a wrong key and saves nothing', async () => {
    const cfg = tempConfigDir();
    const r = await sqIn(['auth', 'login', '--with-token'], {
      env: { SQ_CONFIG_DIR: cfg, SQ_BASE_URL: emu.baseUrl },
      input: 'nope-nope-nope\n',
    });
    expect(r.code).toBe(4);
    const list = await sqIn(['profiles', 'list', '--json'], { env: { SQ_CONFIG_DIR: cfg } });
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('profiles: switch, list, remove', async () => {
    const cfg = tempConfigDir();
    const env = { SQ_CONFIG_DIR: cfg, SQ_BASE_URL: emu.baseUrl };
    await sqIn(['auth', 'login', '--with-token', '--profile', 'a'], { env, input: emu.token });
    await sqIn(['auth', 'login', '--with-token', '--profile', 'b'], { env, input: emu.token });
    expect((await sqIn(['auth', 'switch', 'a'], { env })).code).toBe(0);
    const list = JSON.parse((await sqIn(['profiles', 'list', '--json'], { env })).stdout) as {
      name: string;
      active: boolean;
    }[];
    expect(list.map((p) => [p.name, p.active])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect((await sqIn(['auth', 'switch', 'nope'], { env })).code).toBe(3);
    expect((await sqIn(['profiles', 'remove', 'b', '--yes'], { env })).code).toBe(0);
    expect(JSON.parse((await sqIn(['profiles', 'list', '--json'], { env })).stdout)).toHaveLength(1);
  });

  it('no --token flag exists: keys never go on argv', async () => {
    const r = await sqIn(['me', '--token', 'abc'], { env: emu.env() });
    expect(r.code).toBe(2);
  });
});

describe('me, balance, api', () => {
  it('global options work before and after the subcommand', async () => {
    const a = await sqBin(['--json', 'me'], { env: emu.env() });
    const b = await sqBin(['me', '--json'], { env: emu.env() });
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual(JSON.parse(b.stdout));
  });

  it('balance adds remaining = available - consumed', async () => {
    const r = await sqIn(['balance', '--json'], { env: emu.env() });
    const b = JSON.parse(r.stdout);
    expect(b.remaining).toBe(b.available - b.consumed);
    const tsv = await sqIn(['balance', '--fields', 'available,consumed,remaining'], { env: emu.env() });
    expect(tsv.stdout.trim().split('\n')).toEqual([
      'available\tconsumed\tremaining',
      `${b.available}\t${b.consumed}\t${b.remaining}`,
    ]);
  });

  it('errors are one JSON object on stderr with --json', async () => {
    const r = await sqIn(['api', '/v1/squids/ffffffffffffffffffffffffffffffff', '--json'], { env: emu.env() });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    const e = JSON.parse(r.stderr);
    expect(e.error).toMatchObject({ code: 3, status: 404, retry_after: null });
    expect(typeof e.error.message).toBe('string');
  });

  it('api --paginate reads every page exactly once', async () => {
    const r = await sqIn(['api', '/v1/crawlers', '--paginate', '--format', 'ndjson'], { env: emu.env() });
    expect(r.code).toBe(0);
    const all = (await emu.api('/v1/crawlers?limit=100')) as { total_results: number };
    expect(r.stdout.trim().split('\n')).toHaveLength(all.total_results);
    const pagesAsked = (await emu.requests())
      .filter((q) => q.path === '/v1/crawlers')
      .map((q) => (q.query as Record<string, string>).page);
    expect(new Set(pagesAsked).size).toBe(pagesAsked.length);
  });

  it('api --dry-run sends nothing and masks secrets', async () => {
    const r = await sqIn(
      ['api', `/v1/delivery?squid=${squidId}`, '-X', 'POST', '-F', 'ftp_fields={"password":"pw-123456"}', '--dry-run'],
      { env: emu.env() },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('POST /v1/delivery');
    expect(r.stdout).not.toContain('pw-123456');
    expect(await emu.requests()).toHaveLength(0);
  });
});

describe('api --paginate with fields', () => {
  it('fields become query parameters of a GET, page after page', async () => {
    const r = await sqIn(['api', '/v1/runs', '-f', `squid=${squidId}`, '--paginate', '--format', 'ndjson'], {
      env: emu.env(),
    });
    expect(r.code).toBe(0);
    const runs = ndjson<{ squid: string }>(r.stdout);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((x) => x.squid === squidId)).toBe(true);
    const reqs = await emu.requests();
    expect(reqs.length).toBeGreaterThan(0);
    expect(reqs.every((q) => q.method === 'GET' && q.path === '/v1/runs')).toBe(true);
    expect((reqs[0].query as Record<string, string>).squid).toBe(squidId);
  });
});
