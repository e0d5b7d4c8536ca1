// The CLI against the emulator's documented shapes: a squid that is not ready, a finished run's eta "∞",
// fractional credit_used, and runs whose timestamps come in both forms.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });

async function finish(run: string): Promise<J> {
  for (let i = 0; i < 50; i++) {
    const r = await emu.api(`/v1/runs/${run}`);
    if (['done', 'error', 'aborted'].includes(r.status)) return r;
    await emu.advance(20_000);
  }
  throw new Error(`run ${run} did not finish`);
}

async function salesNavSquid(params?: J): Promise<string> {
  const id = (await emu.api('/v1/squids', { method: 'POST', body: { crawler: DEMO_CRAWLERS.salesNav, name: 'Leads' } }))
    .id;
  await emu.api('/v1/tasks', {
    method: 'POST',
    body: { squid: id, tasks: [{ url: 'https://www.linkedin.com/sales/search/people?query=cto' }] },
  });
  if (params) await emu.api(`/v1/squids/${id}`, { method: 'POST', body: { params } });
  return id;
}

describe('runs start on a squid that is not ready', () => {
  it('exits 1 with the API message and says how to set the missing parameters', async () => {
    emu.expectWrites('POST /v1/runs');
    // get-crawler-parameters marks Google Maps' `language` required: sent null, the squid is not ready.
    const id = (
      await emu.api('/v1/squids', { method: 'POST', body: { crawler: DEMO_CRAWLERS.googleMaps, name: 'Places' } })
    ).id;
    await emu.api('/v1/tasks', {
      method: 'POST',
      body: { squid: id, tasks: [{ url: 'https://www.google.com/maps/search/bakery+lyon' }] },
    });
    await emu.api(`/v1/squids/${id}`, { method: 'POST', body: { params: { language: null } } });
    const r = await sq(['runs', 'start', '--squid', id], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('SquidNotReady');
    expect(r.stderr).toContain('required parameters (language)');
    expect(r.stderr).toContain(`sq squids update ${id} --param name=value`);
    expect(r.stderr).toContain('sq crawlers params <crawler>');
  });

  it('a squid whose params were never set (all optional): says they must be set before the first run', async () => {
    emu.expectWrites('POST /v1/runs', 'POST /v1/squids/*');
    const id = (
      await emu.api('/v1/squids', { method: 'POST', body: { crawler: DEMO_CRAWLERS.amazon, name: 'No params yet' } })
    ).id;
    await emu.api('/v1/tasks', {
      method: 'POST',
      body: { squid: id, tasks: [{ url: 'https://www.amazon.com/s?k=kettle' }] },
    });
    const r = await sq(['runs', 'start', '--squid', id], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SquidNotReady');
    expect(r.stderr).toContain('the service wants them set before the first run, even when all are optional');
    expect(r.stderr).toContain(`sq squids update ${id} --param name=value`);
    const set = await sq(['squids', 'update', id, '--param', 'max_results=5'], { env: emu.env() });
    expect(set.code, set.stderr).toBe(0);
    expect((await sq(['runs', 'start', '--squid', id], { env: emu.env() })).code).toBe(0);
  });
});

describe('finished runs', () => {
  it('runs stats prints eta "∞" and runs list a fractional credit_used as sent', async () => {
    emu.expectWrites('POST /v1/runs');
    const id = await salesNavSquid({ functions: { email_enrichment: true } });
    const started = await sq(['runs', 'start', '--squid', id, '--json'], { env: emu.env() });
    expect(started.code, started.stderr).toBe(0);
    const run = await finish(JSON.parse(started.stdout).id);
    expect(Number.isInteger(run.credit_used)).toBe(false);

    const stats = await sq(['runs', 'stats', run.id, '--fields', 'percent_done,eta'], { env: emu.env() });
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toBe('percent_done\teta\n100%\t∞\n');

    const list = await sq(['runs', 'list', '--squid', id, '--fields', 'id,credit_used'], { env: emu.env() });
    expect(list.stdout).toBe(`id\tcredit_used\n${run.id}\t${run.credit_used}\n`);
  });

  it('runs list shows seeded and new runs with "…Z" timestamps (the list sample\'s form), newest first, durations from both', async () => {
    emu.expectWrites('POST /v1/runs');
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    const fresh = await sq(['runs', 'start', '--squid', paris, '--json'], { env: emu.env() });
    await finish(JSON.parse(fresh.stdout).id);
    const r = await sq(['runs', 'list', '--squid', paris, '--fields', 'started_at,duration'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row[0]).toMatch(/:\d\dZ$/);
    expect(rows[0][0] > rows[1][0]).toBe(true);
    for (const row of rows) expect(row[1]).toMatch(/^0:00:\d\d$/);
  });
});
