// Untrusted input that shapes a request (issue 10, item 8): ids become single path segments, every duration and
// count has a stated maximum, the base URL is an origin the key may safely travel to, and --with-token reads at most
// 4 KiB. sq in-process against a real emulator (the checks are the CLI's logic; test/e2e/foundation.test.ts shows
// the built binary's exit 2 before any request); each refusal is exit 2 with nothing sent.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'clear' });

async function refused(args: string[], mention: string, opts: { env?: Record<string, string>; input?: string } = {}) {
  const r = await sq(args, { env: emu.env(opts.env), stdin: opts.input });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(mention);
  expect(await emu.requests()).toEqual([]);
  return r;
}

const ID_RULE = 'an id cannot be empty, "." or "..", or contain "/", "?" or "#"';

describe('ids are single path segments', () => {
  it.each([
    [['runs', 'get', '..'], 'run id ".."'],
    [['runs', 'get', '.'], 'run id "."'],
    [['runs', 'stats', '../squids'], 'run id "../squids"'],
    [['runs', 'tasks', 'a?b=1'], 'run id "a?b=1"'],
    [['runs', 'watch', 'x#y'], 'run id "x#y"'],
    [['runs', 'abort', '..', '--yes'], 'run id ".."'],
    [['runs', 'download', '..', '-o', '-'], 'run id ".."'],
    [['results', 'list', '--run', '..'], 'run id ".."'],
    [['tasks', 'get', '..'], 'task id ".."'],
    [['tasks', 'delete', '../../v1/squids', '--yes'], 'task id "../../v1/squids"'],
    [['tasks', 'upload-status', '..'], 'upload id ".."'],
  ])('%j is refused before any request', async (args, what) => {
    const r = await refused(args, what);
    expect(r.stderr).toContain(ID_RULE);
  });

  it('an ordinary id with odd characters is percent-encoded into one segment', async () => {
    const r = await sq(['runs', 'get', 'a b%c'], { env: emu.env() });
    expect(r.code).toBe(3);
    expect((await emu.requests()).map((q) => q.path)).toEqual([
      expect.stringMatching(/^\/v1\/runs\/a(%20| )b(%25|%)c$/),
    ]);
  });
});

describe('every duration and count has a stated maximum', () => {
  it.each([
    [['runs', 'watch', 'abc', '--interval', '2h'], '--interval must be a duration like 30s, 10m or 2h of at most 1h'],
    [['runs', 'watch', 'abc', '--timeout', '8d'], '--timeout must be a duration like 30s, 10m or 2h of at most 7d'],
    [
      ['runs', 'start', '--squid', DEMO_SQUIDS.paris, '--wait', '--timeout', '100000h'],
      '--timeout must be a duration like 30s, 10m or 2h of at most 7d',
    ],
    [['runs', 'start', '--squid', DEMO_SQUIDS.paris, '--wait', '--interval', '99999999'], 'of at most 1h'],
    [
      ['tasks', 'upload', '--squid', DEMO_SQUIDS.paris, 'x.csv', '--wait', '--timeout', '30d'],
      '--timeout must be a duration like 30s, 10m or 2h of at most 7d',
    ],
    [
      ['accounts', 'sync', '--type', 't', '--cookies-file', '-', '--wait', '--timeout', '8d'],
      '--timeout must be a duration like 30s, 10m or 2h of at most 7d',
    ],
    [['squids', 'list', '--limit', '1000001'], '--limit must be an integer from 1 to 1000000'],
    [
      ['runs', 'list', '--squid', DEMO_SQUIDS.paris, '--page', '1000001'],
      '--page must be an integer from 1 to 1000000',
    ],
  ])('%j → exit 2, nothing sent', async (args, mention) => {
    await refused(args, mention);
  });

  it('SQ_*_TIMEOUT variables are bounded too', async () => {
    await refused(['me'], 'SQ_HEADERS_TIMEOUT must be a duration like 30s, 2m or 1500ms, at most 1h', {
      env: { SQ_HEADERS_TIMEOUT: '2h' },
    });
  });

  it('the maxima are in --help', async () => {
    const start = await sq(['runs', 'start', '--help']);
    expect(start.stdout).toMatch(/--timeout <duration>\s+give up waiting after this long, at most 7d/);
    expect(start.stdout).toMatch(/--interval <duration>\s+time between polls, at most 1h/);
    const list = await sq(['squids', 'list', '--help']);
    expect(list.stdout).toContain('at most 1000000');
  });

  it('the largest allowed values are accepted', async () => {
    const r = await sq(['squids', 'list', '--limit', '1000000', '--json'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('the base URL', () => {
  it('user info is refused, and not echoed', async () => {
    const url = emu.baseUrl.replace('http://', 'http://me:Pa55-secret@');
    const r = await refused(['me', '--base-url', url], '--base-url must not contain a user name or password');
    expect(r.stderr).not.toContain('Pa55-secret');
  });

  it.each([`?token=abc`, `/#frag`, `/v1?x=1`])('a query or fragment (%s) is refused', async (suffix) => {
    await refused(['me', '--base-url', emu.baseUrl + suffix], '--base-url must be the API origin alone');
  });

  it('plain http:// to a host other than loopback is refused without --insecure-http, from any source', async () => {
    await refused(
      ['me', '--base-url', 'http://api.example.com'],
      '--base-url: plain http:// to api.example.com would send the API key unencrypted',
    );
    await refused(['me'], 'SQ_BASE_URL: plain http:// to 10.1.2.3', { env: { SQ_BASE_URL: 'http://10.1.2.3:8787' } });
    const r = await refused(['me'], '--insecure-http', { env: { SQ_BASE_URL: 'http://[fe80::1]:8787' } });
    expect(r.stderr).toContain('SQ_INSECURE_HTTP=1');
  });

  it('--insecure-http (or SQ_INSECURE_HTTP=1) allows it; https and loopback need nothing', async () => {
    const hash = emu.squidId(DEMO_SQUIDS.paris);
    const plan = ['squids', 'delete', hash, '--dry-run', '--json'];
    for (const [args, env] of [
      [['--insecure-http', '--base-url', 'http://api.example.com', ...plan], {}],
      [[...plan, '--base-url', 'http://api.example.com'], { SQ_INSECURE_HTTP: '1' }],
      [[...plan, '--base-url', 'https://api.example.com'], {}],
      [[...plan, '--base-url', 'http://localhost:1'], {}],
    ] as const) {
      const r = await sq([...args], { env: emu.env(env) });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ dry_run: true, requests: [{ method: 'DELETE' }] });
    }
    expect(await emu.requests()).toEqual([]);
  });
});

describe('auth login --with-token', () => {
  it('reads at most 4 KiB, and echoes none of a longer input', async () => {
    const r = await refused(['auth', 'login', '--with-token'], '--with-token: the key on stdin is longer than 4 KiB', {
      input: `${'k3y'.repeat(1366)}\n`,
    });
    expect(r.stderr).not.toContain('k3yk3y');
  });

  it('a key of exactly 4 KiB is still read (and checked by the API)', async () => {
    const r = await sq(['auth', 'login', '--with-token'], {
      env: { SQ_BASE_URL: emu.baseUrl },
      stdin: 'k'.repeat(4096),
    });
    expect(r.code).toBe(4);
    expect((await emu.requests()).map((q) => q.path)).toEqual(['/v1/me']);
  });
});
