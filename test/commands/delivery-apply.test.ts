// sq delivery apply: whole-file validation with field paths, ${ENV} secrets, idempotence, dry run, partial failure.
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { deliveryYaml } from '../helpers/delivery-files.js';
import { tempDir, tempFiles } from '../helpers/fs.js';
import { readFileSync, statSync } from 'node:fs';
import { checkApplyDocument } from '../../src/account/delivery-file.js';
import { UsageError } from '../../src/errors.js';
import { ndjson } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });
let env: Record<string, string>;
const PW = 'apply-Secret-77';

const file = tempFiles('sq-apply-');

const GOOD = deliveryYaml(`https://ci.example.com/hook`);

const envOf = () => emu.env({ SFTP_PASSWORD: PW });

beforeAll(() => {
  env = envOf();
});

describe('file validation (no request)', () => {
  function problem(doc: unknown, e: Record<string, string> = { P: 'x' }): string {
    try {
      checkApplyDocument(doc, e);
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      return [(err as UsageError).message, ...(err as UsageError).details].join('\n');
    }
    throw new Error('expected a UsageError');
  }

  it('names the path of a bad event, with the index', () => {
    expect(
      problem({
        squids: {
          'Paris restaurants': { webhook: { url: 'https://x.example', events: ['run.done', 'run.finished'] } },
        },
      }),
    ).toContain('squids."Paris restaurants".webhook.events[1]: unknown event (a string)');
  });

  it('refuses a literal secret and accepts only a whole ${VAR} reference', () => {
    const sftp = { host: 'h', username: 'u', directory: '/d', password: 'plain' };
    expect(problem({ squids: { a: { sftp } } })).toMatch(
      /squids\.a\.sftp\.password: secrets are not accepted in the file/,
    );
    expect(problem({ squids: { a: { sftp: { ...sftp, password: 'x${P}' } } } })).toMatch(/secrets are not accepted/);
    const ok = checkApplyDocument({ squids: { a: { sftp: { ...sftp, password: '${P}' } } } }, { P: 'from-env' });
    expect(ok.squids[0].bodies[0]).toEqual({
      ftp_fields: { host: 'h', port: 22, username: 'u', password: 'from-env', directory: '/d', is_active: true },
    });
    expect(ok.secrets).toEqual(['from-env']);
  });

  it('names a missing environment variable', () => {
    expect(problem({ squids: { a: { webhook: { url: 'https://${HOOK_HOST}/h', events: 'all' } } } }, {})).toMatch(
      /squids\.a\.webhook\.url: environment variable HOOK_HOST is not set/,
    );
  });

  it('collects every problem: unknown keys, bad port, bad url, unknown channel', () => {
    const msg = problem({
      squids: {
        b: {
          sftp: { host: 'h', username: 'u', directory: '/d', password: '${P}', port: 70000, prot: 1 },
          ftp: {},
          sheet: { url: 'ftp://x' },
        },
      },
      extra: 1,
    });
    expect(msg).toMatch(/extra: unknown field/);
    expect(msg).toMatch(/squids\.b\.sftp\.port: must be an integer from 1 to 65535/);
    expect(msg).toMatch(/squids\.b\.sftp\.prot: unknown field/);
    expect(msg).toMatch(/squids\.b\.ftp: unknown channel/);
    expect(msg).toMatch(/squids\.b\.sheet\.url: must be an http\(s\) URL/);
  });

  it('requires squids', () => {
    expect(problem({})).toMatch(/squids: is required/);
    expect(problem({ squids: {} })).toMatch(/squids: lists no squid/);
  });

  it('via the CLI: exit 2 and not one request, for bad files, parse errors and missing files', async () => {
    const bad = file(
      'bad.yaml',
      'squids:\n  "Paris restaurants":\n    webhook: { url: "https://x.example", events: [run.done, nope] }\n',
    );
    let r = await sq(['delivery', 'apply', '-f', bad], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('squids."Paris restaurants".webhook.events[1]');
    r = await sq(['delivery', 'apply', '-f', file('broken.yaml', 'squids: [unclosed\n')], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/broken\.yaml:\d+:\d+: cannot parse/);
    r = await sq(['delivery', 'apply', '-f', join(dirname(file('present.yaml', '')), 'missing.yaml')], { env });
    expect(r.code).toBe(2);
    r = await sq(['delivery', 'apply', '-f', file('good.yaml', GOOD)], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/SFTP_PASSWORD is not set/);
    expect(await emu.requests()).toEqual([]);
  });
});

describe('applying', () => {
  it('first run posts what differs, second run posts nothing and reports unchanged', async () => {
    const f = file('good.yaml', GOOD);
    // One profile directory for both runs: what sq applied is kept there (applied/<profile>.json).
    const env = { ...envOf(), SQ_CONFIG_DIR: tempDir('sq-applied-') };
    const first = await sq(['delivery', 'apply', '-f', f, '--json'], { env });
    expect(first.code).toBe(0);
    const s1 = JSON.parse(first.stdout);
    expect(s1).toMatchObject({ dry_run: false, summary: { applied: 3, failed: 0, skipped: 0 } });
    expect(s1.items.map((i: { squid: string; channel: string }) => `${i.squid} ${i.channel}`)).toEqual([
      'Paris restaurants sftp',
      'Paris restaurants webhook',
      'Lyon bakeries email',
    ]);
    const p = await emu.requests('POST');
    expect(p).toHaveLength(3);
    expect(p.map((x) => Object.keys(x.body as object)[0]).sort()).toEqual(['email', 'ftp_fields', 'webhook_fields']);
    const wh = p.find((x) => 'webhook_fields' in (x.body as object))!.body as any;
    expect(wh.webhook_fields).toEqual({
      url: 'https://ci.example.com/hook',
      is_active: true,
      retry: false,
      events: { 'run.running': false, 'run.paused': false, 'run.done': true, 'run.error': true },
    });
    expect(first.stdout).not.toContain(PW);

    await emu.clearRequests();
    const second = await sq(['delivery', 'apply', '-f', f, '--json'], { env });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      summary: { applied: 0, failed: 0, create: 0, update: 0 },
      items: [],
    });
    expect(await emu.requests('POST')).toEqual([]);
    // GET /v1/squids answers {host, port, is_active} of SFTP and {url, is_active} of a webhook: the rest is compared
    // with what the first run applied.
    expect(second.stderr).toMatch(/No changes: the account matches the file/);
  });

  it('a changed host is detected; a rotated password is seen through its keyed hash and sent; the state keeps no secret', async () => {
    const f = file('good.yaml', GOOD);
    const cfg = tempDir('sq-applied-');
    const env = { ...envOf(), SQ_CONFIG_DIR: cfg };
    await sq(['delivery', 'apply', '-f', f], { env });
    await emu.clearRequests();
    const moved = await sq(
      [
        'delivery',
        'apply',
        '-f',
        file('moved.yaml', GOOD.replace('host: sftp.example.com', 'host: moved.example.com')),
        '--json',
      ],
      { env },
    );
    expect(JSON.parse(moved.stdout).items).toMatchObject([
      { channel: 'sftp', status: 'applied', changes: [{ field: 'host', to: 'moved.example.com' }] },
    ]);
    await sq(['delivery', 'apply', '-f', f], { env });
    await emu.clearRequests();
    const rotated = { ...env, SFTP_PASSWORD: 'rotated-pw-1' };
    const r = await sq(['delivery', 'apply', '-f', f, '--json'], { env: rotated });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).items).toMatchObject([
      { channel: 'sftp', status: 'applied', changes: [{ field: 'password', from: '********', to: '********' }] },
    ]);
    expect(await emu.requests('POST')).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain('rotated-pw-1');
    const state = readFileSync(join(cfg, 'applied', 'default.json'), 'utf8');
    expect(state).not.toContain('rotated-pw-1');
    expect(state).not.toContain(PW);
    expect(statSync(join(cfg, 'applied', 'default.json')).mode & 0o777).toBe(0o600);
  });

  it('--dry-run --format ndjson prints the masked requests, one per line, and sends nothing', async () => {
    // (--json prints the as-code document instead: as-code-document.test.ts)
    const r = await sq(['delivery', 'apply', '-f', file('good.yaml', GOOD), '--dry-run', '--format', 'ndjson'], {
      env,
    });
    expect(r.code).toBe(0);
    const plan = ndjson(r.stdout);
    expect(plan).toHaveLength(3);
    expect(plan[0]).toMatchObject({ dry_run: true, method: 'POST' });
    expect(JSON.stringify(plan)).not.toContain(PW);
    expect(JSON.stringify(plan)).toContain('********');
    expect(await emu.requests('POST')).toEqual([]);
  });

  it('a ${VAR} value of 1–3 characters inside a longer value is never shown: the values it makes are masked whole (D13)', async () => {
    // Before: masked only where it stood whole or quoted, so "/upload/q7" and "sftp-eu.example.com" were printed.
    const text = `squids:
  "Paris restaurants":
    sftp: { host: "sftp-\${R}.example.com", username: "deploy-\${U}", password: \${SFTP_PASSWORD}, directory: "/upload/\${D}/" }
  "Lyon bakeries":
    s3: { bucket: "b-\${U}", target_path: "/out/\${D}" }
    email: { address: ops@example.com }
`;
    const short = { ...env, R: 'eu', U: 'x', D: 'q7' };
    const f = file('short.yaml', text);
    const clear = ['sftp-eu', 'deploy-x', '/upload/q7', 'b-x', 'out/q7'];
    // sq plan and sq apply read the same channels through the same check (before anything is applied: all are changes).
    for (const args of [
      ['plan', '-f', f],
      ['plan', '-f', f, '--json'],
      ['apply', '-f', f, '--dry-run'],
    ]) {
      const r = await sq(args, { env: short });
      expect(r.code, r.stderr).toBeLessThan(2);
      expect(r.stdout + r.stderr).toContain('********');
      for (const c of clear) expect(r.stdout + r.stderr, `${args.join(' ')}: ${c}`).not.toContain(c);
    }
    const outs: string[] = [];
    for (const args of [['--dry-run', '--format', 'ndjson'], ['--json'], ['--json', '--force'], ['--dry-run'], []]) {
      const r = await sq(['delivery', 'apply', '-f', f, ...args], { env: short });
      expect(r.code, r.stderr).toBe(0);
      for (const c of clear) expect(r.stdout + r.stderr, `${args.join(' ')}: ${c}`).not.toContain(c);
      outs.push(r.stdout);
    }
    // Only the values the secrets made: the e-mail (its "x" and "eu" are other text) stays readable, the port too.
    expect(outs[0]).toContain('ops@example.com');
    expect(outs[0]).toContain('"port":22');
    expect(await emu.requests('POST')).not.toEqual([]);
  });

  it('a port from ${SFTP_PORT} is no secret: shown as it is everywhere; a numeric password from ${SFTP_PASSWORD} never shows', async () => {
    // Before: the port's value was registered as a secret: `port: ********` in the text plan, 2222 in the JSON one, and a
    // `"port":********` line of --dry-run --format ndjson that no JSON parser reads.
    const f = file(
      'port.yaml',
      'squids:\n  "Paris restaurants":\n    sftp: { host: sftp.example.com, port: "${SFTP_PORT}", ' +
        'username: deploy, password: ${SFTP_PASSWORD}, directory: /upload }\n',
    );
    for (const pw of ['4242', '42']) {
      const numeric = { ...env, SFTP_PORT: '2222', SFTP_PASSWORD: pw };
      await emu.control('POST', '/_emulator/reset');
      const runs = [
        ['plan', '-f', f],
        ['plan', '-f', f, '--json'],
        ['delivery', 'apply', '-f', f, '--dry-run', '--format', 'ndjson'],
        ['delivery', 'apply', '-f', f, '--dry-run'],
        ['delivery', 'apply', '-f', f, '--json'],
        ['delivery', 'apply', '-f', f, '--json', '--force'],
      ];
      for (const args of runs) {
        const r = await sq(args, { env: numeric });
        const what = `${pw}: ${args.join(' ')}`;
        expect(r.code, `${what}: ${r.stderr}`).toBe(0);
        expect(r.stdout + r.stderr, what).toMatch(/port"?: ?2222\b/);
        expect(r.stdout + r.stderr, what).not.toMatch(new RegExp(`password"?: ?"?${pw}\\b`));
        expect(r.stdout + r.stderr, what).not.toContain('4242');
        if (args.includes('--json') || args.includes('ndjson'))
          for (const line of args.includes('ndjson') ? r.stdout.trim().split('\n') : [r.stdout])
            expect(() => JSON.parse(line), what).not.toThrow();
      }
      const sent = (await emu.requests('POST')).find((q) => q.path === '/v1/delivery');
      expect(sent?.body).toMatchObject({ ftp_fields: { port: 2222 } });
    }
  });

  it('a squid the account does not have is an error of the file: exit 2 naming it, nothing sent for any squid', async () => {
    for (const text of [
      `${GOOD}  "No such squid":\n    email: ops@example.com\n`,
      'squids:\n  "No such squid":\n    email: ops@example.com\n',
    ]) {
      const r = await sq(['delivery', 'apply', '-f', file('partial.yaml', text)], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('squids."No such squid": no squid of this account has this name, hash or hash prefix');
      expect(await emu.requests('POST')).toEqual([]);
    }
  });

  it("anything but delivery channels is refused (it is sq apply's), before any request", async () => {
    await emu.clearRequests();
    const r = await sq(
      [
        'delivery',
        'apply',
        '-f',
        file(
          'more.yaml',
          'prune: true\nsquids:\n  "Lyon bakeries":\n    concurrency: 2\n    email: ops@example.com\n  "Paris restaurants": {}\n',
        ),
      ],
      { env },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('prune: sq delivery apply manages delivery channels only');
    expect(r.stderr).toContain('squids."Lyon bakeries".concurrency: sq delivery apply manages delivery channels only');
    expect(r.stderr).toContain('squids."Paris restaurants": must be a mapping of one or more channels');
    expect(await emu.requests()).toEqual([]);
  });

  it('a POST the API refuses is reported per channel', async () => {
    emu.expectWrites('POST /v1/delivery');
    await emu.faults([
      {
        method: 'POST',
        path: '/v1/delivery',
        action: 'status',
        status: 400,
        body: { error: { message: 'ftp_fields.host is bad', type: 'validation_error', param: 'ftp_fields.host' } },
        count: 1,
      },
    ]);
    try {
      const r = await sq(['delivery', 'apply', '-f', file('good.yaml', GOOD), '--json'], { env });
      expect(r.code).toBe(8);
      const sum = JSON.parse(r.stdout);
      expect(sum.summary).toMatchObject({ applied: 2, failed: 1 });
      expect(sum.items.map((i: { channel: string; status: string }) => `${i.channel} ${i.status}`)).toEqual([
        'sftp failed',
        'webhook applied',
        'email applied',
      ]);
      expect(sum.items[0].error).toMatch(/ftp_fields\.host is bad/);
      expect(r.stderr).toMatch(/1 of 3 changes failed; 2 applied/);
      expect(r.stderr).toMatch(/failed: delivery sftp of \\?"Paris restaurants\\?": .*ftp_fields\.host is bad/);
    } finally {
      await emu.clearFaults();
    }
  });

  it('reads the file from stdin with -f -', async () => {
    const r = await sq(['delivery', 'apply', '-f', '-', '--json'], {
      env,
      stdin: JSON.stringify({
        squids: { 'Lyon bakeries': { email: { address: 'a@b.example', notifications: false } } },
      }),
    });
    expect(r.code).toBe(0);
    expect((await emu.requests('POST'))[0].body).toEqual({ email: 'a@b.example', notifications: false });
  });
});

describe('comparing with the stored config', () => {
  const want = {
    ftp_fields: { host: 'h', port: 22, username: 'u', password: 'pw-1', directory: '/d', is_active: true },
  };
  const stored = (ftp: Record<string, unknown> | null) => ({
    ftp_fields: ftp,
    webhook_fields: null,
    google_sheet_fields: null,
    s3_fields: null,
    email: null,
    notifications: null,
  });

  it('a password the service does not return (absent or masked) is never assumed equal: sent unless remembered or --assume-unchanged', async () => {
    const { diffDelivery } = await import('../../src/account/delivery-diff.js');
    const { AppliedState } = await import('../../src/account/applied.js');
    const remembered = new AppliedState(join(tempDir('sq-applied-'), 'applied', 'p.json'), 'https://x', 'key-1');
    remembered.remember('s1', want);
    for (const password of [undefined, '', '********', '****pw-1']) {
      const have = stored({
        host: 'h',
        port: 22,
        username: 'u',
        directory: '/d',
        is_active: true,
        ...(password === undefined ? {} : { password }),
      });
      expect(diffDelivery(want, have)).toEqual({
        fields: ['password'],
        unverified: [],
        unreadable: ['password'],
        from: {},
      });
      expect(diffDelivery(want, have, { assumed: (f) => f === 'password' })).toEqual({
        fields: [],
        unverified: ['password'],
        unreadable: [],
        from: {},
      });
      expect(diffDelivery(want, have, { memory: remembered.memory('s1', 'sftp') }).fields).toEqual([]);
      const rotated = { ftp_fields: { ...want.ftp_fields, password: 'pw-2' } };
      expect(diffDelivery(rotated, have, { memory: remembered.memory('s1', 'sftp') })).toEqual({
        fields: ['password'],
        unverified: [],
        unreadable: [],
        from: { password: '********' },
      });
    }
  });

  it('a readable password is compared; other fields always are; no config at all is a change', async () => {
    const { diffDelivery } = await import('../../src/account/delivery-diff.js');
    expect(
      diffDelivery(want, stored({ host: 'h', port: '22', username: 'u', directory: '/d', password: 'pw-2' })).fields,
    ).toEqual(['password']);
    expect(
      diffDelivery(
        want,
        stored({ host: 'h2', port: 22, username: 'u', directory: '/x', password: 'pw-1', is_active: false }),
      ).fields,
    ).toEqual(['host', 'directory', 'is_active']);
    expect(diffDelivery(want, stored(null)).fields).toEqual(['ftp_fields']);
  });

  it('webhook events are compared in the flat and the nested form', async () => {
    const { diffDelivery } = await import('../../src/account/delivery-diff.js');
    const wh = {
      webhook_fields: {
        url: 'https://x.example',
        is_active: true,
        retry: true,
        events: { 'run.running': false, 'run.paused': false, 'run.done': true, 'run.error': true },
      },
    };
    const nested = {
      url: 'https://x.example',
      is_active: true,
      retry: true,
      events: { run: { running: false, paused: false, done: true, error: false } },
    };
    const d = diffDelivery(wh, { ...stored(null), webhook_fields: nested });
    expect(d.fields).toEqual(['events.run.error']);
  });
});
