// The forecast of a run against the emulator's Auto Billing Reset (spec: a reset fires at a periodic check once usage
// is above threshold_pct, renews the plan, returns consumed credits to zero; at most max_resets_per_24h in a rolling
// 24 h): `sq squids estimate --json` says the balance after (a range where the check's timing makes one), the resets,
// covered or not and where an uncovered run pauses; the estimated run is then run on the emulator and measured.
// Off a terminal a run that sets off a reset needs --yes: exit 9 without it and no POST /v1/runs.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_CRAWLERS } from '../../src/emulator/seed.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });

/**
 * A plan of 1,000 credits with `consumed` used, auto-reset at 80 % (800 credits), and a Google Maps squid of `tasks`
 * tasks of 3 results each (max_results 3): every task costs the same, 36 credits (12 a result).
 */
async function account(o: { consumed: number; tasks: number; max?: number; used?: number }): Promise<string> {
  const s = await emu.api('/v1/squids', {
    method: 'POST',
    body: { crawler: DEMO_CRAWLERS.googleMaps, name: 'Reset probe' },
  });
  await emu.api(`/v1/squids/${s.id}`, { method: 'POST', body: { params: { max_results: 3 } } });
  for (let i = 0; i < o.tasks; i += 50) {
    const batch = Array.from({ length: Math.min(50, o.tasks - i) }, (_, k) => ({
      url: `https://www.google.com/maps/search/cafe+${i + k}`,
    }));
    await emu.api('/v1/tasks', { method: 'POST', body: { squid: s.id, tasks: batch } });
  }
  const resetTimes = Array.from({ length: o.used ?? 0 }, (_, i) => emu.emu.clock.now() - (i + 1) * 60_000);
  await emu.control('POST', '/_emulator/billing', {
    available: 1000,
    consumed: o.consumed,
    auto_reset: { enabled: true, threshold_pct: 80, max_resets_per_24h: o.max ?? 2, reset_times: resetTimes },
  });
  await emu.clearRequests();
  return s.id;
}

async function forecast(id: string): Promise<J> {
  const r = await sq(['squids', 'estimate', id, '--json'], { env: emu.env() });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** Starts the run with --yes off a terminal, then lets the business clock run 30 minutes (well under 24 h). */
async function runIt(id: string): Promise<{ run: J; balance: number; done: number }> {
  emu.expectWrites('POST /v1/runs');
  const r = await sq(['runs', 'start', '--squid', id, '--yes', '--json'], { env: emu.env() });
  expect(r.code, r.stderr).toBe(0);
  const runId = JSON.parse(r.stdout).id;
  await emu.advance(30 * 60_000);
  const run = await emu.api(`/v1/runs/${runId}`);
  const b = await emu.api('/v1/user/balance');
  const done = Object.values(emu.emu.state.runtasks).filter(
    (rt) => rt.run === runId && rt.status === 'completed',
  ).length;
  return { run, balance: b.available - b.consumed, done };
}

describe('the forecast agrees with the emulator', () => {
  it('no reset: the balance after is exact', async () => {
    const id = await account({ consumed: 500, tasks: 4 });
    const f = await forecast(id);
    expect(f).toMatchObject({
      total_credits: 144,
      resets: 0,
      resets_max: 0,
      covered: true,
      balance_after: 356,
      balance_after_max: 356,
    });
    const { run, balance } = await runIt(id);
    expect(run.status).toBe('done');
    expect(balance).toBe(356);
  });

  // The check runs every minute of business time; a run of 6 tasks takes ~14 s: started at three points of that
  // minute, the reset fires mid-run or after it, and the measured balance lies in the stated range each time.
  for (const offset of [0, 20_000, 45_000]) {
    it(`one reset (started ${offset / 1000} s into the check's minute): the balance after lies in the stated range`, async () => {
      const id = await account({ consumed: 700, tasks: 6 });
      await emu.advance(60_000 - (emu.emu.clock.now() % 60_000) + offset);
      const f = await forecast(id);
      expect(f).toMatchObject({ total_credits: 216, resets: 1, resets_max: 1, renewed_credits: 1000, covered: true });
      // Reset as soon as usage is above 800 (9 results in): 108 credits after it; at the check after the run: all back.
      expect(f.balance_after).toBe(892);
      expect(f.balance_after_max).toBe(1000);
      const { run, balance } = await runIt(id);
      expect(run.status).toBe('done');
      expect(balance).toBeGreaterThanOrEqual(f.balance_after);
      expect(balance).toBeLessThanOrEqual(f.balance_after_max);
      expect(emu.emu.state.autoReset.reset_times).toHaveLength(1);
    });
  }

  it('not covered: the run pauses within the stated tasks (± 1) and stays paused until the window frees', async () => {
    const id = await account({ consumed: 700, tasks: 60, max: 1 });
    const f = await forecast(id);
    expect(f).toMatchObject({ total_credits: 2160, covered: false, resets: 1, resets_max: 1 });
    // Early: 108 credits to the reset, 1,008 after it = 31 tasks; late: 9 tasks to run out, a reset, 28 more = 37.
    expect(f.pauses_after_tasks).toBe(31);
    expect(f.pauses_after_tasks_max).toBe(37);
    // About 24 h after the first reset, which fires during the run. (sq's "now" is the API's Date header, which this
    // emulator gives on the wall clock even with a virtual clock: the forecast's offset from now is compared.)
    const virtualAt = emu.emu.clock.now();
    const offset = Date.parse(f.resumes_at) - Date.now();
    expect(offset).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(offset).toBeLessThanOrEqual(24 * 3_600_000);
    const human = await sq(['squids', 'estimate', id], { env: emu.env() });
    expect(human.stderr).toMatch(
      new RegExp(
        /NOT covered: the run pauses out of credits after 31 to 37 of its 60 tasks\. It could go on at /.source +
          /\d{4}-\d\d-\d\d \d\d:\d\d UTC, when the 24-hour window frees a reset \(which charges the card again\)\./
            .source,
      ),
    );
    const { run, balance, done } = await runIt(id);
    expect(run.status).toBe('paused');
    expect(run.done_reason).toBe('no_credits_left');
    expect(done).toBeGreaterThanOrEqual(f.pauses_after_tasks - 1);
    expect(done).toBeLessThanOrEqual(f.pauses_after_tasks_max + 1);
    expect(balance).toBeGreaterThanOrEqual(f.balance_after);
    expect(balance).toBeLessThanOrEqual(f.balance_after_max);
    // The window frees about 24 h after the run's reset: no earlier than the forecast, later by the run's minutes at most.
    const ar = await emu.api('/v1/plans/auto-reset');
    expect(ar.resets_used_in_window).toBe(1);
    const windowOffset = Date.parse(ar.window_resets_at) - virtualAt;
    expect(windowOffset).toBeGreaterThanOrEqual(offset);
    expect(windowOffset).toBeLessThan(offset + 30 * 60_000);
  });
});

describe('a reset already due before the run', () => {
  it("is said to fire anyway, not counted as the run's, in text, --json and the start line; no --yes asked for it", async () => {
    // 850 of 1,000 used at 80 %: the next check fires a reset whether or not a run starts.
    const id = await account({ consumed: 850, tasks: 2 });
    const f = await forecast(id);
    expect(f).toMatchObject({
      total_credits: 72,
      pending_reset: true,
      resets: 0,
      resets_max: 0,
      auto_reset_charges: 0,
      renewed_credits: 1000,
      covered: true,
    });
    // The due reset fires before the first task (928 left) or at the check after the run (1,000).
    expect([f.balance_after, f.balance_after_max]).toEqual([928, 1000]);
    expect(f.charge).toMatchObject({ allowance: 1000 });
    const human = await sq(['squids', 'estimate', id], { env: emu.env() });
    expect(human.stderr).toContain(
      'Auto Billing Reset: 1 reset is already due (usage is above the 80% threshold before the run) ' +
        "and fires at the platform's next check whether or not this run starts, so it is not this run's " +
        'doing; this run sets off none of its own',
    );
    emu.expectWrites('POST /v1/runs');
    const r = await sq(['runs', 'start', '--squid', id, '--json'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        /^estimated 72 credits \(base \d+, extract_emails_from_website \d+\), sets off no reset \(1 /.source +
          /already due fires at the next check anyway, not this run's doing\)$/.source,
        'm',
      ),
    );
    await emu.advance(30 * 60_000);
    const b = await emu.api('/v1/user/balance');
    expect(b.available - b.consumed).toBeGreaterThanOrEqual(f.balance_after);
    expect(b.available - b.consumed).toBeLessThanOrEqual(f.balance_after_max);
    expect(emu.emu.state.autoReset.reset_times).toHaveLength(1);
  });
});

describe('after the run: the reset it set off is named', () => {
  it('sq runs get, sq runs credits and sq status say the run set off the reset, at what time, and which of the window', async () => {
    const id = await account({ consumed: 700, tasks: 6 });
    const { run } = await runIt(id);
    const ar = await emu.api('/v1/plans/auto-reset');
    expect(ar.resets_used_in_window).toBe(1);
    const at = new Date(Date.parse(ar.window_resets_at) - 86_400_000).toISOString().slice(11, 16);
    const line = `Run ${run.id} set off Auto Billing Reset at ${at} UTC (resets used 1 of 2).`;
    const get = await sq(['runs', 'get', run.id], { env: emu.env() });
    expect(get.code, get.stderr).toBe(0);
    expect(get.stderr).toContain(line);
    const credits = await sq(['runs', 'credits', run.id], { env: emu.env() });
    expect(credits.stderr).toContain(line);
    const status = await sq(['status'], { env: emu.env() });
    expect(status.stdout).toContain(`reset 1 of 2 at ${at} UTC, set off by run ${run.id} (Reset probe)`);
    const json = JSON.parse((await sq(['status', '--json'], { env: emu.env() })).stdout);
    expect(json.window_resets).toEqual([
      { at: expect.stringContaining(`T${at}`), exact: true, index: 1, of: 2, run: run.id, squid_name: 'Reset probe' },
    ]);
    // A run that set off none says nothing of it.
    const other = await sq(['runs', 'get', Object.keys(emu.emu.state.runs).find((r) => r !== run.id)!], {
      env: emu.env(),
    });
    expect(other.stderr).not.toContain('Auto Billing Reset');
  });
});

describe('off a terminal, a run that sets off a reset needs --yes', () => {
  it('runs start: exit 9 with the forecast and no POST /v1/runs; --yes starts it; the estimate line in both', async () => {
    const id = await account({ consumed: 700, tasks: 6 });
    const no = await sq(['runs', 'start', '--squid', id], { env: emu.env() });
    expect(no.code).toBe(9);
    expect(no.stderr).toContain(
      'The run would set off an Auto Billing Reset (a card charge); no run was started: pass --yes to accept the charge',
    );
    expect(no.stderr).toMatch(
      /estimated 216 credits \(base \d+, extract_emails_from_website \d+\), sets off 1 Auto Billing Reset \(charges the card\)/,
    );
    expect(no.stderr).toContain('Balance: 300 credits now, between 892 and 1,000 after the run');
    expect((await emu.requests('POST')).map((q) => q.path)).toEqual(['/v1/squid/estimate']);
    emu.expectWrites('POST /v1/runs');
    const yes = await sq(['runs', 'start', '--squid', id, '--yes'], { env: emu.env() });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).toMatch(
      /^estimated 216 credits \(base \d+, extract_emails_from_website \d+\), sets off 1 Auto Billing Reset \(charges the card\)$/m,
    );
    expect((await emu.requests('POST')).map((q) => q.path)).toEqual([
      '/v1/squid/estimate',
      '/v1/squid/estimate',
      '/v1/runs',
    ]);
  });

  it('go: exit 9 before the start, the squid and tasks kept; --yes starts it', async () => {
    await emu.control('POST', '/_emulator/billing', {
      available: 1000,
      consumed: 799,
      auto_reset: { enabled: true, threshold_pct: 80, max_resets_per_24h: 2 },
    });
    const args = [
      'go',
      'google-maps-search-export',
      'https://www.google.com/maps/search/cafe+berlin',
      '--param',
      'max_results=3',
    ];
    emu.expectWrites('POST /v1/squids', 'POST /v1/squids/*', 'POST /v1/tasks');
    const no = await sq(args, { env: emu.env() });
    expect(no.code).toBe(9);
    expect(no.stderr).toContain('pass --yes to accept the charge');
    // The one estimate line, refused too (it is in the error's details).
    expect(no.stderr).toMatch(/estimated \d+ credits .*, sets off 1 Auto Billing Reset \(charges the card\)/);
    expect((await emu.requests('POST')).map((q) => q.path)).not.toContain('/v1/runs');
    emu.expectWrites('POST /v1/runs');
    const yes = await sq([...args, '--yes', '--timeout', '1s'], { env: emu.env() });
    expect((await emu.requests('POST')).map((q) => q.path)).toContain('/v1/runs');
    expect(yes.stderr).toMatch(/estimated \d+ credits .*, sets off 1 Auto Billing Reset \(charges the card\)/);
  });
});

describe('bad input around the rule', () => {
  it('--yes with --no-input starts the one run asked for; a cap of 0 is exit 9; a malformed cap exit 2 naming the flag', async () => {
    const id = await account({ consumed: 700, tasks: 6 });
    const bad = await sq(['runs', 'start', '--squid', id, '--max-credits', '1e3'], { env: emu.env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-credits');
    const zero = await sq(['runs', 'start', '--squid', id, '--max-credits', '0', '--yes'], { env: emu.env() });
    expect(zero.code).toBe(9);
    expect(zero.stderr).toContain('above the cap of 0 (--max-credits)');
    expect((await emu.requests('POST')).map((q) => q.path)).toEqual(['/v1/squid/estimate']);
    emu.expectWrites('POST /v1/runs');
    const yes = await sq(['runs', 'start', '--squid', id, '--yes', '--no-input'], { env: emu.env() });
    expect(yes.code, yes.stderr).toBe(0);
    expect((await emu.requests('POST')).filter((q) => q.path === '/v1/runs')).toHaveLength(1);
  });
});

describe('sq status on a terminal names the reset too', () => {
  it("the people's screen lists the window's reset with the run that set it off", async () => {
    const id = await account({ consumed: 700, tasks: 6 });
    const { run } = await runIt(id);
    const r = await sq(['status'], { env: emu.env(), tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`reset 1 of 2 .*set off by run ${run.id} \\(Reset probe\\)`));
  });
});
