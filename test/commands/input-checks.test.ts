// Bad input found in review: each is exit 2 with a message naming the flag (or variable), before any request; and a
// server error on a write is reported as what it is, a write that may have happened.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'clear' });

async function usage(args: string[], env: Record<string, string> = {}, mention: string) {
  const r = await sq(args, { env: emu.env(env) });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(mention);
  expect(await emu.requests()).toHaveLength(0);
  return r;
}

describe('exit 2 naming the flag, before any request', () => {
  it('--base-url and SQ_BASE_URL must be http(s) URLs', async () => {
    await usage(['me', '--base-url', 'notaurl'], {}, '--base-url must be an http(s) URL');
    await usage(['me'], { SQ_BASE_URL: 'ftp://example.com' }, 'SQ_BASE_URL must be an http(s) URL');
  });

  it('runs start: --timeout and --interval only apply with --wait', async () => {
    await usage(
      ['runs', 'start', '--squid', DEMO_SQUIDS.paris, '--timeout', '1m'],
      {},
      '--timeout only applies with --wait',
    );
    await usage(
      ['runs', 'start', '--squid', DEMO_SQUIDS.paris, '--interval', '10s'],
      {},
      '--interval only applies with --wait',
    );
  });

  it('delivery test sftp: a blank --host is refused before the stored configuration is read', async () => {
    await usage(
      ['delivery', 'test', 'sftp', '--squid', DEMO_SQUIDS.paris, '--host', ' ', '--password-env', 'PW'],
      { PW: 'x-secret-1' },
      '--host',
    );
  });

  it('a secret typed as a flag is refused as the command line is parsed, whatever else is missing', async () => {
    const r = await usage(['delivery', 'sftp', '--password=Hunter2-secret'], {}, '--password is not accepted');
    expect(r.stderr).not.toContain('Hunter2');
  });

  it('SQ_BODY_TIMEOUT=0 is refused: undici would take 0 as "no timeout"', async () => {
    await usage(['me'], { SQ_BODY_TIMEOUT: '0' }, 'SQ_BODY_TIMEOUT');
  });
});

describe('output and errors', () => {
  it('sq api --json honours --fields, like every other command', async () => {
    const r = await sq(['api', '/v1/me', '--json', '--fields', 'email'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['email']);
  });

  it('a 5xx on POST /v1/runs is a write that may have happened: the recent runs are listed, nothing is retried', async () => {
    await emu.faults([{ method: 'POST', path: '/v1/runs', action: 'status', status: 502, count: 1 }]);
    const r = await sq(['runs', 'start', '--squid', DEMO_SQUIDS.paris], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('may have started');
    expect(r.stderr).toMatch(/Most recent runs of squid|is listed yet/);
    const got = await emu.requestLines();
    expect(got.filter((x) => x === 'POST /v1/runs')).toHaveLength(1);
    expect(got.at(-1)).toBe('GET /v1/runs');
  });

  it('HEAD answers with an empty body and succeeds', async () => {
    const r = await sq(['api', '/v1/me', '-X', 'HEAD'], { env: emu.env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
