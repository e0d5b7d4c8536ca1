// Smaller gaps in input checks (issue 25, item 11): each is exit 2 naming the flag, before any request. sq
// in-process against a real emulator (the built binary's exit 2: test/e2e/foundation.test.ts).
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'clear' });

async function refused(args: string[], mention: string) {
  const r = await sq(args, { env: emu.env() });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(mention);
  expect(await emu.requests()).toEqual([]);
  return r;
}

describe('sq api paths with "." or ".." segments', () => {
  it.each(['/v1/../x', '/v1/%2e%2e/x', '/v1/%2E%2e/squids', 'runs/./x', '/v1/squids/..', '/v1/.%2E/me?x=1'])(
    '%s is refused',
    async (path) => {
      await refused(['api', path], `<path> ${JSON.stringify(path)} has a`);
    },
  );

  it('dots inside a segment are fine', async () => {
    const r = await sq(['api', '/v1/squids/a..b'], { env: emu.env() });
    expect(r.code).toBe(3);
    expect((await emu.requests()).map((q) => q.path)).toEqual(['/v1/squids/a..b']);
  });
});

describe('sq api -H with a header the HTTP client refuses', () => {
  it.each([
    ['Transfer-Encoding: chunked', 'transfer-encoding'],
    ['Upgrade: websocket', 'upgrade'],
    ['Keep-Alive: 5', 'keep-alive'],
    ['Expect: 100-continue', 'expect'],
    ['Connection: upgrade', 'connection'],
    ['Host: elsewhere.example', 'host'],
    ['Content-Length: 5', 'content-length'],
  ])('%s → exit 2 naming the header', async (header, name) => {
    await refused(['api', '/v1/me', '-H', header], `-H/--header ${name}: sq's HTTP client sets this header itself`);
  });

  it('a value beyond Latin-1 is exit 2 naming the header, without echoing the value', async () => {
    const r = await refused(
      ['api', '/v1/me', '-H', 'X-Note: caf€-secret'],
      '-H/--header x-note: a value can hold only',
    );
    expect(r.stderr).not.toContain('secret');
  });

  it('an ordinary header still goes through', async () => {
    const r = await sq(['api', '/v1/me', '-H', 'Accept-Language: fr', '-H', 'X-Tag: café'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('empty global values', () => {
  it('--profile "" is exit 2, not the active profile', async () => {
    await refused(['me', '--profile', ''], '--profile must be a profile name');
  });

  it('--base-url "" is exit 2, not SQ_BASE_URL or the default', async () => {
    await refused(['me', '--base-url', ''], '--base-url');
  });

  it('an empty SQ_PROFILE is still an unset one', async () => {
    const r = await sq(['me', '--json'], { env: emu.env({ SQ_PROFILE: '' }) });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('squid names and parameters', () => {
  it('a 100,000-character --name is exit 2 stating the cap (255 characters)', async () => {
    await refused(
      ['squids', 'create', '--crawler', 'google-maps-search-export', '--name', 'n'.repeat(100_000)],
      '--name must be at most 255 characters (got 100000)',
    );
    await refused(
      ['squids', 'update', DEMO_SQUIDS.paris, '--name', 'n'.repeat(256)],
      '--name must be at most 255 characters (got 256)',
    );
  });

  it('a --name with a control character is exit 2', async () => {
    await refused(
      ['squids', 'update', DEMO_SQUIDS.paris, '--name', 'a\u001b[31mb'],
      '--name must not contain control characters',
    );
  });

  it('a name of 255 characters is sent', async () => {
    emu.expectWrites('POST /v1/squids');
    const name = 'é'.repeat(255);
    const r = await sq(['squids', 'create', '--crawler', 'google-maps-search-export', '--name', name, '--json'], {
      env: emu.env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).name).toBe(name);
  });

  it.each(['a\nb=1', 'k\u001b[2J=1', 'tab\tkey=1'])(
    '--param %j: a control character in the key is exit 2',
    async (pair) => {
      await refused(['squids', 'update', DEMO_SQUIDS.paris, '--param', pair], '--param key');
    },
  );
});
