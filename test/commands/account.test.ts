// sq export / plan / apply against the emulator: the round trip, exact plans, drift, order, partial failure,
// dry run, prune and billing confirmations, secrets.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { schemaText } from '../../src/account/write-schema.js';
import { parseApplyText } from '../../src/account/delivery-file.js';
import { tempDir } from '../helpers/fs.js';
import { SCHEMA_URL } from '../../src/account/export.js';
import { VERSION } from '../../src/version.js';

const emu = useEmulator({ each: 'reset' });
const dir = tempDir('sq-account-');
const PW = 'plan-Secret-4242';
let n = 0;

function file(text: string, name = `f${++n}.yaml`): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

// plan asks for its exit 10 (changes to apply) with --detailed-exitcode: every plan of these tests does, so their
// exit-code assertions hold as they did; 'plan:default' runs plan without it.
// One profile directory per test: what sq applied (applied/<profile>.json) carries from one call to the next, as for
// a user, and never into the next test's account.
let config = '';
beforeEach(() => {
  config = tempDir('sq-account-cfg-');
});
const run = (args: string[], extra: Record<string, string> = {}) => {
  const argv =
    args[0] === 'plan'
      ? [...args, '--detailed-exitcode']
      : args[0] === 'plan:default'
        ? ['plan', ...args.slice(1)]
        : args;
  return sq(argv, { env: emu.env({ SFTP_PASSWORD: PW, SQ_CONFIG_DIR: config, ...extra }) });
};
const writes = async () => (await emu.requests()).filter((r) => r.method !== 'GET');

async function exported(): Promise<string> {
  const r = await run(['export']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/** A plan item of the as-code document as it is printed: every key, with the defaults of an item that has none. */
const item = (i: Record<string, unknown>) => ({
  squid: null,
  id: null,
  channel: null,
  changes: [],
  add: [],
  delete: [],
  not_compared: [],
  unreadable: [],
  fires_now: null,
  needs_yes: null,
  scheduled_run: null,
  status: 'planned',
  error: null,
  requests: expect.any(Array),
  ...i,
});

async function planJson(path: string, extra: Record<string, string> = {}, args: string[] = []) {
  const r = await run(['plan', '-f', path, '--json', ...args], extra);
  return { code: r.code, plan: r.stdout ? JSON.parse(r.stdout) : null, stderr: r.stderr };
}

// The webhook fields the API does not read back, when the webhook was set behind sq's back (straight to the API):
// taken as unchanged by the tests about what the API does answer (the URL).
const WEBHOOK_UNREAD = ['--assume-unchanged', 'webhook.events,webhook.retry'];

describe('export → plan', () => {
  it('plan of a fresh export shows no change and exits 0, with GETs only', async () => {
    const text = await exported();
    // A URL into this version's package (the package ships schema/sq.schema.json): the same for every kind of install.
    expect(text.split('\n')[0]).toBe(
      `# yaml-language-server: $schema=https://unpkg.com/lobstr-sq@${VERSION}/schema/sq.schema.json`,
    );
    expect(
      existsSync(join(import.meta.dirname, '../..', new URL(SCHEMA_URL).pathname.replace(/^\/lobstr-sq@[^/]+\//, ''))),
    ).toBe(true);
    expect(parse(text).squids['Paris restaurants']).toMatchObject({
      crawler: 'google-maps-search-export',
      concurrency: 1,
      notify: 'none',
    });
    await emu.clearRequests();
    const r = await run(['plan', '-f', file(text)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('No changes: the account matches the file.\n');
    expect(await writes()).toEqual([]);
    const j = await planJson(file(text));
    expect(j).toMatchObject({ code: 0, plan: { version: 1, summary: { create: 0, update: 0, delete: 0 }, items: [] } });
  });

  it('an export with delivery writes secrets as ${…} references; plan without them set reports them not compared', async () => {
    const id = emu.squidId('Paris restaurants');
    await emu.api(`/v1/delivery?squid=${id}`, {
      method: 'POST',
      body: {
        ftp_fields: {
          host: 'sftp.example.com',
          port: 22,
          username: 'u',
          password: PW,
          directory: '/up',
          is_active: true,
        },
      },
    });
    const text = await exported();
    expect(text).not.toContain(PW);
    const sftp = parse(text).squids['Paris restaurants'].sftp;
    // The service answers {host, port, is_active} of SFTP: the rest is written as references to set.
    expect(sftp).toEqual({
      host: 'sftp.example.com',
      port: 22,
      active: true,
      password: '${SQ_SFTP_PASSWORD_PARIS_RESTAURANTS}',
      username: '${SQ_SFTP_USERNAME_PARIS_RESTAURANTS}',
      directory: '${SQ_SFTP_DIRECTORY_PARIS_RESTAURANTS}',
    });
    const j = await planJson(file(text), {}, ['--assume-unchanged', 'username,directory']);
    expect(j.code, j.stderr).toBe(0);
    expect(j.plan).toMatchObject({
      items: [],
      not_compared: [
        {
          kind: 'delivery',
          squid: 'Paris restaurants',
          channel: 'sftp',
          not_compared: expect.arrayContaining(['password (${SQ_SFTP_PASSWORD_PARIS_RESTAURANTS} is not set)']),
        },
      ],
    });
    const t = await run([
      'plan',
      '-f',
      file(text),
      '--assume-unchanged',
      'sftp.username',
      '--assume-unchanged',
      'sftp.directory',
    ]);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain(
      'No changes to apply, but some fields were not compared (their variable is not set, or --assume-unchanged):\n? ' +
        'sftp delivery of squid "Paris restaurants"',
    );
    expect(t.stdout).toContain('    password (${SQ_SFTP_PASSWORD_PARIS_RESTAURANTS} is not set): not compared\n');
    // Set, the fields the service never answers and sq never applied here are sent: never assumed equal.
    const all = {
      SQ_SFTP_PASSWORD_PARIS_RESTAURANTS: 'rotated-Secret-1',
      SQ_SFTP_USERNAME_PARIS_RESTAURANTS: 'u',
      SQ_SFTP_DIRECTORY_PARIS_RESTAURANTS: '/up',
    };
    const set = await planJson(file(text), all);
    expect(set.code).toBe(10);
    expect(set.plan.items[0]).toMatchObject({ channel: 'sftp', unreadable: ['username', 'directory', 'password'] });
    const assumed = await planJson(file(text), all, ['--assume-unchanged', 'username,directory,password']);
    expect(assumed.code).toBe(0);
    expect(assumed.plan.not_compared[0].not_compared).toEqual(['username', 'directory', 'password']);
    // What the service answers is compared: another host is a change.
    const other = await run(
      [
        'plan',
        '-f',
        file(text.replace('sftp.example.com', 'moved.example.com')),
        '--assume-unchanged',
        'username,directory,password',
      ],
      all,
    );
    expect(other.code).toBe(10);
    expect(other.stdout).toContain('host: "sftp.example.com" → "moved.example.com"');
    expect(other.stdout + other.stderr).not.toMatch(/rotated-Secret-1|plan-Secret-4242/);
  });

  it('every delivery channel, notify and unique-results settings survive the round trip', async () => {
    const id = emu.squidId('Lyon bakeries');
    const post = (body: unknown) => emu.api(`/v1/delivery?squid=${id}`, { method: 'POST', body });
    await post({
      webhook_fields: {
        url: 'https://ci.example.com/h',
        is_active: true,
        retry: false,
        events: { 'run.running': false, 'run.paused': true, 'run.done': true, 'run.error': false },
      },
    });
    await post({ email: 'ops@example.com', notifications: false });
    await post({
      google_sheet_fields: { url: 'https://docs.google.com/spreadsheets/d/X/edit', append: true, is_active: true },
    });
    await post({
      s3_fields: {
        bucket: 'b',
        target_path: 'p/q',
        is_active: true,
        aws_access_key: 'AKIAEXAMPLE',
        aws_secret_key: 's3-Secret-9',
      },
    });
    await emu.api(`/v1/squids/${id}`, {
      method: 'POST',
      body: { run_notify: 'on_success', export_unique_results: true, is_active: false },
    });
    const text = await exported();
    expect(text).not.toMatch(/AKIAEXAMPLE|s3-Secret-9/);
    // What the service answers of each channel: webhook {url, is_active} (events become a reference to set), S3
    // {bucket, is_active}, the sheet whole.
    expect(parse(text).squids['Lyon bakeries']).toMatchObject({
      active: false,
      notify: 'on_success',
      unique_results: true,
      // A webhook URL's path is never written in clear (issue 33, E3): the host stays readable.
      webhook: {
        url: 'https://ci.example.com/${SQ_WEBHOOK_PATH_LYON_BAKERIES}',
        events: '${SQ_WEBHOOK_EVENTS_LYON_BAKERIES}',
        active: true,
      },
      email: { address: 'ops@example.com', notifications: false },
      sheet: { url: 'https://docs.google.com/spreadsheets/d/X/edit', append: true, active: true },
      s3: { bucket: 'b', target_path: '', active: true },
    });
    const p = await planJson(file(text), {}, [...WEBHOOK_UNREAD, '--assume-unchanged', 's3.target_path']);
    expect(p.plan.items).toEqual([]);
    expect(p.code).toBe(0);
    // What export writes is what the shipped JSON Schema accepts, in YAML and in JSON.
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(schemaText()));
    expect(validate(await parseApplyText(text, 'export')), JSON.stringify(validate.errors)).toBe(true);
    const j = await run(['export', '--json']);
    expect(validate(JSON.parse(j.stdout)), JSON.stringify(validate.errors)).toBe(true);
    expect(
      (await planJson(file(j.stdout, 'export.json'), {}, [...WEBHOOK_UNREAD, '--assume-unchanged', 's3.target_path']))
        .code,
    ).toBe(0);
  });
});

describe('a task parameter that is null on the server', () => {
  it('is exported as null, and plan of the export shows no change', async () => {
    const id = emu.squidId('Paris restaurants');
    await emu.api('/v1/tasks', {
      method: 'POST',
      body: { squid: id, tasks: [{ category: 'ramen', city: 'Paris', country: null }] },
    });
    const text = await exported();
    expect(parse(text).squids['Paris restaurants'].tasks).toContainEqual({
      category: 'ramen',
      city: 'Paris',
      country: null,
    });
    const p = await planJson(file(text));
    expect(p.code, p.stderr).toBe(0);
    expect(p.plan.items).toEqual([]);
  });
});

describe('a field that takes several forms', () => {
  it('missing or wrong, the message says what it takes', async () => {
    const r = await run([
      'plan',
      '-f',
      file('squids:\n  a:\n    crawler: x\n    webhook: { url: "https://x.example/h" }\n'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'squids.a.webhook.events: is required: a list of run.running, run.paused, run.done, run.error',
    );
  });
});

describe('a secret of the wrong type', () => {
  it('is named by its path, never quoted back', async () => {
    const f = file(
      'squids:\n  a:\n    crawler: x\n    sftp: { host: h, username: u, directory: /d, password: 12345678901 }\n',
    );
    const r = await run(['plan', '-f', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('squids.a.sftp.password');
    expect(r.stderr).not.toContain('12345678901');
  });
});

describe('tokens in webhook URLs', () => {
  const events = { 'run.running': false, 'run.paused': false, 'run.done': true, 'run.error': false };
  const hook = (squid: string, url: string) =>
    emu.api(`/v1/delivery?squid=${emu.squidId(squid)}`, {
      method: 'POST',
      body: { webhook_fields: { url, is_active: true, retry: false, events } },
    });

  // Issue 33, E3: tokens the rule by looks missed (82-87% caught) were written in clear into a file meant to be committed.
  it.each([
    [
      'a Telegram bot URL',
      'https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage?chat_id=-1001234567890',
      'https://api.telegram.org',
      ['AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw', '1001234567890', 'sendMessage'],
    ],
    [
      'a Zapier catch hook',
      'https://hooks.zapier.com/hooks/catch/1234567/abcde12/',
      'https://hooks.zapier.com',
      ['1234567', 'abcde12'],
    ],
    [
      'a short path token on an unknown host',
      'https://api.acme.io/webhooks/lobstr/7f3k9x2m',
      'https://api.acme.io',
      ['7f3k9x2m', 'webhooks/lobstr'],
    ],
    ['a 15-character path token', 'https://acme.io/hook/secretpass123', 'https://acme.io', ['secretpass123']],
    [
      'an 18-character path token',
      'https://h.acme.dev/i/Zq7Rk2Lm9Xw4Pt8Vn',
      'https://h.acme.dev',
      ['Zq7Rk2Lm9Xw4Pt8Vn'],
    ],
  ])(
    'sq export never writes the path or query of %s: the host readable, the rest one reference that plan restores',
    async (_label, url, origin, parts) => {
      await hook('Lyon bakeries', url);
      const ex = await run(['export']);
      expect(ex.code, ex.stderr).toBe(0);
      for (const part of parts) expect(ex.stdout + ex.stderr).not.toContain(part);
      expect(parse(ex.stdout).squids['Lyon bakeries'].webhook.url).toBe(`${origin}/\${SQ_WEBHOOK_PATH_LYON_BAKERIES}`);
      expect(ex.stderr).toContain('(${SQ_WEBHOOK_PATH_LYON_BAKERIES})');
      // Set to what follows the host, the plan of the file shows no change; --show-secrets writes the URL as it is.
      const f = file(ex.stdout);
      const plan = (await planJson(f, { SQ_WEBHOOK_PATH_LYON_BAKERIES: url.slice(origin.length + 1) }, WEBHOOK_UNREAD))
        .plan;
      expect(plan.items).toEqual([]);
      expect((await run(['export', '--show-secrets'])).stdout).toContain(url);
    },
  );

  it('sq export writes a query token as a ${…} reference (and says so); set, plan shows no change; --show-secrets writes it', async () => {
    await hook('Lyon bakeries', 'https://ci.example.com/hook?token=TOKEN-7777-SECRET');
    const ex = await run(['export']);
    expect(ex.code).toBe(0);
    expect(ex.stdout).not.toContain('TOKEN-7777-SECRET');
    expect(parse(ex.stdout).squids['Lyon bakeries'].webhook.url).toBe(
      'https://ci.example.com/${SQ_WEBHOOK_PATH_LYON_BAKERIES}',
    );
    expect(ex.stderr).toContain('1 URL token is written as a reference (${SQ_WEBHOOK_PATH_LYON_BAKERIES})');
    const f = file(ex.stdout, 'refs.yaml');
    const unset = await planJson(f, {}, WEBHOOK_UNREAD);
    expect(unset.code, unset.stderr).toBe(0);
    expect(unset.plan.not_compared).toMatchObject([
      {
        channel: 'webhook',
        not_compared: expect.arrayContaining(['url (${SQ_WEBHOOK_PATH_LYON_BAKERIES} is not set)']),
      },
    ]);
    // Set, the URL is compared and equal (the events are assumed unchanged: the service does not answer them).
    const set = (await planJson(f, { SQ_WEBHOOK_PATH_LYON_BAKERIES: 'hook?token=TOKEN-7777-SECRET' }, WEBHOOK_UNREAD))
      .plan;
    expect(set.items).toEqual([]);
    expect(JSON.stringify(set.not_compared)).not.toContain('url');
    expect((await run(['export', '--show-secrets'])).stdout).toContain('TOKEN-7777-SECRET');
    // A file from an older sq, with the mask in place of the token, is still refused.
    const p = await run([
      'plan',
      '-f',
      file(ex.stdout.replace('${SQ_WEBHOOK_PATH_LYON_BAKERIES}', 'hook?token=********'), 'masked.yaml'),
    ]);
    expect(p.code).toBe(2);
    expect(p.stderr).toContain('webhook.url: holds a token masked by sq export');
  });

  it('sq export never writes a path token (Slack, Discord, Office 365, any random key): each is a ${…} reference that plan restores', async () => {
    const SLACK = 'https://hooks.slack.com/services/T0AB12CD3/B0EF45GH6/SLACKSECRET9';
    const OFFICE = 'https://contoso.webhook.office.com/webhookb2/g1@g2/IncomingWebhook/OFFICEKEY/guid7';
    await hook('Lyon bakeries', SLACK);
    await hook('Paris restaurants', OFFICE);
    await emu.api(`/v1/delivery?squid=${emu.squidId('Tech influencers')}`, {
      method: 'POST',
      body: {
        google_sheet_fields: {
          url: 'https://docs.google.com/spreadsheets/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit',
          append: false,
          is_active: true,
        },
      },
    });
    const ex = await run(['export']);
    expect(ex.code, ex.stderr).toBe(0);
    expect(ex.stdout).not.toMatch(/SLACKSECRET9|OFFICEKEY|guid7|g1@g2|1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/);
    const doc = parse(ex.stdout);
    // A webhook URL: the host readable, its whole path one reference (issue 33, E3); a sheet URL: its token.
    expect(doc.squids['Lyon bakeries'].webhook.url).toBe('https://hooks.slack.com/${SQ_WEBHOOK_PATH_LYON_BAKERIES}');
    expect(doc.squids['Paris restaurants'].webhook.url).toBe(
      'https://contoso.webhook.office.com/${SQ_WEBHOOK_PATH_PARIS_RESTAURANTS}',
    );
    expect(doc.squids['Tech influencers'].sheet.url).toBe(
      'https://docs.google.com/spreadsheets/d/${SQ_SHEET_TOKEN_TECH_INFLUENCERS}/edit',
    );
    expect(ex.stderr).toContain('3 URL tokens are written as references');
    const restored = {
      SQ_WEBHOOK_PATH_LYON_BAKERIES: 'services/T0AB12CD3/B0EF45GH6/SLACKSECRET9',
      SQ_WEBHOOK_PATH_PARIS_RESTAURANTS: 'webhookb2/g1@g2/IncomingWebhook/OFFICEKEY/guid7',
      SQ_SHEET_TOKEN_TECH_INFLUENCERS: '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms',
    };
    const f = file(ex.stdout, 'paths.yaml');
    const plan = (await planJson(f, restored, WEBHOOK_UNREAD)).plan;
    expect(plan.items).toEqual([]);
    expect(JSON.stringify(plan.not_compared)).not.toContain('url');
    // A rotated token is a change, shown masked; the old and new values never appear.
    const rotated = await run(['plan', '-f', f, ...WEBHOOK_UNREAD], {
      ...restored,
      SQ_WEBHOOK_PATH_LYON_BAKERIES: 'services/T0AB12CD3/B0EF45GH6/ROTATED42',
    });
    expect(rotated.code).toBe(10);
    expect(rotated.stdout).toContain('url: "https://hooks.slack.com/********" → "https://hooks.slack.com/********"');
    expect(rotated.stdout + rotated.stderr).not.toMatch(/SLACKSECRET9|ROTATED42/);
    const shown = await run(['export', '--show-secrets']);
    expect(shown.stdout).toContain(SLACK);
    expect(shown.stdout).toContain(OFFICE);
  });

  it('plan (text and --json) and apply --json mask the token; --show-secrets shows it', async () => {
    emu.expectWrites('POST /v1/delivery');
    const doc = parse(await exported());
    doc.squids['Lyon bakeries'].webhook = {
      url: 'https://ci.example.com/hook?token=TOKEN-4242-SECRET&a=1',
      events: ['run.done'],
    };
    const edited = file(JSON.stringify(doc), 'token.json');
    const shown = await run(['plan', '-f', edited, '--show-secrets']);
    expect(shown.stdout).toContain('TOKEN-4242-SECRET');
    for (const args of [
      ['plan', '-f', edited],
      ['plan', '-f', edited, '--json'],
      ['apply', '-f', edited, '--dry-run'],
      ['apply', '-f', edited, '--json'],
    ]) {
      const r = await run(args);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain('TOKEN-4242-SECRET');
      // A webhook URL is shown as its scheme and host, the rest masked (issue 33, E3).
      expect(r.stdout + r.stderr, args.join(' ')).toContain('https://ci.example.com/********');
    }
  });
});

describe('values from ${VAR} are secrets', () => {
  it('a malformed URL is named by its path, never quoted nor with the value of its variable (text, --json, a space in the host)', async () => {
    for (const url of [
      'htps://ci.example.com/hook?token=${HOOK_TOKEN}',
      'https://ci.exa mple.com/hook?token=${HOOK_TOKEN}',
    ]) {
      const f = file(`squids:\n  "Paris restaurants":\n    webhook: { url: "${url}", events: [run.done] }\n`);
      for (const cmd of [['plan'], ['plan', '--json'], ['apply', '--yes'], ['delivery', 'apply']]) {
        const r = await run([...cmd, '-f', f], { HOOK_TOKEN: 'ENVTOKEN4242' });
        expect(r.code, cmd.join(' ')).toBe(2);
        const message = cmd.includes('--json') ? JSON.parse(r.stderr).error.message : r.stderr;
        expect(message, cmd.join(' ')).toContain(
          'webhook.url: must be an http(s) URL (http:// or https:// and a host)',
        );
        expect(r.stderr, cmd.join(' ')).not.toContain('ci.exa');
        expect(r.stderr, cmd.join(' ')).not.toContain('ENVTOKEN4242');
      }
    }
  });

  it("a token from ${VAR} in a URL's path, or in ?code=, is masked by plan, apply --dry-run and apply reports (text and --json)", async () => {
    emu.expectWrites('POST /v1/delivery');
    const f = file(
      'squids:\n  "Paris restaurants":\n    webhook: { url: "https://hooks.slack.com/services/${SLACK_HOOK}", events: [run.done] }\n' +
        '  "Lyon bakeries":\n    webhook: { url: "https://fn.azurewebsites.net/api/hook?code=AZLITERAL9999", events: [run.done] }\n',
    );
    const env = { SLACK_HOOK: 'T000/B000/SLACKSECRET77' };
    const shown = await run(['plan', '-f', f, '--show-secrets'], env);
    expect(shown.stdout).toContain('SLACKSECRET77');
    expect(shown.stdout).toContain('AZLITERAL9999');
    for (const args of [
      ['plan', '-f', f],
      ['plan', '-f', f, '--json'],
      ['apply', '-f', f, '--dry-run'],
      ['apply', '-f', f, '--dry-run', '--json'],
      ['apply', '-f', f, '--json'],
    ]) {
      const r = await run(args, env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(args[0] === 'plan' ? 10 : 0);
      expect(r.stdout + r.stderr, args.join(' ')).not.toMatch(/SLACKSECRET77|T000\/B000|AZLITERAL9999/);
      expect(r.stdout + r.stderr, args.join(' ')).toContain('https://hooks.slack.com/services/********');
      // Any host but the known webhook services: scheme and host, the rest masked (issue 33, E3).
      expect(r.stdout + r.stderr, args.join(' ')).toContain('https://fn.azurewebsites.net/********');
    }
  });

  it('a value of 1 to 3 characters is masked too: plan, apply --dry-run, -v and messages (text and --json)', async () => {
    emu.expectWrites('POST /v1/delivery');
    const f = file(
      'squids:\n  "Paris restaurants":\n    sftp: { host: sftp.example.com, username: "${SFTP_USER}", password: "${SFTP_PASSWORD}", directory: /up }\n',
    );
    const env = { SFTP_USER: 'q7z' };
    expect((await run(['plan', '-f', f, '--show-secrets'], env)).stdout).toContain('username: "q7z"');
    for (const args of [
      ['plan', '-f', f],
      ['plan', '-f', f, '--json'],
      ['apply', '-f', f, '--dry-run'],
      ['apply', '-f', f, '--dry-run', '--json'],
      ['apply', '-f', f, '--json', '-v'],
    ]) {
      const r = await run(args, env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(args[0] === 'plan' ? 10 : 0);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain('q7z');
      expect(r.stdout + r.stderr, args.join(' ')).toContain('"********"');
    }
    const bad = await run(
      ['plan', '-f', file('squids:\n  "Paris restaurants":\n    email: { address: "${OPS_ADDRESS}" }\n')],
      { OPS_ADDRESS: 'x@' },
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('email.address: must be an e-mail address (name@host)');
  });

  it('no message quotes an expanded value', async () => {
    const f = file('squids:\n  "Paris restaurants":\n    email: { address: "${OPS_ADDRESS}" }\n');
    const r = await run(['plan', '-f', f], { OPS_ADDRESS: 'not-an-address-4242' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('squids."Paris restaurants".email.address: must be an e-mail address (name@host)');
    expect(r.stderr).not.toContain('4242');
  });
});

describe('a URL whose ${VAR} is not set', () => {
  const WEBHOOK =
    'squids:\n  "Paris restaurants":\n    webhook: { url: "https://ci.example.com/hook?token=${HOOK_TOKEN}", events: [run.done] }\n';

  it('plan reports it not compared (exit 10 for a new channel); apply refuses it, exit 2 naming the variable, before any request', async () => {
    const f = file(WEBHOOK);
    const p = await planJson(f);
    expect(p.code, p.stderr).toBe(10);
    expect(p.plan.items).toMatchObject([
      { kind: 'delivery', action: 'create', channel: 'webhook', not_compared: ['url (${HOOK_TOKEN} is not set)'] },
    ]);
    expect(p.plan.items[0].changes.map((c: { field: string }) => c.field)).not.toContain('url');
    await emu.clearRequests();
    for (const args of [
      ['apply', '-f', f, '--yes'],
      ['apply', '-f', f, '--dry-run'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('environment variable HOOK_TOKEN is not set or empty');
    }
    expect(await writes()).toEqual([]);
  });

  it('a channel that otherwise matches: plan exit 0 listing it as not compared (text and --json); apply sends nothing', async () => {
    await emu.api(`/v1/delivery?squid=${emu.squidId('Paris restaurants')}`, {
      method: 'POST',
      body: {
        webhook_fields: {
          url: 'https://ci.example.com/hook?token=STORED-5151',
          is_active: true,
          retry: true,
          events: { 'run.running': false, 'run.paused': false, 'run.done': true, 'run.error': false },
        },
      },
    });
    const f = file(WEBHOOK);
    const p = await planJson(f, {}, WEBHOOK_UNREAD);
    expect(p.code, p.stderr).toBe(0);
    const unread = ['retry', 'events.run.running', 'events.run.paused', 'events.run.done', 'events.run.error'];
    expect(p.plan).toMatchObject({
      items: [],
      not_compared: [
        {
          kind: 'delivery',
          squid: 'Paris restaurants',
          channel: 'webhook',
          not_compared: [...unread, 'url (${HOOK_TOKEN} is not set)'],
        },
      ],
    });
    const t = await run(['plan', '-f', f, ...WEBHOOK_UNREAD]);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(
      new RegExp(
        /^No changes to apply, but some fields were not compared \(their variable is not set, or /.source +
          /--assume-unchanged\):\n\? webhook delivery of squid "Paris restaurants" \([0-9a-f]{8}\)\n/.source +
          / {4}retry: not compared\n/.source,
      ),
    );
    expect(t.stdout).toMatch(/ {4}url \(\$\{HOOK_TOKEN\} is not set\): not compared\n$/);
    await emu.clearRequests();
    const a = await run(['apply', '-f', f, '--yes', ...WEBHOOK_UNREAD]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toContain('url (${HOOK_TOKEN} is not set): not compared');
    expect(a.stderr).toContain('Nothing was sent.');
    expect(await writes()).toEqual([]);
  });
});

describe('a webhook URL token rotated in the environment', () => {
  const OLD = 'hooktok_ABC123';
  const store = (url: string) =>
    emu.api(`/v1/delivery?squid=${emu.squidId('Paris restaurants')}`, {
      method: 'POST',
      body: {
        webhook_fields: {
          url,
          is_active: true,
          retry: true,
          events: { 'run.running': false, 'run.paused': false, 'run.done': true, 'run.error': true },
        },
      },
    });
  const f = () =>
    file(
      'squids:\n  "Paris restaurants":\n    webhook: { url: "https://ci.example.com/hook/${HOOK_TOKEN}?x=1", events: [run.done, run.error] }\n',
    );
  const env = { HOOK_TOKEN: 'NEWhooktok_999' };

  it('plan and delivery apply --dry-run show the stored URL masked where the file has ${NAME}, as text and JSON', async () => {
    await store(`https://ci.example.com/hook/${OLD}?x=1`);
    const path = f();
    // A webhook URL on any host but the known services: its scheme and host, the rest masked (issue 33, E3).
    const change = { field: 'url', from: 'https://ci.example.com/********', to: 'https://ci.example.com/********' };
    const p = await planJson(path, env, WEBHOOK_UNREAD);
    expect(p.plan.items).toMatchObject([{ kind: 'delivery', action: 'update', channel: 'webhook', changes: [change] }]);
    const d = await run(['delivery', 'apply', '-f', path, '--dry-run', '--json', ...WEBHOOK_UNREAD], env);
    expect(JSON.parse(d.stdout).items[0].changes).toEqual([change]);
    for (const args of [
      ['plan', '-f', path],
      ['plan', '-f', path, '--json'],
      ['delivery', 'apply', '-f', path, '--dry-run'],
      ['delivery', 'apply', '-f', path, '--dry-run', '--json'],
    ]) {
      const r = await run(args, env);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(OLD);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain('NEWhooktok_999');
    }
  });

  it("a stored URL that does not fit the file's shape is masked whole", async () => {
    await store(`https://old.example.com/h/${OLD}`);
    const p = await planJson(f(), env, WEBHOOK_UNREAD);
    expect(p.plan.items[0].changes).toEqual([
      { field: 'url', from: '********', to: 'https://ci.example.com/********' },
    ]);
  });
});

describe('edit → plan → apply → plan', () => {
  it('the plan lists exactly the edit; apply sends it; the next plan and a second apply are empty', async () => {
    const doc = parse(await exported());
    const paris = doc.squids['Paris restaurants'];
    paris.concurrency = 3;
    paris.params.functions.collect_business_details = true;
    paris.tasks.push('https://www.google.com/maps/search/creperie+paris');
    doc.squids['Lyon bakeries'].webhook = { url: 'https://ci.example.com/hook', events: ['run.done'] };
    const edited = file(JSON.stringify(doc), 'edited.json');
    const lyon = emu.squidId('Lyon bakeries');
    const parisId = emu.squidId('Paris restaurants');

    const p = await planJson(edited);
    expect(p.code, p.stderr).toBe(10);
    expect(p.plan).toEqual({
      version: 1,
      dry_run: true,
      summary: { create: 2, update: 1, delete: 0, applied: 0, failed: 0, skipped: 0, not_compared: 0 },
      items: [
        item({
          kind: 'squid',
          action: 'update',
          squid: 'Paris restaurants',
          id: parisId,
          changes: [
            { field: 'concurrency', from: 1, to: 3 },
            { field: 'params.functions.collect_business_details', from: false, to: true },
          ],
          requests: [
            {
              method: 'POST',
              path: `/v1/squids/${parisId}`,
              body: {
                concurrency: 3,
                // The API replaces params whole: the live ones go along with the file's change.
                params: {
                  max_results: 200,
                  country: 'United States',
                  ratings: 'Any rating',
                  language: 'English (United States)',
                  functions: {
                    collect_business_details: true,
                    fetch_business_images: false,
                    extract_emails_from_website: false,
                  },
                },
              },
            },
          ],
        }),
        item({
          kind: 'tasks',
          action: 'create',
          squid: 'Paris restaurants',
          id: parisId,
          changes: [],
          add: ['https://www.google.com/maps/search/creperie+paris'],
        }),
        item({
          kind: 'delivery',
          action: 'create',
          squid: 'Lyon bakeries',
          id: lyon,
          channel: 'webhook',
          changes: [
            { field: 'url', from: null, to: 'https://ci.example.com/********' },
            { field: 'is_active', from: null, to: true },
            { field: 'retry', from: null, to: true },
            { field: 'events.run.running', from: null, to: false },
            { field: 'events.run.paused', from: null, to: false },
            { field: 'events.run.done', from: null, to: true },
            { field: 'events.run.error', from: null, to: false },
          ],
        }),
      ],
      not_compared: [],
    });
    const text = await run(['plan', '-f', edited]);
    expect(text.stdout).toContain('~ update squid "Paris restaurants"');
    expect(text.stdout).toContain('    concurrency: 1 → 3');
    expect(text.stdout).toContain('Plan: 2 to create, 1 to change, 0 to delete.');

    await emu.clearRequests();
    const a = await run(['apply', '-f', edited]);
    expect(a.code, a.stderr).toBe(0);
    expect((await writes()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v1/squids/${parisId}`,
      'POST /v1/tasks',
      'POST /v1/delivery',
    ]);
    expect((await writes())[0].body).toEqual({
      concurrency: 3,
      params: {
        max_results: 200,
        country: 'United States',
        ratings: 'Any rating',
        language: 'English (United States)',
        functions: { collect_business_details: true, fetch_business_images: false, extract_emails_from_website: false },
      },
    });

    expect((await planJson(edited)).plan.items).toEqual([]);
    await emu.clearRequests();
    const again = await run(['apply', '-f', edited]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('No changes');
    expect(await writes()).toEqual([]);
  });

  it('a file of `sq delivery apply` is an account file: plan, then apply, then nothing to do', async () => {
    emu.expectWrites('POST /v1/delivery');
    const f = file(`
squids:
  "Paris restaurants":
    sftp: { host: sftp.example.com, port: 2222, username: deploy, password: \${SFTP_PASSWORD}, directory: /upload }
  "Lyon bakeries":
    email: { address: ops@example.com }
`);
    const p = await run(['plan', '-f', f]);
    expect(p.code, p.stderr).toBe(10);
    expect(p.stdout).toContain('+ create sftp delivery of squid "Paris restaurants"');
    expect(p.stdout).toContain('    password: "********"');
    expect(p.stdout).not.toContain(PW);
    expect((await run(['apply', '-f', f])).code).toBe(0);
    expect((await run(['plan', '-f', f])).code).toBe(0);
  });
});

describe('drift', () => {
  it('a change made through the API behind sq’s back is detected: exit 10 with the field', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const f = file(await exported());
    const id = emu.squidId('Tech influencers');
    await emu.api(`/v1/squids/${id}`, { method: 'POST', body: { concurrency: 5, run_notify: 'on_error' } });
    const p = await planJson(f);
    expect(p.code).toBe(10);
    expect(p.plan.items).toEqual([
      item({
        kind: 'squid',
        action: 'update',
        squid: 'Tech influencers',
        id,
        changes: [
          { field: 'concurrency', from: 5, to: 1 },
          { field: 'notify', from: 'on_error', to: 'none' },
        ],
      }),
    ]);
    expect((await run(['apply', '-f', f])).code).toBe(0);
    expect((await planJson(f)).code).toBe(0);
  });

  it('a squid created behind sq’s back is not touched without prune, and listed for deletion with prune', async () => {
    const text = await exported();
    await emu.api('/v1/squids', {
      method: 'POST',
      body: { crawler: (await emu.api('/v1/crawlers')).data[0].id, name: 'Stray' },
    });
    expect((await planJson(file(text))).code).toBe(0);
    const p = await planJson(file(`prune: true\n${text}`));
    expect(p.code).toBe(10);
    expect(p.plan.items).toMatchObject([{ kind: 'squid', action: 'delete', squid: 'Stray' }]);
  });
});

describe('apply: order, dry run, partial failure', () => {
  const NEW = `
billing:
  auto_reset: { enabled: false, threshold: 70 }
squids:
  "Berlin cafes":
    crawler: google-maps-search-export
    concurrency: 2
    params: { language: Deutsch (Deutschland) }
    tasks: [ "https://www.google.com/maps/search/cafe+berlin" ]
    sftp: { host: sftp.example.com, username: deploy, password: \${SFTP_PASSWORD}, directory: /upload }
`;

  it('creates the squid, then its settings, tasks, delivery, and billing last', async () => {
    await emu.clearRequests();
    const r = await run(['apply', '-f', file(NEW)]);
    expect(r.code, r.stderr).toBe(0);
    const w = await writes();
    expect(w.map((x) => `${x.method} ${x.path}`)).toEqual([
      'POST /v1/squids',
      expect.stringMatching(/^POST \/v1\/squids\/[0-9a-f]{32}$/),
      'POST /v1/tasks',
      'POST /v1/delivery',
      'POST /v1/plans/auto-reset',
    ]);
    expect(w[0].body).toEqual({ crawler: expect.any(String), name: 'Berlin cafes' });
    expect(w[4].body).toEqual({ enabled: false, threshold_pct: 70 });
    expect(JSON.stringify(w)).not.toContain(PW);
    expect(r.stderr).not.toContain(PW);
    expect((await run(['plan', '-f', file(NEW)])).code).toBe(0);
  });

  it('--dry-run prints the requests and sends nothing (the request log has only GETs)', async () => {
    await emu.clearRequests();
    const r = await run(['apply', '-f', file(NEW), '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('POST /v1/squids\n');
    expect(r.stdout).toContain('POST /v1/squids/<id of new squid "Berlin cafes">');
    expect(r.stdout).toContain('POST /v1/plans/auto-reset');
    expect(r.stdout).not.toContain(PW);
    expect(r.stderr).toContain('Dry run: nothing was sent.');
    const all = await emu.requests();
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((x) => x.method !== 'GET')).toEqual([]);
  });

  it('partial failure: exit 8, the failed and skipped items reported, the others applied', async () => {
    emu.expectWrites('POST /v1/squids', 'POST /v1/squids/*', 'POST /v1/tasks');
    await emu.clearRequests();
    // indeed-jobs allows 10 workers at most: the service refuses 15 (ConcurrencyLimitExceeded).
    const f = file(`
squids:
  "New squid":
    crawler: google-maps-search-export
    tasks: [ "https://www.google.com/maps/search/a" ]
  "Job board watch":
    concurrency: 15
  "Paris restaurants":
    concurrency: 4
`);
    await emu.faults([
      {
        method: 'POST',
        path: '/v1/squids',
        action: 'status',
        status: 400,
        count: 1,
        body: {
          error: { message: 'Slots limit exceeded (SlotsLimitExceeded).', type: 'validation_error', param: 'crawler' },
        },
      },
    ]);
    const r = await run(['apply', '-f', f]);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toMatch(/2 of 4 changes failed, 1 skipped; 1 applied/);
    expect(r.stderr).toMatch(/failed: squid of "New squid": .*SlotsLimitExceeded/);
    expect(r.stderr).toMatch(/failed: squid of "Job board watch": .*ConcurrencyLimitExceeded/);
    expect(r.stderr).toMatch(/skipped: tasks of "New squid": squid "New squid" was not created/);
    expect((await emu.api(`/v1/squids/${emu.squidId('Paris restaurants')}`)).concurrency).toBe(4);
    // Again, with the fault gone: the squid is created now; the refused concurrency still fails, Paris is done.
    const json = await run(['apply', '-f', f, '--json']);
    expect(json.code).toBe(8);
    expect(JSON.parse(json.stdout)).toMatchObject({
      dry_run: false,
      summary: { applied: 2, failed: 1, skipped: 0 },
      items: [
        { squid: 'New squid', status: 'applied' },
        { squid: 'Job board watch', status: 'failed' },
        { kind: 'tasks', status: 'applied' },
      ],
    });
  });
});

describe('apply: a create answered without an id', () => {
  it('is reported as ambiguous, and the squid\'s settings, tasks and delivery are skipped (nothing sent for squid "")', async () => {
    const f = file(`
squids:
  "Weird":
    crawler: google-maps-search-export
    concurrency: 2
    tasks: [ "https://www.google.com/maps/search/weird" ]
    webhook: { url: "https://ci.example.com/hook", events: [run.done] }
`);
    await emu.faults([
      {
        method: 'POST',
        path: '/v1/squids',
        count: 1,
        action: 'status',
        status: 200,
        body: { object: 'squid', name: 'Weird' },
      },
    ]);
    await emu.clearRequests();
    const r = await run(['apply', '-f', f, '--json']);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(
      '✗ create squid "Weird": failed: the API answered POST /v1/squids without the id of the new squid. The request may have reached the server',
    );
    // One task is "1 task", not "1 task(s)" (issue 36).
    expect(r.stderr).toContain('- add 1 task to squid "Weird": skipped: squid "Weird" was not created');
    expect(r.stderr).toContain('- create webhook delivery of squid "Weird": skipped: squid "Weird" was not created');
    expect(JSON.parse(r.stdout)).toMatchObject({
      summary: { applied: 0, failed: 1, skipped: 2 },
      items: [
        { kind: 'squid', status: 'failed' },
        { kind: 'tasks', status: 'skipped' },
        { kind: 'delivery', status: 'skipped' },
      ],
    });
    expect((await writes()).map((w) => `${w.method} ${w.path}`)).toEqual(['POST /v1/squids']);
  });
});

describe('apply: a single item', () => {
  it("when the only item fails, apply exits with that error's own code and message", async () => {
    emu.expectWrites('POST /v1/squids/*');
    const r = await run(['apply', '-f', file('squids:\n  "Job board watch": { concurrency: 15 }\n')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: .*ConcurrencyLimitExceeded/m);
  });
});

describe('confirmations: prune and billing', () => {
  it('prune deletes only with --yes; --no-input without it is exit 2 naming --yes, and nothing is sent', async () => {
    const doc = parse(await exported());
    delete doc.squids['Job board watch'];
    doc.squids['Paris restaurants'].tasks = doc.squids['Paris restaurants'].tasks.slice(1);
    doc.prune = true;
    const f = file(JSON.stringify(doc), 'prune.json');
    const p = await planJson(f);
    expect(p.code).toBe(10);
    expect(p.plan.summary).toEqual({
      create: 0,
      update: 0,
      delete: 2,
      applied: 0,
      failed: 0,
      skipped: 0,
      not_compared: 0,
    });
    expect(p.plan.items.map((i: { needs_yes: string }) => i.needs_yes)).toEqual([
      expect.stringMatching(/^delete 1 task/),
      'delete squid "Job board watch" with its tasks, runs and results',
    ]);
    expect(p.plan.items.map((i: { kind: string; action: string }) => `${i.action} ${i.kind}`)).toEqual([
      'delete tasks',
      'delete squid',
    ]);
    await emu.clearRequests();
    const no = await run(['apply', '-f', f, '--no-input']);
    expect(no.code).toBe(2);
    expect(no.stderr).toContain('--yes');
    expect(await writes()).toEqual([]);
    const yes = await run(['apply', '-f', f, '--yes']);
    expect(yes.code, yes.stderr).toBe(0);
    expect((await writes()).map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
    expect((await planJson(f)).code).toBe(0);
  });

  it('enabling the billing reset warns about the charge and needs --yes', async () => {
    await emu.control('POST', '/_emulator/usage', { pct: 90 });
    const f = file('billing:\n  auto_reset: { enabled: true, threshold: 80, max_resets: 2 }\n');
    const p = await run(['plan', '-f', f]);
    expect(p.code).toBe(10);
    expect(p.stdout).toContain('    enabled: false → true');
    expect(p.stdout).toContain('a reset, and a charge, fires as soon as this is saved');
    await emu.clearRequests();
    const no = await run(['apply', '-f', f, '--no-input']);
    expect(no.code).toBe(2);
    expect(no.stderr).toMatch(/--yes/);
    expect(no.stderr).toMatch(/card on file is charged/);
    expect(await writes()).toEqual([]);
    const yes = await run(['apply', '-f', f, '--yes']);
    expect(yes.code, yes.stderr).toBe(0);
    expect((await writes()).map((r) => r.body)).toEqual([{ enabled: true, threshold_pct: 80, max_resets_per_24h: 2 }]);
  });
});

describe('bad files: exit 2, every problem named by its path, before any request', () => {
  it.each([
    [
      'squids:\n  "Paris restaurants":\n    concurrency: 30\n',
      'squids."Paris restaurants".concurrency: must be at most 20 (got a number)',
    ],
    ['squids:\n  a:\n    colour: red\n', 'squids.a: unknown field'],
    [
      'squids:\n  a:\n    notify: always\n',
      'squids.a.notify: must be one of "on_success", "on_error", "none" (got a string)',
    ],
    [
      'squids:\n  a:\n    sftp: { host: h, username: u, directory: /d, password: hunter2 }\n',
      'squids.a.sftp.password: must be an environment reference',
    ],
    ['billing:\n  auto_reset: { threshold: 0 }\n', 'billing.auto_reset.threshold: must be at least 1 (got a number)'],
    ['squids:\n  a:\n    webhook: { url: "https://x.example", events: [run.finished] }\n', 'squids.a.webhook.events'],
    ['squids: [1, 2]\n', 'squids: must be a mapping'],
    [
      'squids:\n  a:\n    tasks: [ "https://x.example/1", { keyword: k, country: [1] } ]\n',
      'squids.a.tasks[1].country: must be a string, a number, a boolean or null (got a list)\n',
    ],
    [
      'squids:\n  a:\n    tasks: [ "https://x.example/1", 5 ]\n',
      'squids.a.tasks[1]: must be a URL (the task {url: …}) or an object of task parameters',
    ],
  ])('%j', async (text, msg) => {
    await emu.clearRequests();
    const r = await run(['plan', '-f', file(text)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(msg);
    expect(r.stderr).not.toContain('hunter2');
    expect(await emu.requests()).toEqual([]);
  });

  it.each([
    [
      'squids:\n  "Paris restaurants":\n    concurrency: 30\n',
      ':3:18: squids."Paris restaurants".concurrency: must be at most 20',
    ],
    ['squids:\n  a:\n    colour: red\n', ':3:13: squids.a: unknown field'],
    ['billing:\n  auto_reset: { threshold: 0 }\n', ':2:28: billing.auto_reset.threshold: must be at least 1'],
    ['squids:\n  a:\n    webhook: { url: "https://x.example" }\n', ':3:14: squids.a.webhook.events: is required'],
  ])('%j: the problem says where it stands, file:line:col', async (text, msg) => {
    const f = file(text);
    const r = await run(['plan', '-f', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${f}${msg}`);
  });

  it('no error quotes the file: a .env, a private key, a bad value or a broken YAML/JSON say FILE:LINE:COL and what was expected', async () => {
    const SECRET = 'S3CRETxyz987';
    const cases: Array<[string, string, string]> = [
      [
        '.env',
        `DATABASE_URL=postgres://u:${SECRET}@db/x\nAWS_KEY=${SECRET}\n`,
        ':1:1: (top level): must be a mapping (got a string)',
      ],
      [
        'id_ed25519',
        `-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn${SECRET}\n-----END OPENSSH PRIVATE KEY-----\n`,
        ':1:1: (top level): must be a mapping (got a string)',
      ],
      [
        'v.yaml',
        `squids:\n  a:\n    crawler: [${SECRET}]\n    notify: ${SECRET}\n`,
        ':3:14: squids.a.crawler: must be a string (got a list)',
      ],
      [
        'q.yaml',
        `squids:\n  a: { crawler: "${SECRET}\n`,
        'cannot parse the account file: expected a closing character',
      ],
      ['j.json', `{"squids": {"a": ${SECRET}}`, 'cannot parse the account file: expected'],
      ['k.yaml', `squids:\n  a:\n    ${SECRET}: 1\n`, 'squids.a: unknown field'],
    ];
    for (const [name, text, msg] of cases) {
      const f = file(text, name);
      for (const cmd of [
        ['plan', '-f', f],
        ['plan', '-f', f, '--json'],
        ['apply', '-f', f, '--yes'],
        ['delivery', 'apply', '-f', f],
      ]) {
        const r = await run(cmd);
        expect(r.code, `${cmd.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stdout + r.stderr, cmd.join(' ')).not.toContain(SECRET);
        if (cmd[0] === 'plan' && cmd.length === 3) expect(r.stderr).toContain(`${f}${msg.startsWith(':') ? msg : ''}`);
        if (cmd[0] === 'plan' && cmd.length === 3) expect(r.stderr).toContain(msg);
      }
    }
  });

  it('a params key the crawler does not declare is exit 2 with a did-you-mean, where it stands, before any write', async () => {
    const text =
      'squids:\n  "Paris restaurants":\n    params: { max_result: 100, functions: { extract_email_from_website: true }, language: Français (France) }\n' +
      '  "New one":\n    crawler: google-maps-search-export\n    params:\n      langauge: Français (France)\n';
    const f = file(text);
    for (const cmd of [
      ['plan', '-f', f],
      ['apply', '-f', f, '--yes'],
    ]) {
      await emu.clearRequests();
      const r = await run(cmd);
      expect(r.code, cmd.join(' ')).toBe(2);
      expect(r.stderr).toContain(
        `${f}:3:27: squids."Paris restaurants".params.max_result: crawler "Google Maps Search Export" ` +
          `has no parameter "max_result"; did you mean "max_results"? (allowed: max_results, country, ` +
          `ratings, language, functions.collect_business_details, functions.fetch_business_images, functions.extract_emails_from_website)`,
      );
      expect(r.stderr).toContain(
        'squids."Paris restaurants".params.functions.extract_email_from_website: crawler "Google Maps ' +
          'Search Export" has no parameter "functions.extract_email_from_website"; did you mean "functions.extract_emails_from_website"?',
      );
      expect(r.stderr).toContain(
        `${f}:7:17: squids."New one".params.langauge: crawler "google-maps-search-export" has no parameter "langauge"; did you mean "language"?`,
      );
      expect(await writes()).toEqual([]);
    }
  });

  it('a squid that does not exist and has no crawler, or an unknown crawler, is named', async () => {
    const r = await run([
      'plan',
      '-f',
      file('squids:\n  Nowhere: { concurrency: 2 }\n  Other: { crawler: no-such-crawler }\n'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('squids.Nowhere: no squid of this account is named so; add "crawler:" to create it');
    expect(r.stderr).toContain('squids.Other.crawler: no crawler has the id, name or slug "no-such-crawler"');
  });

  it('tasks from a CSV file with a header row, relative to the file', async () => {
    writeFileSync(join(dir, 'tasks.csv'), 'category,city\npizza,Paris\nsushi,Paris\n');
    const f = file('squids:\n  "Paris restaurants":\n    tasks: { file: tasks.csv }\n');
    const p = await planJson(f);
    expect(p.code, p.stderr).toBe(10);
    // {category: pizza, city: Paris} exists (the seed has it with country too); sushi is new.
    expect(p.plan.items).toMatchObject([
      { kind: 'tasks', action: 'create', add: [{ category: 'sushi', city: 'Paris' }] },
    ]);
  });
});

describe('files and values that would exhaust or smuggle', () => {
  const BOMB =
    [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
    ].join('\n') + '\n';

  it('a "billion laughs" file is exit 2 naming the file (plan, apply, delivery apply, stdin), before any request; a few aliases are fine', async () => {
    const f = file(BOMB, 'bomb.yaml');
    await emu.clearRequests();
    for (const [args, stdin, name] of [
      [['plan', '-f', f], undefined, f],
      [['apply', '-f', f, '--yes'], undefined, f],
      [['delivery', 'apply', '-f', f], undefined, f],
      [['plan', '-f', '-'], BOMB, '<stdin>'],
    ] as const) {
      const r = await sq([...args], { env: emu.env(), stdin });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${name}: cannot parse the `);
      expect(r.stderr).toContain('aliases (*name) expand more than 100 times');
    }
    expect(await emu.requests()).toEqual([]);
    const fine = file(
      'squids:\n  "Paris restaurants":\n    webhook: &hook { url: "https://ci.example.com/h", events: [run.done] }\n  "Lyon bakeries":\n    webhook: *hook\n',
    );
    const p = await planJson(fine);
    expect(p.code, p.stderr).toBe(10);
    expect(p.plan.items.map((i: { squid: string; channel: string }) => `${i.squid} ${i.channel}`)).toEqual([
      'Paris restaurants webhook',
      'Lyon bakeries webhook',
    ]);
  });

  it('a webhook or sheet URL over 2048 characters is exit 2 (file, ${VAR} and --url), the URL not quoted', async () => {
    const long = `https://ci.example.com/${'p'.repeat(2030)}?token=LONGTOKEN99`;
    const f = file(
      'squids:\n  "Paris restaurants":\n    webhook: { url: "${HOOK_URL}", events: [run.done] }\n ' +
        '   sheet: { url: "https://docs.google.com/spreadsheets/d/x/${LONG_PATH}" }\n',
    );
    for (const args of [
      ['plan', '-f', f],
      ['apply', '-f', f, '--yes'],
      ['delivery', 'apply', '-f', f],
    ]) {
      const r = await run(args, { HOOK_URL: long, LONG_PATH: 'q'.repeat(2048) });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(
        `squids."Paris restaurants".webhook.url: is ${long.length} characters long; the longest URL accepted is 2048`,
      );
      expect(r.stderr).toContain(`squids."Paris restaurants".sheet.url: is ${41 + 2048} characters long`);
      expect(r.stderr).not.toContain('LONGTOKEN99');
    }
    for (const args of [
      ['delivery', 'webhook', '--squid', 'Paris restaurants', '--url', long],
      ['delivery', 'test', 'webhook', '--url', long],
      ['delivery', 'sheet', '--squid', 'Paris restaurants', '--url', long],
    ]) {
      const r = await run(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`--url is ${long.length} characters long; the longest URL accepted is 2048`);
      expect(r.stderr).not.toContain('LONGTOKEN99');
    }
    // 2048 is accepted.
    const edge = `https://ci.example.com/${'e'.repeat(2048 - 23)}`;
    expect((await run(['delivery', 'webhook', '--squid', 'Paris restaurants', '--url', edge, '--dry-run'])).code).toBe(
      0,
    );
    expect(await writes()).toEqual([]);
  });

  it('a ${VAR} with a newline or another control character in a host or URL is exit 2 naming the variable, never its value', async () => {
    const f = file(
      'squids:\n  "Paris restaurants":\n    sftp: { host: "${SFTP_HOST}", username: deploy, password: "${SFTP_PASSWORD}", directory: /up }\n' +
        '    webhook: { url: "https://${HOOK_HOST}/hook", events: [run.done] }\n',
    );
    await emu.clearRequests();
    for (const args of [
      ['plan', '-f', f],
      ['plan', '-f', f, '--json'],
      ['apply', '-f', f, '--yes'],
      ['delivery', 'apply', '-f', f],
    ]) {
      const r = await run(args, { SFTP_HOST: 'sftp.example.com\nInjected-Line', HOOK_HOST: 'ci.example.com\tx' });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      const text = args.includes('--json') ? JSON.stringify(JSON.parse(r.stderr)) : r.stderr;
      expect(text).toContain('sftp.host: environment variable SFTP_HOST holds a control character');
      expect(text).toContain('webhook.url: environment variable HOOK_HOST holds a control character');
      expect(r.stdout + r.stderr).not.toMatch(/Injected-Line|sftp\.example\.com|ci\.example\.com/);
    }
    expect(await emu.requests()).toEqual([]);
  });
});

describe('a tasks file', () => {
  it(
    'must be a regular file in the account file\'s directory: absolute, "..", a symlink out, a ' +
      'FIFO, a directory and over 10 MiB are exit 2 naming it, before any request',
    async () => {
      const proj = join(dir, 'proj');
      mkdirSync(join(proj, 'sub'), { recursive: true });
      writeFileSync(join(dir, 'outside.csv'), 'url\nhttps://outside.example.com/LEAKED-OUTSIDE\n');
      writeFileSync(join(proj, 'inside.txt'), 'https://www.google.com/maps/search/inside+ok\n');
      symlinkSync('/etc/passwd', join(proj, 'passwd-link'));
      symlinkSync(join(dir, 'outside.csv'), join(proj, 'out-link.csv'));
      symlinkSync('inside.txt', join(proj, 'in-link.txt'));
      execFileSync('mkfifo', [join(proj, 'fifo.txt')]);
      writeFileSync(join(proj, 'big.txt'), '');
      truncateSync(join(proj, 'big.txt'), 10 * 1024 * 1024 + 1);
      const cases: [string, string][] = [
        ['/proc/self/environ', 'is an absolute path'],
        ['/etc/passwd', 'is an absolute path'],
        ['../outside.csv', 'leads out of the directory ("..")'],
        ['sub/../../outside.csv', 'leads out of the directory ("..")'],
        ['passwd-link', 'is a symbolic link to "/etc/passwd", outside the directory'],
        ['out-link.csv', 'outside the directory'],
        ['fifo.txt', 'is not a regular file'],
        ['sub', 'is not a regular file'],
        ['big.txt', 'is 10485761 bytes, over the 10485760-byte (10 MiB) cap'],
        ['missing.txt', 'cannot read "missing.txt" (ENOENT)'],
      ];
      await emu.clearRequests();
      for (const [name, why] of cases) {
        const f = join(proj, 'sq.yaml');
        writeFileSync(f, `squids:\n  "Paris restaurants":\n    tasks: { file: ${JSON.stringify(name)} }\n`);
        for (const cmd of ['plan', 'apply']) {
          const r = await run([cmd, '-f', f, '--yes'], { CI_SECRET_TOKEN: 'ENV-LEAK-4242' });
          expect(r.code, `${name} ${cmd}: ${r.stderr}`).toBe(2);
          expect(r.stderr).toContain(`squids."Paris restaurants".tasks.file: `);
          expect(r.stderr).toContain(why);
          expect(r.stdout + r.stderr).not.toMatch(/root:|ENV-LEAK-4242|LEAKED-OUTSIDE/);
        }
      }
      expect(await emu.requests()).toEqual([]);
      // A link that stays inside the directory is a file like any other.
      const ok = join(proj, 'ok.yaml');
      writeFileSync(ok, 'squids:\n  "Paris restaurants":\n    tasks: { file: in-link.txt }\n');
      const p = await planJson(ok);
      expect(p.code, p.stderr).toBe(10);
      expect(p.plan.items).toMatchObject([
        { kind: 'tasks', action: 'create', add: ['https://www.google.com/maps/search/inside+ok'] },
      ]);
    },
  );
});

describe('a listing capped by the free plan', () => {
  it('export, plan and apply fail (exit 1) naming the cap and the listing, and send nothing', async () => {
    const id = emu.squidId('Paris restaurants');
    const urls = Array.from({ length: 70 }, (_, i) => ({ url: `https://www.google.com/maps/search/capped+${i}` }));
    await emu.api('/v1/tasks', { method: 'POST', body: { squid: id, tasks: urls } });
    const whole = await exported();
    expect(parse(whole).squids['Paris restaurants'].tasks.length).toBeGreaterThan(70);
    await emu.control('POST', '/_emulator/config', { freePlan: true });
    await emu.clearRequests();
    const cap = new RegExp(
      `GET /v1/tasks\\?squid=${id}: the API capped this listing of 73 records and warned: Free plan: only 50 results returned\\..*nothing was written or sent`,
    );
    const exp = await run(['export']);
    expect(exp.code).toBe(1);
    expect(exp.stdout).toBe('');
    expect(exp.stderr).toMatch(cap);
    const f = file(whole);
    for (const args of [
      ['plan', '-f', f],
      ['plan', '-f', f, '--json'],
      ['apply', '-f', f, '--yes'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(cap);
    }
    expect(await writes()).toEqual([]);
  });
});

describe('a listing that ends below its own total_results', () => {
  it('export and plan say so on stderr (the counters may be off, so exit stays 0), never silently', async () => {
    const list = (await emu.api('/v1/squids')) as { data: unknown[] };
    // One page of the real squids that ends the listing (next: null) while total_results counts one more.
    const short = {
      data: list.data,
      total_results: list.data.length + 1,
      page: 1,
      total_pages: 1,
      limit: 100,
      next: null,
    };
    const warned = /warning: GET \/v1\/squids: total_results said \d+ but \d+ records arrived/;
    await emu.faults([{ method: 'GET', path: '/v1/squids', count: 1, action: 'status', status: 200, body: short }]);
    const exp = await run(['export']);
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.stderr).toMatch(warned);
    await emu.faults([{ method: 'GET', path: '/v1/squids', count: 1, action: 'status', status: 200, body: short }]);
    const p = await run(['plan', '-f', file(exp.stdout)]);
    expect(p.code, p.stderr).toBe(0);
    expect(p.stderr).toMatch(warned);
  });
});

describe('what sq plan says its exit 10 needs', () => {
  it('a differing plan is exit 0 without --detailed-exitcode, and both summaries (sq --help, sq plan --help) name the flag', async () => {
    const differs = file(
      'version: 1\nsquids:\n  New one from a summary test:\n    crawler: google-maps-search-export\n',
    );
    expect((await run(['plan:default', '-f', differs])).code).toBe(0);
    expect((await run(['plan', '-f', differs])).code).toBe(10);
    for (const args of [['--help'], ['plan', '--help']]) {
      const text = (await sq(args, { env: emu.env() })).stdout.replace(/\s+/g, ' '); // the list wraps at 80 columns
      expect(text, args.join(' ')).toContain('match a file (--detailed-exitcode: exit 10 when it differs)');
    }
  });
});
