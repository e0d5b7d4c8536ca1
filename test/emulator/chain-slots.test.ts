// A chain's target squid and the plan's slots and activation (api-changelog.md: 2026-04-28 squid chains, "target
// squid auto-created on first fire"; the SDK facts' "slots" row: an active squid holds slots, creating, activating or
// raising concurrency past them is SlotsLimitExceeded; the "update fields" row: is_active false stops the squid from
// running). What a first fire does with no slot left is not documented: the target is created inactive, so its
// results are kept as tasks and nothing runs past the plan (docs/emulator.md says it is inferred).
import { describe, expect, it } from 'vitest';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { useEmulator, finishRun } from '../helpers/emulator.js';
import type { J } from '../helpers/json.js';

// A fresh emulator for each test.
const e = useEmulator({ each: 'new' });

const balance = async (): Promise<J> => (await e.api('GET', '/v1/user/balance')).body;
const runsOf = async (squid: string): Promise<J[]> =>
  (await e.api('GET', `/v1/runs?squid=${squid}&limit=50`)).body.data;
const tasksOf = async (squid: string): Promise<J[]> =>
  (await e.api('GET', `/v1/tasks?squid=${squid}&limit=50`)).body.data;

/** Paris restaurants chained into the Amazon crawler (each result's website a task), and one done run of it. */
async function chainAndRun(chain: J = {}): Promise<{ source: string; target: J }> {
  const source = e.squidId(DEMO_SQUIDS.paris);
  const c = await e.api('POST', `/v1/squids/${source}/chain`, {
    target_module_id: DEMO_CRAWLERS.amazon,
    field_map: { website: 'url' },
    ...chain,
  });
  expect(c.status, c.text).toBe(201);
  await finishRun(e, (await e.api('POST', '/v1/runs', { squid: source })).body.id);
  const id = (await e.api('GET', `/v1/squids/${source}/chain`)).body.target_cluster?.id as string;
  expect(id).toMatch(/^[0-9a-f]{32}$/);
  return { source, target: (await e.api('GET', `/v1/squids/${id}`)).body };
}

describe('chain targets and slots (changelog 2026-04-28 chains; SDK facts: slots, SlotsLimitExceeded)', () => {
  it('a first fire with no slot left creates the target inactive: the results are its tasks, no run starts, activating it needs a slot', async () => {
    const used = (await balance()).used_slots;
    await e.ctl('POST', '/_emulator/slots', { total: used });
    const { target } = await chainAndRun();
    expect(target.is_active).toBe(false);
    expect((await tasksOf(target.id)).length).toBeGreaterThan(0);
    expect(await runsOf(target.id)).toEqual([]);
    expect((await balance()).used_slots).toBe(used);
    const activate = await e.api('POST', `/v1/squids/${target.id}`, { is_active: true });
    expect(activate.status).toBe(400);
    expect(activate.body.error.message).toMatch(/SlotsLimitExceeded/);
    // With a slot free it activates and runs the tasks the chain gave it.
    await e.ctl('POST', '/_emulator/slots', { total: used + 1 });
    expect((await e.api('POST', `/v1/squids/${target.id}`, { is_active: true })).status).toBe(201);
    const run = await e.api('POST', '/v1/runs', { squid: target.id });
    expect(run.status, run.text).toBe(200);
  });

  it('with a slot left the target is created active and its run starts (origin "chain"), holding its slot', async () => {
    const used = (await balance()).used_slots;
    await e.ctl('POST', '/_emulator/slots', { total: used + 1 });
    const { target } = await chainAndRun();
    expect(target.is_active).toBe(true);
    expect((await runsOf(target.id)).map((r) => r.origin)).toEqual(['chain']);
    expect((await balance()).used_slots).toBe(used + 1);
  });

  it('PATCH cluster_concurrency past the slots is 400 {error} SlotsLimitExceeded, the target keeping its concurrency', async () => {
    const used = (await balance()).used_slots;
    await e.ctl('POST', '/_emulator/slots', { total: used + 2 });
    const { source, target } = await chainAndRun();
    expect(target.concurrency).toBe(1);
    const over = await e.api('PATCH', `/v1/squids/${source}/chain`, { cluster_concurrency: 4 });
    expect(over.status).toBe(400);
    expect(Object.keys(over.body)).toEqual(['error']);
    expect(over.body.error).toMatch(/SlotsLimitExceeded/);
    expect((await e.api('GET', `/v1/squids/${target.id}`)).body.concurrency).toBe(1);
    expect((await e.api('GET', `/v1/squids/${source}/chain`)).body.cluster_concurrency).toBe(1);
    // Within the slots it applies to the target.
    expect((await e.api('PATCH', `/v1/squids/${source}/chain`, { cluster_concurrency: 2 })).status).toBe(200);
    expect((await e.api('GET', `/v1/squids/${target.id}`)).body.concurrency).toBe(2);
  });
});

describe('an inactive chain target does not run (changelog, update fields: is_active false stops the squid from running)', () => {
  it.each([true, false])(
    'autostart %s: a done run of the source adds to a deactivated target but starts no run of it',
    async (autostart) => {
      await e.ctl('POST', '/_emulator/slots', { total: 100 });
      const { source, target } = await chainAndRun({ autostart });
      const before = await runsOf(target.id);
      expect(before).toHaveLength(1);
      if (autostart) await finishRun(e, before[0].id);
      else expect((await e.api('POST', `/v1/runs/${before[0].id}/abort`)).status).toBe(200);
      expect((await e.api('POST', `/v1/squids/${target.id}`, { is_active: false })).status).toBe(201);
      await finishRun(e, (await e.api('POST', '/v1/runs', { squid: source })).body.id);
      expect((await runsOf(target.id)).map((r) => r.id)).toEqual(before.map((r) => r.id));
    },
  );
});
