// sq export / plan / apply carry a squid's schedule ({cron, timezone}; changelog: update-squid cron_expression +
// timezone) and `active` (is_active): export writes them, plan compares them, apply sends the API fields, a bad
// cron or zone in the file stops the plan before any write.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { schemaText } from '../../src/account/write-schema.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const dir = tempDir('sq-schedule-code-');
let n = 0;

function file(doc: unknown): string {
  const p = join(dir, `f${++n}.yaml`);
  writeFileSync(p, typeof doc === 'string' ? doc : stringify(doc));
  return p;
}
const run = (args: string[]) => sq(args, { env: emu.env() });
const writes = async () => (await emu.requests()).filter((r) => r.method !== 'GET');

describe('schedule and active as code (changelog: cron_expression, timezone, is_active)', () => {
  it('apply sends cron_expression/timezone and is_active; export writes them back; the next plan shows no change', async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    const doc = {
      squids: { [DEMO_SQUIDS.paris]: { active: false, schedule: { cron: '0 9 * * 1', timezone: 'Europe/Paris' } } },
    };
    const p = JSON.parse((await run(['plan', '-f', file(doc), '--json'])).stdout);
    expect(p.items[0].changes).toEqual([
      { field: 'active', from: true, to: false },
      { field: 'schedule', from: null, to: { cron: '0 9 * * 1', timezone: 'Europe/Paris' } },
    ]);
    await emu.clearRequests();
    const a = await run(['apply', '-f', file(doc), '--yes']);
    expect(a.code, a.stderr).toBe(0);
    expect(await writes()).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/v1/squids/${paris}`,
        body: { is_active: false, cron_expression: '0 9 * * 1', timezone: 'Europe/Paris' },
      }),
    ]);
    const exported = parse((await run(['export'])).stdout);
    expect(exported.squids[DEMO_SQUIDS.paris]).toMatchObject({
      active: false,
      schedule: { cron: '0 9 * * 1', timezone: 'Europe/Paris' },
    });
    expect(exported.squids[DEMO_SQUIDS.headphones].schedule).toBeNull();
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validate(JSON.parse(schemaText()), exported), JSON.stringify(ajv.errors)).toBe(true);
    expect(JSON.parse((await run(['plan', '-f', file(exported), '--json'])).stdout).items).toEqual([]);

    // null removes it.
    await emu.clearRequests();
    const off = await run(['apply', '-f', file({ squids: { [DEMO_SQUIDS.paris]: { schedule: null } } }), '--yes']);
    expect(off.code, off.stderr).toBe(0);
    expect((await writes())[0].body).toEqual({ cron_expression: null });
  });

  it('a zone spelled in another case (europe/paris) is planned and sent as the zone list spells it, and the next plan shows no change', async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    const doc = { squids: { [DEMO_SQUIDS.paris]: { schedule: { cron: '0 9 * * 1', timezone: 'europe/paris' } } } };
    const p = JSON.parse((await run(['plan', '-f', file(doc), '--json'])).stdout);
    expect(p.items[0].changes).toEqual([
      { field: 'schedule', from: null, to: { cron: '0 9 * * 1', timezone: 'Europe/Paris' } },
    ]);
    await emu.clearRequests();
    const a = await run(['apply', '-f', file(doc), '--yes']);
    expect(a.code, a.stderr).toBe(0);
    // A schedule turned on is estimated first (one run's cost, schedule-spend.test.ts), then written.
    expect((await writes()).filter((q) => q.path !== '/v1/squid/estimate')).toEqual([
      expect.objectContaining({
        path: `/v1/squids/${paris}`,
        body: { cron_expression: '0 9 * * 1', timezone: 'Europe/Paris' },
      }),
    ]);
    expect(JSON.parse((await run(['plan', '-f', file(doc), '--json'])).stdout).items).toEqual([]);
  });

  it.each([
    [{ cron: '0 9 * *' }, 'schedule.cron: is not valid: expected 5-field cron expression'],
    [{ cron: '0 9 * * 1', timezone: 'Mars/Olympus' }, 'schedule.timezone: is not valid: expected IANA time zone'],
  ])('%j in the file: exit 2 naming the path, no request', async (schedule, message) => {
    const r = await run(['plan', '-f', file({ squids: { [DEMO_SQUIDS.paris]: { schedule } } })]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('schedule');
    expect(r.stderr).toContain(message);
    expect(await emu.requests()).toEqual([]);
  });
});
