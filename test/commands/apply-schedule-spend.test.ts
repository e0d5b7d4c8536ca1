// In-process against the emulator: an account file that makes a squid active with a schedule makes the platform start
// runs, each charged. sq plan shows the schedule, its next run and one run's estimate (scheduled_run); sq apply turns
// the schedule on last for that squid, after its params and tasks, once one run's estimate is known: above the cap
// (--max-credits, SQ_MAX_CREDITS) the schedule stays off (exit 9), the squid's other changes applied.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempFiles } from '../helpers/fs.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
// Each document as YAML in a file of its own (test/helpers/fs.ts).
const write = tempFiles('sq-schedule-spend-');
let n = 0;
const file = (doc: unknown): string => write(`f${++n}.yaml`, stringify(doc));
const run = (args: string[], env: Record<string, string> = {}) => sq(args, { env: emu.env(env) });
const weekly = { cron: '0 9 * * 1', timezone: 'Europe/Paris' };

describe('sq plan: the per-run cost of a schedule it would turn on', () => {
  it("an existing squid with tasks: the schedule in words, its next run, and one run's estimate (one estimate request)", async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    const est = await emu.api('/v1/squid/estimate', { method: 'POST', body: { squid: paris } });
    await emu.clearRequests();
    const f = file({ squids: { [DEMO_SQUIDS.paris]: { active: true, schedule: weekly } } });
    const p = JSON.parse((await run(['plan', '-f', f, '--json'])).stdout);
    expect(p.items[0].scheduled_run).toEqual({
      schedule: 'Mondays at 09:00 Europe/Paris',
      next_run: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/),
      credits_per_run: est.total_credits,
      note: null,
    });
    expect((await emu.requests('POST')).map((q) => q.path)).toEqual(['/v1/squid/estimate']);
    const text = await run(['plan', '-f', f]);
    expect(text.stdout).toContain(`runs on schedule (Mondays at 09:00 Europe/Paris; next `);
    expect(text.stdout).toContain(
      `each run is charged, estimated at ${est.total_credits.toLocaleString('en-US')} credits`,
    );
  });

  it("a squid the file creates: no estimate yet, the crawler's rate a row; an inactive one turns nothing on", async () => {
    const f = file({
      squids: {
        'Nightly cafés': {
          crawler: 'google-maps-search-export',
          active: true,
          schedule: weekly,
          tasks: ['https://www.google.com/maps/search/cafe+berlin'],
        },
        [DEMO_SQUIDS.headphones]: { active: false, schedule: weekly },
      },
    });
    const p = JSON.parse((await run(['plan', '-f', f, '--json'])).stdout);
    const made = p.items.find(
      (i: { squid: string; kind: string }) => i.squid === 'Nightly cafés' && i.kind === 'squid',
    );
    expect(made.scheduled_run.credits_per_run).toBeNull();
    expect(made.scheduled_run.note).toMatch(
      /a new squid: apply estimates a run once it and its tasks exist.*credits a row/,
    );
    expect(p.items.find((i: { squid: string }) => i.squid === DEMO_SQUIDS.headphones).scheduled_run).toBeNull();
  });
});

describe('sq apply: the schedule turned on last, within the cap', () => {
  it('over --max-credits: the schedule is not written, the other changes are, exit 9', async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    await emu.clearRequests();
    const f = file({ squids: { [DEMO_SQUIDS.paris]: { concurrency: 2, schedule: weekly } } });
    const r = await run(['apply', '-f', f, '--yes', '--max-credits', '1']);
    expect(r.code, r.stderr).toBe(9);
    expect(r.stderr).toContain('over budget: each scheduled run is estimated at');
    expect(r.stderr).toContain('the schedule was not turned on');
    const writes = (await emu.requests()).filter((q) => q.method === 'POST' && q.path !== '/v1/squid/estimate');
    expect(writes.map((q) => q.body)).toEqual([{ concurrency: 2 }]);
    const s = await emu.api(`/v1/squids/${paris}`);
    expect(s.schedule).toBeNull();
    expect(s.concurrency).toBe(2);
  });

  it("a new squid: created, params and tasks first, then one run's estimate, then the schedule (SQ_MAX_CREDITS under it)", async () => {
    const f = file({
      squids: {
        'Nightly cafés': {
          crawler: 'google-maps-search-export',
          schedule: weekly,
          params: { max_results: 5 },
          tasks: ['https://www.google.com/maps/search/cafe+berlin'],
        },
      },
    });
    await emu.clearRequests();
    const r = await run(['apply', '-f', f, '--yes'], { SQ_MAX_CREDITS: '100000' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Each scheduled run is estimated at [\d.,]+ credits/);
    expect(r.stderr).toContain('✓ turn on the schedule of squid "Nightly cafés"');
    const order = (await emu.requests('POST')).map((q) =>
      q.path === '/v1/squid/estimate'
        ? 'estimate'
        : q.body && 'cron_expression' in (q.body as object)
          ? 'schedule'
          : q.path,
    );
    expect(order.indexOf('/v1/tasks')).toBeLessThan(order.indexOf('estimate'));
    expect(order.indexOf('estimate')).toBeLessThan(order.indexOf('schedule'));
    expect(order.at(-1)).toBe('schedule');
  });

  it('a schedule on a squid the file keeps inactive: no estimate, written with the rest, as before', async () => {
    await emu.clearRequests();
    const r = await run([
      'apply',
      '-f',
      file({ squids: { [DEMO_SQUIDS.paris]: { active: false, schedule: weekly } } }),
      '--yes',
      '--max-credits',
      '1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect((await emu.requests('POST')).map((q) => q.path)).toEqual([`/v1/squids/${emu.squidId(DEMO_SQUIDS.paris)}`]);
  });
});

describe('sq apply: a schedule whose runs would set off an Auto Billing Reset needs --yes off a terminal', () => {
  it('without --yes: exit 9 naming --yes, the schedule not written', async () => {
    // 799.9 of 1,000 used at 80 %: any run pushes usage above the threshold.
    await emu.control('POST', '/_emulator/billing', { available: 1000, consumed: 799.9 });
    await emu.control('POST', '/_emulator/billing', {
      auto_reset: { enabled: true, threshold_pct: 80, max_resets_per_24h: 2 },
    });
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    await emu.clearRequests();
    const r = await run(['apply', '-f', file({ squids: { [DEMO_SQUIDS.paris]: { schedule: weekly } } })]);
    expect(r.code).toBe(9);
    expect(r.stderr).toContain(
      'Each scheduled run would set off an Auto Billing Reset (a card charge); the schedule was not turned on: pass --yes to accept the charge',
    );
    expect((await emu.requests()).filter((q) => q.method === 'POST' && q.path !== '/v1/squid/estimate')).toEqual([]);
    expect((await emu.api(`/v1/squids/${paris}`)).schedule).toBeNull();
  });
});
