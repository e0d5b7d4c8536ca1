// One run-start rule (model/run-start.ts): POST /v1/runs, a squid's schedule and a chain's autostart refuse a squid
// that is inactive, not ready, out of credits or out of slots with the same error. The schedule and the chain answer
// no one, so their refusals are read from GET /_emulator/launches.
import { describe, expect, it } from 'vitest';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { RUN_TIMING } from '../../src/emulator/timing.js';
import { finishRun, type TestEmulator, useEmulator } from '../helpers/emulator.js';
import type { J } from '../helpers/json.js';

const e = useEmulator({ each: 'new' });

const runsOf = async (squid: string): Promise<J[]> =>
  (await e.api('GET', `/v1/runs?squid=${squid}&limit=50`)).body.data;

/** Advances the clock until the run reaches `status` (a bounded number of task steps). */
async function until(em: TestEmulator, run: string, status: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if ((await em.api('GET', `/v1/runs/${run}`)).body.status === status) return;
    await em.advance(RUN_TIMING.finishMs / 2);
  }
  throw new Error(`run ${run} never reached ${status}`);
}

/** Paris restaurants chained into Google Maps; the first fire creates the target and its run, finished here. */
async function chained(): Promise<{ source: string; target: string }> {
  await e.ctl('POST', '/_emulator/slots', { total: 100 });
  const source = e.squidId(DEMO_SQUIDS.paris);
  const c = await e.api('POST', `/v1/squids/${source}/chain`, {
    target_module_id: DEMO_CRAWLERS.googleMaps,
    field_map: { website: 'url' },
  });
  expect(c.status, c.text).toBe(201);
  await finishRun(e, (await e.api('POST', '/v1/runs', { squid: source })).body.id);
  const target = (await e.api('GET', `/v1/squids/${source}/chain`)).body.target_cluster.id as string;
  const first = await runsOf(target);
  expect(first.map((r) => r.origin)).toEqual(['chain']);
  await finishRun(e, first[0].id);
  return { source, target };
}

/** Each way a squid is refused, put in place on the target. */
const CONDITIONS: Record<string, { code: string; apply: (target: string) => Promise<void> }> = {
  inactive: {
    code: 'SquidInactive',
    apply: async (t) => void expect((await e.api('POST', `/v1/squids/${t}`, { is_active: false })).status).toBe(200),
  },
  'not ready': {
    code: 'SquidNotReady',
    apply: async (t) =>
      void expect((await e.api('POST', `/v1/squids/${t}`, { params: { language: null } })).status).toBe(200),
  },
  'out of credits': {
    code: 'NotEnoughBalance',
    apply: async () => void expect((await e.ctl('POST', '/_emulator/usage', { pct: 100 })).status).toBe(200),
  },
  'out of slots': {
    code: 'SlotsLimitExceeded',
    apply: async () => void expect((await e.ctl('POST', '/_emulator/slots', { total: 1 })).status).toBe(200),
  },
};

describe('one run-start rule for POST /v1/runs, schedules and chains', () => {
  it.each(Object.keys(CONDITIONS))('a squid %s is refused with the same error on every path', async (name) => {
    const { code, apply } = CONDITIONS[name];
    const { source, target } = await chained();
    // The source's run is past its start (uploading) when the condition comes, so only the target's launch meets it.
    const sourceRun = (await e.api('POST', '/v1/runs', { squid: source })).body.id as string;
    await until(e, sourceRun, 'uploading');
    await apply(target);
    expect((await e.api('POST', `/v1/squids/${target}`, { cron_expression: '* * * * *' })).status).toBe(200);
    const runsBefore = (await runsOf(target)).length;

    const direct = await e.api('POST', '/v1/runs', { squid: target });
    expect(direct.status).toBe(400);
    const message = direct.body.error.message as string;
    expect(message).toContain(`(${code})`);

    await finishRun(e, sourceRun);
    await e.advance(120_000);
    const launches = ((await e.ctl('GET', '/_emulator/launches')).body as J[]).filter((l) => l.squid === target);
    const byOrigin = (origin: string) => launches.find((l) => l.origin === origin);
    expect(byOrigin('chain'), JSON.stringify(launches)).toMatchObject({ code, message });
    expect(byOrigin('schedule'), JSON.stringify(launches)).toMatchObject({ code, message });
    expect(await runsOf(target)).toHaveLength(runsBefore);
  });

  it('a squid the rule accepts starts on each path: the schedule and the chain record no refusal', async () => {
    const { source, target } = await chained();
    expect((await e.api('POST', `/v1/squids/${target}`, { cron_expression: '* * * * *' })).status).toBe(200);
    let scheduled: J[] = [];
    for (let i = 0; i < 8 && !scheduled.length; i++) {
      await e.advance(30_000);
      scheduled = (await runsOf(target)).filter((r) => r.origin === 'schedule');
    }
    expect(scheduled).toHaveLength(1);
    expect((await e.api('POST', `/v1/squids/${target}`, { cron_expression: null })).status).toBe(200);
    await finishRun(e, scheduled[0].id);
    await finishRun(e, (await e.api('POST', '/v1/runs', { squid: source })).body.id);
    expect((await runsOf(target)).map((r) => r.origin)).toContain('chain');
    expect((await e.ctl('GET', '/_emulator/launches')).body).toEqual([]);
  });
});
