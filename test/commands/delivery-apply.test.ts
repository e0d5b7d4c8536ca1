// sq delivery apply: whole-file validation with field paths, ${ENV} secrets, idempotence, dry run, partial failure.
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { deliveryYaml } from '../helpers/delivery-files.js';
import { tempFiles } from '../helpers/fs.js';
import { checkApplyDocument } from '../../src/commands/delivery/_shared/apply-file.js';
import { UsageError } from '../../src/errors.js';
import { ndjson } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });
let env: Record<string, string>;
const PW = 'apply-Secret-77';

const file = tempFiles('sq-apply-');

const GOOD = deliveryYaml(`https://ci.example.com/hook`);

beforeAll(() => {
  env = emu.env({ SFTP_PASSWORD: PW });
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
    expect(problem({ squids: { 'Paris restaurants': { webhook: { url: 'https://x.example', events: ['run.done', 'run.finished'] } } } })).toContain(
      'squids."Paris restaurants".webhook.events[1]: unknown event "run.finished"',
    );
  });

  it('refuses a literal secret and accepts only a whole ${VAR} reference', () => {
    const sftp = { host: 'h', username: 'u', directory: '/d', password: 'plain' };
    expect(problem({ squids: { a: { sftp } } })).toMatch(/squids\.a\.sftp\.password: secrets are not accepted in the file/);
    expect(problem({ squids: { a: { sftp: { ...sftp, password: 'x${P}' } } } })).toMatch(/secrets are not accepted/);
    const ok = checkApplyDocument({ squids: { a: { sftp: { ...sftp, password: '${P}' } } } }, { P: 'from-env' });
    expect(ok.squids[0].bodies[0]).toEqual({ ftp_fields: { host: 'h', port: 22, username: 'u', password: 'from-env', directory: '/d', is_active: true } });
    expect(ok.secrets).toEqual(['from-env']);
  });

  it('names a missing environment variable', () => {
    expect(problem({ squids: { a: { webhook: { url: 'https://${HOOK_HOST}/h', events: 'all' } } } }, {})).toMatch(
      /squids\.a\.webhook\.url: environment variable HOOK_HOST is not set/,
    );
  });

  it('collects every problem: unknown keys, bad port, bad url, unknown channel', () => {
    const msg = problem({
      squids: { b: { sftp: { host: 'h', username: 'u', directory: '/d', password: '${P}', port: 70000, prot: 1 }, ftp: {}, sheet: { url: 'ftp://x' } } },
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
    const bad = file('bad.yaml', 'squids:\n  "Paris restaurants":\n    webhook: { url: "https://x.example", events: [run.done, nope] }\n');
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
    const first = await sq(['delivery', 'apply', '-f', f, '--json'], { env });
    expect(first.code).toBe(0);
    const s1 = JSON.parse(first.stdout);
    expect(s1).toMatchObject({ changed: 2, unchanged: 0, failed: 0 });
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
    expect(JSON.parse(second.stdout)).toMatchObject({ changed: 0, unchanged: 2, failed: 0 });
    expect(await emu.requests('POST')).toEqual([]);
    expect(second.stderr).toMatch(/Paris restaurants .*unchanged/);
  });

  it('a changed password is detected when the service returns the stored one', async () => {
    const f = file('good.yaml', GOOD);
    await sq(['delivery', 'apply', '-f', f], { env });
    await emu.clearRequests();
    const r = await sq(['delivery', 'apply', '-f', f, '--json'], { env: { ...env, SFTP_PASSWORD: 'rotated-pw-1' } });
    expect(r.code).toBe(0);
    const sum = JSON.parse(r.stdout);
    expect(sum.squids[0].channels.sftp).toMatchObject({ status: 'changed', fields: ['password'] });
    expect(await emu.requests('POST')).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain('rotated-pw-1');
  });

  it('--dry-run --format ndjson prints the masked requests, one per line, and sends nothing', async () => {
    // (--json prints one plan object instead: delivery-apply-plan.test.ts)
    const r = await sq(['delivery', 'apply', '-f', file('good.yaml', GOOD), '--dry-run', '--format', 'ndjson'], { env });
    expect(r.code).toBe(0);
    const plan = ndjson(r.stdout);
    expect(plan).toHaveLength(3);
    expect(plan[0]).toMatchObject({ dry_run: true, method: 'POST' });
    expect(JSON.stringify(plan)).not.toContain(PW);
    expect(JSON.stringify(plan)).toContain('********');
    expect(await emu.requests('POST')).toEqual([]);
  });

  it('exit 8 when one squid fails and the others succeed; the per-squid report is on stderr', async () => {
    const f = file('partial.yaml', `${GOOD}  "No such squid":\n    email: ops@example.com\n`);
    const r = await sq(['delivery', 'apply', '-f', f], { env });
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/✗ No such squid: failed/);
    expect(r.stderr).toMatch(/1 of 3 squids failed/);
    expect(r.stdout).toMatch(/Paris restaurants\t[0-9a-f]{32}\tsftp\tchanged/);
    expect(await emu.requests('POST')).toHaveLength(3);
  });

  it('all failing: the error of the single squid (not found = 3)', async () => {
    const r = await sq(['delivery', 'apply', '-f', file('one.yaml', 'squids:\n  "No such squid":\n    email: ops@example.com\n')], { env });
    expect(r.code).toBe(3);
  });

  it('a POST the API refuses is reported per channel', async () => {
    await emu.faults([{ method: 'POST', path: '/v1/delivery', action: 'status', status: 400, body: { error: { message: 'ftp_fields.host is bad', type: 'validation_error', param: 'ftp_fields.host' } }, count: 1 }]);
    try {
      const r = await sq(['delivery', 'apply', '-f', file('good.yaml', GOOD), '--json'], { env });
      expect(r.code).toBe(8);
      const sum = JSON.parse(r.stdout);
      expect(sum.squids[0]).toMatchObject({ status: 'failed' });
      expect(sum.squids[0].channels.sftp.status).toBe('failed');
      expect(sum.squids[0].channels.webhook.status).toBe('changed');
      expect(sum.squids[1].status).toBe('changed');
    } finally {
      await emu.clearFaults();
    }
  });

  it('reads the file from stdin with -f -', async () => {
    const r = await sq(['delivery', 'apply', '-f', '-', '--json'], { env, stdin: JSON.stringify({ squids: { 'Lyon bakeries': { email: { address: 'a@b.example', notifications: false } } } }) });
    expect(r.code).toBe(0);
    expect((await emu.requests('POST'))[0].body).toEqual({ email: 'a@b.example', notifications: false });
  });
});

describe('comparing with the stored config', () => {
  const want = { ftp_fields: { host: 'h', port: 22, username: 'u', password: 'pw-1', directory: '/d', is_active: true } };
  const stored = (ftp: Record<string, unknown> | null) => ({ ftp_fields: ftp, webhook_fields: null, google_sheet_fields: null, s3_fields: null, email: null, notifications: null });

  it('a password the service does not return (absent or masked) is "not compared", not a change', async () => {
    const { diffDelivery } = await import('../../src/api/delivery.js');
    for (const password of [undefined, '', '********', '****pw-1']) {
      const d = diffDelivery(want, stored({ host: 'h', port: 22, username: 'u', directory: '/d', is_active: true, ...(password === undefined ? {} : { password }) }));
      expect(d).toEqual({ fields: [], unverified: ['password'] });
    }
  });

  it('a readable password is compared; other fields always are; no config at all is a change', async () => {
    const { diffDelivery } = await import('../../src/api/delivery.js');
    expect(diffDelivery(want, stored({ host: 'h', port: '22', username: 'u', directory: '/d', password: 'pw-2' })).fields).toEqual(['password']);
    expect(diffDelivery(want, stored({ host: 'h2', port: 22, username: 'u', directory: '/x', password: 'pw-1', is_active: false })).fields).toEqual(['host', 'directory', 'is_active']);
    expect(diffDelivery(want, stored(null)).fields).toEqual(['ftp_fields']);
  });

  it('webhook events are compared in the flat and the nested form', async () => {
    const { diffDelivery } = await import('../../src/api/delivery.js');
    const wh = { webhook_fields: { url: 'https://x.example', is_active: true, retry: true, events: { 'run.running': false, 'run.paused': false, 'run.done': true, 'run.error': true } } };
    const nested = { url: 'https://x.example', is_active: true, retry: true, events: { run: { running: false, paused: false, done: true, error: false } } };
    const d = diffDelivery(wh, { ...stored(null), webhook_fields: nested });
    expect(d.fields).toEqual(['events.run.error']);
  });
});
