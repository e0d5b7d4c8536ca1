// In-process: account verb validation (exit 2, zero requests), cookie file formats, confirmation, --dry-run.
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { firstAccount, parseCookies } from '../../src/api/accounts.js';
import { UsageError } from '../../src/errors.js';
import { tempFiles } from '../helpers/fs.js';

const emu = useEmulator({ each: 'clear' });
const file = tempFiles('sq-acc-unit-');

describe('validation happens before any request', () => {
  const good = file('good.json', '{"auth_token":"s3cr3t-value"}');
  it.each([
    [['accounts', 'sync', '--cookies-file', good], '--type is required'],
    [['accounts', 'sync', '--type', 'twitter-sync'], '--cookies-file is required'],
    [
      ['accounts', 'sync', '--type', 'twitter-sync', '--cookies-file', join(dirname(good), 'nope.json')],
      '--cookies-file: cannot read',
    ],
    [['accounts', 'sync', '--type', 'twitter-sync', '--cookies-file', file('empty.json', '  ')], 'the file is empty'],
    [
      ['accounts', 'sync', '--type', 'twitter-sync', '--cookies-file', file('bad.json', '{"a":')],
      'looks like JSON but does not parse',
    ],
    [
      ['accounts', 'sync', '--type', 'twitter-sync', '--cookies-file', file('junk.txt', 'just some words')],
      'not JSON and not a Netscape cookies.txt',
    ],
    [
      ['accounts', 'sync', '--type', 'twitter-sync', '--cookies-file', good, '--timeout', '1m'],
      '--timeout only applies with --wait',
    ],
    [
      ['accounts', 'sync', '--type', 'twitter-sync', '--cookies-file', good, '--wait', '--timeout', 'x'],
      '--timeout must be a duration',
    ],
    [['accounts', 'list', '--limit', '0'], '--limit must be an integer'],
    [['accounts', 'list', '--page', '-1'], '--page must be an integer'],
  ])('%j → exit 2', async (args, message) => {
    const r = await sq(args, { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain('s3cr3t-value');
    expect(await emu.requests()).toEqual([]);
  });
});

describe('cookie files', () => {
  it.each([
    ['JSON object', '{"li_at":"v1","n":5}', { li_at: 'v1', n: '5' }],
    [
      'browser export array',
      '[{"name":"li_at","value":"v1","domain":".linkedin.com"},{"name":"JSESSIONID","value":"\\"ajax:1\\""}]',
      { li_at: 'v1', JSESSIONID: '"ajax:1"' },
    ],
    [
      'Netscape cookies.txt',
      '# Netscape HTTP Cookie File\n\n.linkedin.com\tTRUE\t/\tTRUE\t1767225600\tli_at\tv1\n#HttpOnly_.linkedin.com\tTRUE\t/\tTRUE\t0\tbcookie\tv=2&x\r\n',
      { li_at: 'v1', bcookie: 'v=2&x' },
    ],
  ])('%s', (_label, text, expected) => {
    expect(parseCookies(text)).toEqual(expected);
  });

  it('errors name the cookie, never its value', () => {
    let err: unknown;
    try {
      parseCookies('{"li_at":{"nested":"top-secret"}}');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain('"li_at"');
    expect((err as Error).message).not.toContain('top-secret');
  });

  it.each([
    [
      { data: [{ id: 'a1', username: 'u' }], total_results: 1 },
      { id: 'a1', username: 'u' },
    ],
    [
      { id: 'a2', username: 'v' },
      { id: 'a2', username: 'v' },
    ],
    [[{ id: 'a3' }], { id: 'a3' }],
  ])('firstAccount(%j)', (body, expected) => {
    expect(firstAccount(body, 'x')).toEqual(expected);
  });
});

describe('confirmation and --dry-run', () => {
  const acc = 'ffffffffffffffffffffffffffffffff';
  it('delete without --yes and without a terminal: exit 2, zero requests', async () => {
    const r = await sq(['accounts', 'delete', acc], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    expect(await emu.requests()).toEqual([]);
  });

  it('delete --dry-run sends nothing', async () => {
    const r = await sq(['accounts', 'delete', acc, '--dry-run'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`DELETE /v1/accounts/${acc}\n`);
    expect(await emu.requests()).toEqual([]);
  });

  it('sync with --account refreshes: the id goes in the body', async () => {
    const r = await sq(
      [
        'accounts',
        'sync',
        '--type',
        'twitter-sync',
        '--cookies-file',
        file('r.json', '{"auth_token":"zz"}'),
        '--account',
        acc,
        '--dry-run',
        '--json',
      ],
      { env: emu.env() },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).requests[0].body).toEqual({ type: 'twitter-sync', cookies: '********', account: acc });
    expect(r.stdout).not.toContain('zz');
    expect(await emu.requests()).toEqual([]);
  });

  it('sync --account takes the 8-character prefix `accounts list` shows: looked up with a GET, the full id sent', async () => {
    const real = String((await emu.api('/v1/accounts')).data[0].id);
    await emu.clearRequests();
    const r = await sq(
      [
        'accounts',
        'sync',
        '--type',
        'twitter-sync',
        '--cookies-file',
        file('r.json', '{"auth_token":"zz"}'),
        '--account',
        real.slice(0, 8),
        '--dry-run',
        '--json',
      ],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).requests[0].body).toEqual({ type: 'twitter-sync', cookies: '********', account: real });
    expect((await emu.requests()).map((q) => q.method)).toEqual(['GET']);
  });

  it("sync --account with a --type that is not the account's: exit 2 naming both types, nothing written", async () => {
    const real = (await emu.api('/v1/accounts')).data.find((a: { type: string }) => a.type === 'twitter-sync');
    await emu.clearRequests();
    const r = await sq(
      [
        'accounts',
        'sync',
        '--type',
        'sales-nav-sync',
        '--cookies-file',
        file('r.json', '{"auth_token":"zz"}'),
        '--account',
        String(real.username),
      ],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--type sales-nav-sync');
    expect(r.stderr).toContain('of type twitter-sync');
    expect((await emu.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
  });
});
