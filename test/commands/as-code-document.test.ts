// The as-code document: `sq plan --json`, `sq apply --json` (dry run or not) and `sq delivery apply --json` print one
// document, the same keys for 0, 1 or N changes, valid for schema/sq-plan.schema.json (a real validator, Ajv), secrets
// masked. `sq delivery apply` is `sq apply` limited to delivery: the same engine, the same items.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { deliveryYaml } from '../helpers/delivery-files.js';
import { tempDir, tempFiles } from '../helpers/fs.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { DOCUMENT_SCHEMA_FILE } from '../../src/account/write-schema.js';

const emu = useEmulator({ each: 'reset' });
let env: Record<string, string>;
const PW = 'plan-Secret-4242';
const TOKEN = 'hooktoken-9876';
const file = tempFiles('sq-document-');
const GOOD = deliveryYaml(`https://ci.example.com/hook?token=${TOKEN}`);
const schema = JSON.parse(readFileSync(resolve(import.meta.dirname, '../..', DOCUMENT_SCHEMA_FILE), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

// One profile directory per test: what sq applied carries from one call to the next, never into the next test.
beforeEach(() => {
  env = emu.env({ SFTP_PASSWORD: PW, SQ_CONFIG_DIR: tempDir('sq-document-cfg-') });
});

const TOP = ['dry_run', 'items', 'not_compared', 'summary', 'version'];
const SUMMARY = ['applied', 'create', 'delete', 'failed', 'not_compared', 'skipped', 'update'];
const ITEM = [
  'action',
  'add',
  'changes',
  'channel',
  'delete',
  'error',
  'fires_now',
  'id',
  'kind',
  'needs_yes',
  'not_compared',
  'requests',
  'scheduled_run',
  'squid',
  'status',
  'unreadable',
];

/** Runs a --json command and checks the document: valid for the schema, the same keys, no secret. */
async function doc(args: string[]) {
  const r = await sq([...args, '--json'], { env });
  expect(r.stdout + r.stderr, args.join(' ')).not.toContain(PW);
  expect(r.stdout + r.stderr, args.join(' ')).not.toContain(TOKEN);
  const d = JSON.parse(r.stdout);
  expect(validate(d), `${args.join(' ')}: ${JSON.stringify(validate.errors)}`).toBe(true);
  expect(Object.keys(d).sort()).toEqual(TOP);
  expect(Object.keys(d.summary).sort()).toEqual(SUMMARY);
  for (const i of d.items) expect(Object.keys(i).sort()).toEqual(ITEM);
  return { code: r.code, doc: d, stderr: r.stderr };
}

const COMMANDS: [string, string[], boolean][] = [
  ['plan', ['plan'], true],
  ['apply --dry-run', ['apply', '--dry-run'], true],
  ['delivery apply --dry-run', ['delivery', 'apply', '--dry-run'], true],
  ['apply', ['apply', '--yes'], false],
  ['delivery apply', ['delivery', 'apply'], false],
];

describe('one document for 0, 1 and 2 changes', () => {
  const ONE = deliveryYaml(`https://ci.example.com/hook?token=${TOKEN}`).replace(/\n  "Lyon bakeries":\n.*\n/, '\n');
  for (const [name, argv, dry] of COMMANDS) {
    it(`${name}: 2 changes, then 1, then 0`, async () => {
      emu.expectWrites('POST /v1/delivery');
      const [cmd, ...rest] = argv;
      const run = (f: string) =>
        doc([cmd, ...(cmd === 'delivery' ? [rest[0], '-f', f, ...rest.slice(1)] : ['-f', f, ...rest])]);
      // Lyon's e-mail and Paris' SFTP and webhook: three channels.
      const two = await run(file('two.yaml', GOOD));
      expect(two.code, two.stderr).toBe(0);
      expect(two.doc.items).toHaveLength(3);
      expect(two.doc.dry_run).toBe(dry);
      expect(two.doc.summary).toMatchObject({
        create: 2,
        update: 1,
        delete: 0,
        applied: dry ? 0 : 3,
        failed: 0,
        skipped: 0,
      });
      expect(two.doc.items.map((i: { status: string }) => i.status)).toEqual(
        Array(3).fill(dry ? 'planned' : 'applied'),
      );
      // Applied for real (for the dry runs), so the next file differs from the account in one field only.
      if (dry) expect((await sq(['apply', '-f', file('two.yaml', GOOD), '--yes'], { env })).code).toBe(0);
      const one = await run(file('one.yaml', ONE.replace('host: sftp.example.com', 'host: moved.example.com')));
      expect(one.code, one.stderr).toBe(0);
      expect(one.doc.items).toHaveLength(1);
      expect(one.doc.items[0]).toMatchObject({
        kind: 'delivery',
        action: 'update',
        channel: 'sftp',
        changes: [{ field: 'host', from: 'sftp.example.com', to: 'moved.example.com' }],
      });
      if (dry)
        expect(
          (
            await sq(
              [
                'apply',
                '-f',
                file('one.yaml', ONE.replace('host: sftp.example.com', 'host: moved.example.com')),
                '--yes',
              ],
              { env },
            )
          ).code,
        ).toBe(0);
      const none = await run(file('one.yaml', ONE.replace('host: sftp.example.com', 'host: moved.example.com')));
      expect(none.code, none.stderr).toBe(0);
      expect(none.doc).toEqual({
        version: 1,
        dry_run: dry,
        summary: { create: 0, update: 0, delete: 0, applied: 0, failed: 0, skipped: 0, not_compared: 0 },
        items: [],
        not_compared: [],
      });
    });
  }
});

describe('the items', () => {
  it('field by field, secrets masked, the requests each item sends; delivery apply and apply agree', async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    const lyon = emu.squidId(DEMO_SQUIDS.lyon);
    const f = file('good.yaml', GOOD);
    const { doc: d } = await doc(['delivery', 'apply', '-f', f, '--dry-run']);
    const created = (field: string, to: unknown) => ({ field, from: null, to });
    const base = {
      add: [],
      delete: [],
      not_compared: [],
      unreadable: [],
      fires_now: null,
      needs_yes: null,
      scheduled_run: null,
      status: 'planned',
      error: null,
    };
    expect(d.items).toEqual([
      {
        ...base,
        kind: 'delivery',
        action: 'create',
        squid: 'Paris restaurants',
        id: paris,
        channel: 'sftp',
        changes: [
          created('host', 'sftp.example.com'),
          created('port', 2222),
          created('username', 'deploy'),
          created('password', '********'),
          created('directory', '/upload'),
          created('is_active', true),
        ],
        requests: [
          {
            method: 'POST',
            path: `/v1/delivery?squid=${paris}`,
            body: {
              ftp_fields: {
                host: 'sftp.example.com',
                port: 2222,
                username: 'deploy',
                password: '********',
                directory: '/upload',
                is_active: true,
              },
            },
          },
        ],
      },
      {
        ...base,
        kind: 'delivery',
        action: 'create',
        squid: 'Paris restaurants',
        id: paris,
        channel: 'webhook',
        changes: [
          created('url', 'https://ci.example.com/********'),
          created('is_active', true),
          created('retry', false),
          created('events.run.running', false),
          created('events.run.paused', false),
          created('events.run.done', true),
          created('events.run.error', true),
        ],
        requests: [expect.objectContaining({ method: 'POST', path: `/v1/delivery?squid=${paris}` })],
      },
      {
        ...base,
        kind: 'delivery',
        action: 'update',
        squid: 'Lyon bakeries',
        id: lyon,
        channel: 'email',
        changes: [
          { field: 'email', from: null, to: 'ops@example.com' },
          { field: 'notifications', from: false, to: true },
        ],
        requests: [
          {
            method: 'POST',
            path: `/v1/delivery?squid=${lyon}`,
            body: { email: 'ops@example.com', notifications: true },
          },
        ],
      },
    ]);
    // The same file through sq apply: the same items.
    expect((await doc(['apply', '-f', f, '--dry-run'])).doc).toEqual(d);
    expect((await doc(['plan', '-f', f])).doc).toEqual(d);
    expect(await emu.requests('POST')).toEqual([]);
  });

  it('--force sends a channel that matches, as an update with no changes', async () => {
    const f = file('good.yaml', GOOD);
    expect((await sq(['delivery', 'apply', '-f', f], { env })).code).toBe(0);
    await emu.clearRequests();
    const { doc: d } = await doc(['delivery', 'apply', '-f', f, '--force']);
    expect(d.summary).toMatchObject({ update: 3, applied: 3 });
    expect(
      d.items.every((i: { action: string; changes: unknown[] }) => i.action === 'update' && i.changes.length === 0),
    ).toBe(true);
    expect(await emu.requests('POST')).toHaveLength(3);
  });

  it('--jq works on the document', async () => {
    const r = await sq(
      ['delivery', 'apply', '-f', file('good.yaml', GOOD), '--dry-run', '--jq', '.items[] | .squid + ": " + .channel'],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Paris restaurants: sftp\nParis restaurants: webhook\nLyon bakeries: email\n');
  });
});

describe('the plan before apply', () => {
  const BILLING = 'billing:\n  auto_reset: { enabled: true, threshold: 80, max_resets: 2 }\n';
  it('without a terminal and without --yes: the plan is shown, then applied when nothing in it needs --yes', async () => {
    await emu.clearRequests();
    const r = await sq(['apply', '-f', file('good.yaml', GOOD), '--no-input'], { env });
    expect(r.code, r.stderr).toBe(0);
    const plan = r.stderr.indexOf('+ create sftp delivery of squid "Paris restaurants"');
    const done = r.stderr.indexOf('✓ create sftp delivery');
    expect(plan).toBeGreaterThanOrEqual(0);
    expect(done).toBeGreaterThan(plan);
    expect(r.stderr).toContain('Plan: 2 to create, 1 to change, 0 to delete.');
    expect(await emu.requests('POST')).toHaveLength(3);
  });

  it('without a terminal and without --yes: a plan with a billing change is shown, the item named, nothing sent, exit 2', async () => {
    await emu.clearRequests();
    const r = await sq(['apply', '-f', file('billing.yaml', `${BILLING}${GOOD}`), '--no-input'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('~ update automatic billing reset');
    expect(r.stderr).toContain('Plan: 2 to create, 2 to change, 0 to delete.');
    expect(r.stderr).toMatch(
      /the plan has changes that need --yes: set automatic billing reset on \(threshold 80%, up to 2 per 24 h\).*Nothing was sent; pass --yes/,
    );
    expect(await emu.requests('POST')).toEqual([]);
    const j = await sq(['apply', '-f', file('billing.yaml', `${BILLING}${GOOD}`), '--no-input', '--json'], { env });
    expect(j.code).toBe(2);
    expect(j.stdout).toBe('');
    expect(await emu.requests('POST')).toEqual([]);
  });

  it('sq plan exits 0 with changes unless --detailed-exitcode asks for 10', async () => {
    emu.expectWrites('POST /v1/delivery');
    const f = file('good.yaml', GOOD);
    expect((await sq(['plan', '-f', f], { env })).code).toBe(0);
    expect((await sq(['plan', '-f', f, '--detailed-exitcode'], { env })).code).toBe(10);
    expect((await sq(['apply', '-f', f], { env })).code).toBe(0);
    expect((await sq(['plan', '-f', f, '--detailed-exitcode'], { env })).code).toBe(0);
  });
});
