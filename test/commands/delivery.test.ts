// sq delivery sftp|webhook|email|sheet|s3|test|show, in-process against the real emulator over HTTP.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { listenLocal } from '../helpers/net.js';
import { tempDir, tempFiles } from '../helpers/fs.js';

const emu = useEmulator({ each: 'clear' });
let env: Record<string, string>;
let parisId: string;
const PW = 'Sftp-Pa55word!x';

const SFTP = ['--host', '127.0.0.1', '--port', '2222', '--username', 'deploy', '--directory', '/upload'];

beforeAll(() => {
  env = emu.env({ SFTP_PW: PW });
  parisId = emu.squidId(DEMO_SQUIDS.paris);
});

async function posts(path = '/v1/delivery') {
  return (await emu.requests()).filter((r) => r.method === 'POST' && r.path === path);
}

describe('delivery sftp', () => {
  it('sends every ftp_fields value, the password from --password-env, and masks it in every output', async () => {
    const r = await sq(
      ['delivery', 'sftp', '--squid', 'Paris restaurants', ...SFTP, '--password-env', 'SFTP_PW', '--json'],
      { env },
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    // The SFTP page's echo: every field sent but is_active.
    expect(out.ftp_fields).toEqual({
      host: '127.0.0.1',
      port: 2222,
      username: 'deploy',
      password: '********',
      directory: '/upload',
    });
    expect(out.ftp_fields.password).toBe('********');
    expect(r.stdout + r.stderr).not.toContain(PW);
    const p = await posts();
    expect(p).toHaveLength(1);
    expect(p[0].query).toMatchObject({ squid: parisId });
    // The emulator's own log masks secrets and GET /v1/squids never shows a password: its state proves it arrived.
    expect((emu.emu.state.squids[parisId].ftp_fields as { password: string }).password).toBe(PW);
    const show = await sq(['delivery', 'show', '--squid', parisId, '--json', '--show-secrets'], { env });
    expect(JSON.parse(show.stdout).ftp_fields).toEqual({ host: '127.0.0.1', port: 2222, is_active: true });
  });

  it('reads the password from stdin, strips the newline echo adds, defaults --port to 22, and --inactive', async () => {
    emu.expectWrites('POST /v1/delivery');
    const r = await sq(
      [
        'delivery',
        'sftp',
        '--squid',
        parisId,
        '--host',
        'h.example',
        '--username',
        'u',
        '--directory',
        '/d',
        '--password-stdin',
        '--inactive',
        '--json',
        '--show-secrets',
      ],
      {
        env,
        stdin: 'from stdin pw\n',
      },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).ftp_fields).toMatchObject({ port: 22, password: 'from stdin pw' });
    expect(emu.emu.state.squids[parisId].ftp_fields).toMatchObject({
      port: 22,
      is_active: false,
      password: 'from stdin pw',
    });
    // is_active false is what the service answers for an SFTP never set: not configured, whatever else it holds.
    const show = await sq(['delivery', 'show', '--squid', parisId, '--format', 'table'], { env });
    expect(show.stdout).toMatch(/SFTP\s+not configured/);
  });

  it('table output masks the password, hints about the directory and the firewall', async () => {
    emu.expectWrites('POST /v1/delivery');
    const r = await sq(
      ['delivery', 'sftp', '--squid', parisId, ...SFTP, '--password-env', 'SFTP_PW', '--format', 'table'],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/password\s+\*{8}/);
    expect(r.stdout).not.toContain(PW);
    expect(r.stderr).toMatch(/must already exist/);
    expect(r.stderr).toMatch(/firewall/);
    expect(r.stderr).toMatch(/sq delivery test sftp/);
  });

  it('--show-secrets prints the password the API echoes', async () => {
    emu.expectWrites('POST /v1/delivery');
    const r = await sq(
      [
        'delivery',
        'sftp',
        '--squid',
        parisId,
        ...SFTP,
        '--password-env',
        'SFTP_PW',
        '--show-secrets',
        '--format',
        'tsv',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(PW);
  });

  it('refuses --password on argv without echoing it, and sends nothing', async () => {
    const r = await sq(['delivery', 'sftp', '--squid', parisId, ...SFTP, '--password', 'typed-on-argv'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--password is not accepted/);
    expect(r.stderr).toMatch(/--password-stdin/);
    expect(r.stderr).not.toContain('typed-on-argv');
    expect(await emu.requests()).toEqual([]);
  });

  it.each([
    [['--password-env', 'NOPE_NOT_SET'], /NOPE_NOT_SET is not set/],
    [[], /password is required/],
    [['--password-env', 'SFTP_PW', '--port', '70000'], /--port must be an integer from 1 to 65535/],
    [['--password-env', 'SFTP_PW', '--port', '0'], /--port/],
    [['--password-env', 'SFTP_PW', '--active', '--inactive'], /cannot be used together/],
  ])('usage errors exit 2 before any request: %j', async (extra, msg) => {
    const r = await sq(
      ['delivery', 'sftp', '--squid', parisId, ...SFTP.filter((a) => a !== '--port' && a !== '2222'), ...extra],
      { env },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(await emu.requests()).toEqual([]);
  });

  it('--dry-run prints the masked request and sends no POST', async () => {
    const r = await sq(
      ['delivery', 'sftp', '--squid', parisId, ...SFTP, '--password-env', 'SFTP_PW', '--dry-run', '--json'],
      { env },
    );
    expect(r.code).toBe(0);
    const { dry_run, requests } = JSON.parse(r.stdout);
    expect(dry_run).toBe(true);
    expect(requests).toHaveLength(1);
    const [plan] = requests;
    expect(plan).toMatchObject({ method: 'POST', path: `/v1/delivery?squid=${parisId}` });
    expect(plan.body.ftp_fields.password).toBe('********');
    expect(await posts()).toEqual([]);
  });
});

describe('delivery webhook', () => {
  it('the password of a URL (user:pw@host) is masked in a dry run, as text and JSON, unless --show-secrets', async () => {
    const url = 'https://user:BASICPW@ci.example.com/hook';
    for (const extra of [[], ['--json']]) {
      const r = await sq(
        [
          'delivery',
          'webhook',
          '--squid',
          'Paris restaurants',
          '--url',
          url,
          '--events',
          'run.done',
          '--dry-run',
          ...extra,
        ],
        { env },
      );
      expect(r.code).toBe(0);
      // A webhook URL in output: scheme and host, the rest masked (issue 33, E3).
      expect(r.stdout).toContain('https://user:********@ci.example.com/********');
      expect(r.stdout + r.stderr).not.toContain('BASICPW');
    }
    const shown = await sq(
      [
        'delivery',
        'webhook',
        '--squid',
        'Paris restaurants',
        '--url',
        url,
        '--events',
        'run.done',
        '--dry-run',
        '--show-secrets',
      ],
      { env },
    );
    expect(shown.stdout).toContain(url);
    expect(await posts()).toEqual([]);
  });

  it('a token in the path (Slack, Discord, Office 365, any long random key) is masked by webhook, show, squids get, -v and --dry-run', async () => {
    emu.expectWrites('POST /v1/delivery');
    const urls = {
      'hooks.slack.com/services/T0AB12CD3/B0EF45GH6/SLACKSECRET': 'SLACKSECRET',
      'discord.com/api/webhooks/1234567890/DISCORDTOKEN-x_y': 'DISCORDTOKEN-x_y',
      'contoso.webhook.office.com/webhookb2/g1@g2/IncomingWebhook/OFFICEKEY/guid': 'OFFICEKEY',
      'ci.example.com/hooks/q8Xf2LmP9zR4tW7vK1nB3yC6': 'q8Xf2LmP9zR4tW7vK1nB3yC6',
    };
    for (const [tail, secret] of Object.entries(urls)) {
      const url = `https://${tail}`;
      const set = ['delivery', 'webhook', '--squid', 'Paris restaurants', '--url', url, '--events', 'run.done'];
      const runs = [
        [...set, '--dry-run'],
        [...set, '--dry-run', '--json'],
        [...set, '-v'],
        [...set, '--json'],
        ['delivery', 'show', '--squid', 'Paris restaurants'],
        ['delivery', 'show', '--squid', 'Paris restaurants', '--json', '-v'],
        ['squids', 'get', 'Paris restaurants', '--json'],
      ];
      for (const args of runs) {
        const r = await sq(args, { env });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        expect(r.stdout + r.stderr, args.join(' ')).not.toContain(secret);
        expect(r.stdout + r.stderr, args.join(' ')).toContain('/********');
      }
      const shown = await sq(['delivery', 'show', '--squid', 'Paris restaurants', '--json', '--show-secrets'], { env });
      expect(JSON.parse(shown.stdout).webhook_fields.url).toBe(url);
    }
  });

  it('the success line masks a token too short for the scrubbing of free text', async () => {
    emu.expectWrites('POST /v1/delivery');
    const r = await sq(
      [
        'delivery',
        'webhook',
        '--squid',
        'Paris restaurants',
        '--url',
        'https://ci.example.com/hook?token=abc',
        '--events',
        'run.done',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    // A host without a rule of its own: scheme and host, the rest masked (the rule of records and sq export, issue 33 E3).
    expect(r.stderr).toContain('→ https://ci.example.com/********');
    expect(r.stdout + r.stderr).not.toContain('token=abc');
  });

  it('always sends all four event booleans, with retry and active on by default', async () => {
    const r = await sq(
      [
        'delivery',
        'webhook',
        '--squid',
        'Paris restaurants',
        '--url',
        'https://ci.example.com/hook',
        '--events',
        'run.done',
        '--json',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    const p = await posts();
    expect(p).toHaveLength(1);
    expect(p[0].body).toEqual({
      webhook_fields: {
        url: 'https://ci.example.com/hook',
        is_active: true,
        retry: true,
        events: { 'run.running': false, 'run.paused': false, 'run.done': true, 'run.error': false },
      },
    });
  });

  it('defaults --events to run.done,run.error; --no-retry and --inactive are sent as false', async () => {
    await sq(['delivery', 'webhook', '--squid', parisId, '--url', 'http://127.0.0.1:9/h', '--no-retry', '--inactive'], {
      env,
    });
    const [p] = await posts();
    expect(p.body).toMatchObject({
      webhook_fields: {
        retry: false,
        is_active: false,
        events: { 'run.running': false, 'run.paused': false, 'run.done': true, 'run.error': true },
      },
    });
  });

  it.each([
    [['--url', 'https://x.example/h', '--events', 'run.done,run.finished'], /unknown event "run.finished"/],
    [['--url', 'ftp://x.example/h'], /--url must be an http\(s\) URL/],
    [['--url', 'not a url'], /--url must be an http\(s\) URL/],
    [[], /--url is required/],
  ])('rejects %j with exit 2 and no request', async (extra, msg) => {
    const r = await sq(['delivery', 'webhook', '--squid', parisId, ...extra], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(await emu.requests()).toEqual([]);
  });
});

describe('a webhook URL that fails validation', () => {
  const file = tempFiles('sq-delivery-badurl-');
  it.each([
    [
      [
        'delivery',
        'webhook',
        '--squid',
        'Paris restaurants',
        '--url',
        'https://ci.example.com:99999/hook?token=TOKport',
      ],
      'TOKport',
      '--url must be',
      'https://ci.example.com:99999/hook?token=********',
    ],
    [
      ['delivery', 'test', 'webhook', '--url', 'htp://127.0.0.1:9/hook?token=ABCDEFGH123'],
      'ABCDEFGH123',
      '--url must be',
      'htp://127.0.0.1:9/hook?token=********',
    ],
    [
      ['delivery', 'webhook', '--squid', 'Paris restaurants', '--url', 'ftp://u:FTPPASSWD@x.example.com/h?sig=ab'],
      'FTPPASSWD',
      '--url must be',
      null,
    ],
    // A file's URL is not quoted at all (no error quotes a file's content): named by its path in the file.
    [['delivery', 'apply', '-f', 'BADURL'], 'LEAKME12345', 'webhook.url: must be an http(s) URL', undefined],
  ])(
    "%j: exit 2, quoted with its secret query values masked (a file's not at all), as text and JSON",
    async (args, secret, what, shown) => {
      const f = file(
        'bad.yaml',
        'squids:\n  "Paris restaurants":\n    webhook: { url: "ftp://x.example.com/h?token=LEAKME12345", events: all }\n',
      );
      const argv = args.map((a) => (a === 'BADURL' ? f : a));
      for (const extra of [[], ['--json']]) {
        const r = await sq([...argv, ...extra], { env });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(what);
        // A value with a user name or password is not echoed at all (src/validate/url.ts); any other is, masked.
        if (shown === null) expect(r.stderr).toContain('a value with a user name or password, not shown');
        else if (shown === undefined) expect(r.stderr).not.toContain('x.example.com');
        else
          expect(r.stderr).toContain(
            extra.length ? JSON.stringify(JSON.stringify(shown)).slice(1, -1) : JSON.stringify(shown),
          );
        expect(r.stdout + r.stderr).not.toContain(secret);
      }
      expect(await emu.requests()).toEqual([]);
    },
  );
});

describe('delivery email, sheet, s3', () => {
  it('email sends {email, notifications}', async () => {
    const r = await sq(['delivery', 'email', '--squid', parisId, '--email', 'ops@example.com', '--no-notifications'], {
      env,
    });
    expect(r.code).toBe(0);
    expect((await posts())[0].body).toEqual({ email: 'ops@example.com', notifications: false });
  });

  it('sheet sends google_sheet_fields with overwrite by default', async () => {
    const r = await sq(
      ['delivery', 'sheet', '--squid', parisId, '--url', 'https://docs.google.com/spreadsheets/d/x/edit'],
      { env },
    );
    expect(r.code).toBe(0);
    expect((await posts())[0].body).toEqual({
      google_sheet_fields: { url: 'https://docs.google.com/spreadsheets/d/x/edit', append: false, is_active: true },
    });
  });

  it('s3 reads keys from named env vars and masks them', async () => {
    emu.expectWrites('POST /v1/delivery');
    const r = await sq(
      [
        'delivery',
        's3',
        '--squid',
        parisId,
        '--bucket',
        'b1',
        '--target-path',
        '/exports/',
        '--access-key-env',
        'AK',
        '--secret-key-env',
        'SK',
        '--json',
      ],
      { env: { ...env, AK: 'AKIAEXAMPLEKEY123', SK: 'sEcReT/example+key' } },
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.s3_fields).toMatchObject({
      bucket: 'b1',
      target_path: 'exports',
      aws_access_key: '********',
      aws_secret_key: '********',
    });
    expect(r.stdout).not.toContain('AKIAEXAMPLEKEY123');
    expect(r.stdout).not.toContain('sEcReT/example+key');
  });

  it('s3 refuses keys on argv', async () => {
    const r = await sq(
      ['delivery', 's3', '--squid', parisId, '--bucket', 'b', '--target-path', '', '--secret-key', 'abc'],
      { env },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('abc\n');
    expect(await emu.requests()).toEqual([]);
  });
});

describe('delivery show', () => {
  it('reads the config back from the squid record, secrets masked, one line per channel on a terminal', async () => {
    emu.expectWrites('POST /v1/delivery');
    await sq(['delivery', 'sftp', '--squid', parisId, ...SFTP, '--password-env', 'SFTP_PW'], { env });
    await sq(['delivery', 'webhook', '--squid', parisId, '--url', 'https://ci.example.com/hook', '--events', 'all'], {
      env,
    });
    const j = await sq(['delivery', 'show', '--squid', 'Paris restaurants', '--json'], { env });
    expect(j.code).toBe(0);
    const rec = JSON.parse(j.stdout);
    expect(rec.squid).toBe(parisId);
    // The documented subsets: no password, username, directory or events come back.
    expect(rec.ftp_fields).toEqual({ host: '127.0.0.1', port: 2222, is_active: true });
    expect(rec.webhook_fields.url).toBe('https://ci.example.com/********');
    const t = await sq(['delivery', 'show', '--squid', parisId, '--format', 'table'], { env });
    expect(t.stdout).toMatch(/SFTP\s+active\s+sftp:\/\/127\.0\.0\.1:2222\s/);
    expect(t.stdout).toMatch(/Webhook\s+active\s+https:\/\/ci\.example\.com\/\*{8}\s+\[events unknown\]/);
    expect(t.stdout).not.toContain(PW);
  });
});

describe('delivery test', () => {
  let server: http.Server;
  let url: string;
  let status = 200;
  const got: unknown[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        got.push(JSON.parse(b));
        res.writeHead(status).end();
      });
    });
    url = `${await listenLocal(server)}/hook`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('webhook: success shows the status code the endpoint answered', async () => {
    status = 202;
    const r = await sq(['delivery', 'test', 'webhook', '--url', url, '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true, status_code: 202 });
    expect(got.length).toBeGreaterThan(0);
    const [p] = await posts('/v1/delivery/test-webhook');
    expect(p.body).toEqual({ url });
  });

  it('webhook: a 500 answer is a failure, exit 1, with the status in the message', async () => {
    emu.expectWrites('POST /v1/delivery/test-webhook');
    status = 500;
    const r = await sq(['delivery', 'test', 'webhook', '--url', url], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/webhook test failed: .* answered HTTP 500/);
  });

  it('webhook: the messages mask a token too short for the scrubbing of free text, unless --show-secrets', async () => {
    emu.expectWrites('POST /v1/delivery/test-webhook');
    for (const [code, st] of [
      [0, 200],
      [1, 500],
    ]) {
      status = st;
      const r = await sq(['delivery', 'test', 'webhook', '--url', `${url}?token=ab`], { env });
      expect(r.code).toBe(code);
      expect(r.stderr).toContain(`${url}?token=******** answered HTTP ${st}`);
      expect(r.stderr).not.toContain('token=ab');
    }
    const shown = await sq(['delivery', 'test', 'webhook', '--url', `${url}?token=ab`, '--show-secrets'], { env });
    expect(shown.stderr).toContain(`${url}?token=ab answered HTTP 500`);
  });

  it('webhook --squid reuses the stored URL', async () => {
    status = 200;
    await sq(['delivery', 'webhook', '--squid', parisId, '--url', url], { env });
    await emu.clearRequests();
    const r = await sq(['delivery', 'test', 'webhook', '--squid', 'Paris restaurants'], { env });
    expect(r.code).toBe(0);
    expect((await posts('/v1/delivery/test-webhook'))[0].body).toEqual({ url });
  });

  it('sftp: a refused connection is exit 1 naming the documented causes, password never shown', async () => {
    const r = await sq(
      [
        'delivery',
        'test',
        'sftp',
        '--host',
        '127.0.0.1',
        '--port',
        '1',
        '--username',
        'u',
        '--directory',
        '/x',
        '--password-env',
        'SFTP_PW',
      ],
      { env },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/SFTP test failed/);
    expect(r.stderr).toMatch(/directory does not exist/);
    expect(r.stderr).toMatch(/firewall/);
    expect(r.stdout + r.stderr).not.toContain(PW);
    const [p] = await posts('/v1/delivery/test-sftp');
    expect(p.body).toMatchObject({ host: '127.0.0.1', port: 1, username: 'u', directory: '/x' });
  });

  it('sftp --squid takes host and port from the squid, and names what the service does not give back', async () => {
    await sq(['delivery', 'sftp', '--squid', parisId, ...SFTP, '--password-env', 'SFTP_PW'], { env });
    await emu.clearRequests();
    const missing = await sq(['delivery', 'test', 'sftp', '--squid', parisId, '--password-env', 'SFTP_PW'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `--username is required (the login user name): the service does not give it back for --squid ${parisId}`,
    );
    const noPw = await sq(['delivery', 'test', 'sftp', '--squid', parisId, '--username', 'u', '--directory', '/x'], {
      env,
    });
    expect(noPw.code).toBe(2);
    expect(noPw.stderr).toContain('the service never gives a stored one back');
    expect((await emu.requests()).filter((q) => q.method === 'POST')).toEqual([]);
    await sq(
      [
        'delivery',
        'test',
        'sftp',
        '--squid',
        parisId,
        '--username',
        'u',
        '--directory',
        '/x',
        '--password-env',
        'SFTP_PW',
      ],
      { env },
    );
    expect((await posts('/v1/delivery/test-sftp'))[0].body).toMatchObject({
      host: '127.0.0.1',
      port: 2222,
      username: 'u',
      directory: '/x',
    });
  });

  it('sftp --squid takes the username and directory sq last applied from this profile (the service does not give them back)', async () => {
    const same = { ...env, SQ_CONFIG_DIR: tempDir('sq-delivery-applied-') };
    expect(
      (await sq(['delivery', 'sftp', '--squid', parisId, ...SFTP, '--password-env', 'SFTP_PW'], { env: same })).code,
    ).toBe(0);
    await emu.clearRequests();
    const r = await sq(['delivery', 'test', 'sftp', '--squid', parisId, '--password-env', 'SFTP_PW'], { env: same });
    expect(r.stderr).not.toContain('is required');
    const [p] = await posts('/v1/delivery/test-sftp');
    expect(p.body).toMatchObject({
      host: '127.0.0.1',
      port: 2222,
      username: SFTP[SFTP.indexOf('--username') + 1],
      directory: SFTP[SFTP.indexOf('--directory') + 1],
    });
  });

  it('unknown kind and bad flags exit 2 before any request', async () => {
    expect((await sq(['delivery', 'test', 'ftp'], { env })).code).toBe(2);
    expect((await sq(['delivery', 'test', 'webhook', '--url', 'gopher://x'], { env })).code).toBe(2);
    expect(
      (
        await sq(
          [
            'delivery',
            'test',
            'sftp',
            '--host',
            'h',
            '--username',
            'u',
            '--directory',
            '/d',
            '--port',
            '99999',
            '--password-env',
            'SFTP_PW',
          ],
          { env },
        )
      ).code,
    ).toBe(2);
    expect(await emu.requests()).toEqual([]);
  });
});
