// credit_used is a float (api-changelog: 4 decimals in every docs sample; the emulator's Sales Navigator half-credit
// function makes fractions): sq shows it as it is in tables, CSV and templates, never rounded to a whole number or
// with float noise; the billed figure of a run is GET /v1/runs/{id}/credits (docs/emulator.md, "credit_used").
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });

describe('a fractional credit_used', () => {
  it('renders whole in the table, CSV, --json and a template', async () => {
    const squid = emu.squidId(DEMO_SQUIDS.headphones);
    const run = Object.values(emu.emu.state.runs).find((r) => r.squid === squid)!;
    run.credit_used = 10.4498;
    const env = emu.env();
    const table = await sq(['runs', 'list', '--squid', squid, '--format', 'table'], { env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/\b10\.4498\b/);
    const csv = await sq(['runs', 'list', '--squid', squid, '--format', 'csv', '--fields', 'id,credit_used'], { env });
    expect(csv.stdout).toContain(`${run.id},10.4498`);
    const json = JSON.parse((await sq(['runs', 'get', String(run.id), '--json'], { env })).stdout);
    expect(json.credit_used).toBe(10.4498);
    const tpl = await sq(['runs', 'get', String(run.id), '--template', '{{.credit_used}}'], { env });
    expect(tpl.stdout.trim()).toBe('10.4498');
  });
});
