// sq delivery apply --dry-run --json: one plan object (squids → channels → action, field-level diff), the same
// shape whatever the number of changes, secrets masked.
import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { deliveryYaml } from '../helpers/delivery-files.js';
import { tempFiles } from '../helpers/fs.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { lastJsonLine } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });
let env: Record<string, string>;
const PW = 'plan-Secret-4242';
const TOKEN = 'hooktoken-9876';

const file = tempFiles('sq-apply-plan-');

const GOOD = deliveryYaml(`https://ci.example.com/hook?token=${TOKEN}`);

beforeAll(() => {
  env = emu.env({ SFTP_PASSWORD: PW });
});


async function dryRun(f: string) {
  const r = await sq(['delivery', 'apply', '-f', f, '--dry-run', '--json'], { env });
  expect(r.stdout + r.stderr).not.toContain(PW);
  expect(r.stdout + r.stderr).not.toContain(TOKEN);
  expect(await emu.requests('POST')).toEqual([]);
  return { ...r, plan: JSON.parse(r.stdout) };
}

const none = { action: 'none', changes: [], not_compared: [] };

describe('delivery apply --dry-run --json', () => {
  it('several changes: every squid and channel, field by field, secrets masked', async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    const lyon = emu.squidId(DEMO_SQUIDS.lyon);
    const { code, plan } = await dryRun(file('good.yaml', GOOD));
    expect(code).toBe(0);
    const created = (f: string, to: unknown) => ({ field: f, from: null, to });
    expect(plan).toEqual({
      version: 1,
      dry_run: true,
      summary: { create: 2, update: 1, delete: 0, unchanged: 0, failed: 0 },
      squids: [
        {
          squid: 'Paris restaurants',
          id: paris,
          name: 'Paris restaurants',
          error: null,
          channels: {
            sftp: {
              action: 'create',
              changes: [
                created('host', 'sftp.example.com'),
                created('port', 2222),
                created('username', 'deploy'),
                created('password', '********'),
                created('directory', '/upload'),
                created('is_active', true),
              ],
              not_compared: [],
            },
            webhook: {
              action: 'create',
              changes: [
                created('url', 'https://ci.example.com/hook?token=********'),
                created('is_active', true),
                created('retry', false),
                created('events.run.running', false),
                created('events.run.paused', false),
                created('events.run.done', true),
                created('events.run.error', true),
              ],
              not_compared: [],
            },
          },
        },
        {
          squid: 'Lyon bakeries',
          id: lyon,
          name: 'Lyon bakeries',
          error: null,
          channels: {
            email: {
              action: 'update',
              changes: [
                { field: 'email', from: null, to: 'ops@example.com' },
                { field: 'notifications', from: false, to: true },
              ],
              not_compared: [],
            },
          },
        },
      ],
    });
  });

  it('no change: the same object, every channel "none"', async () => {
    expect((await sq(['delivery', 'apply', '-f', file('good.yaml', GOOD)], { env })).code).toBe(0);
    await emu.clearRequests();
    const { code, plan } = await dryRun(file('good.yaml', GOOD));
    expect(code).toBe(0);
    expect(plan.summary).toEqual({ create: 0, update: 0, delete: 0, unchanged: 3, failed: 0 });
    expect(plan.squids.map((s: { channels: unknown }) => s.channels)).toEqual([
      { sftp: SFTP_UNCHANGED, webhook: none },
      { email: none },
    ]);
  });

  it('one change: only that field, from → to', async () => {
    expect((await sq(['delivery', 'apply', '-f', file('good.yaml', GOOD)], { env })).code).toBe(0);
    await emu.clearRequests();
    const { code, plan } = await dryRun(file('one.yaml', GOOD.replace('directory: /upload', 'directory: /incoming')));
    expect(code).toBe(0);
    expect(plan.summary).toEqual({ create: 0, update: 1, delete: 0, unchanged: 2, failed: 0 });
    expect(plan.squids[0].channels.sftp).toEqual({ ...SFTP_UNCHANGED, action: 'update', changes: [{ field: 'directory', from: '/upload', to: '/incoming' }] });
    expect(plan.squids[1].channels).toEqual({ email: none });
  });

  it('a squid that cannot be read is in the plan with its error; exit 8', async () => {
    const { code, plan, stderr } = await dryRun(file('partial.yaml', `${GOOD}  "No such squid":\n    email: ops@example.com\n`));
    expect(code).toBe(8);
    expect(plan.summary).toEqual({ create: 2, update: 1, delete: 0, unchanged: 0, failed: 1 });
    expect(plan.squids[2]).toEqual({ squid: 'No such squid', id: null, name: null, error: expect.stringMatching(/^no squid matches "No such squid"/), channels: {} });
    expect(lastJsonLine(stderr).error.message).toBe('1 of 3 squids failed; the others were planned (dry run: nothing was sent)');
  });

  it('--jq works on the plan', async () => {
    const r = await sq(['delivery', 'apply', '-f', file('good.yaml', GOOD), '--dry-run', '--jq', '.squids[] | .squid + ": " + (.channels | keys | join(","))'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Paris restaurants: sftp,webhook\nLyon bakeries: email\n');
  });
});

// The emulator echoes the SFTP password: it is compared (so never "not compared") and never shown.
const SFTP_UNCHANGED = { action: 'none', changes: [], not_compared: [] };
