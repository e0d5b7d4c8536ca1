// In-process against the emulator: `sq squids estimate` — the services table, the summary on stderr with the balance
// and one line per paid function on by default, --json (the API object + balance_after + auto_reset_charges, the
// latter 0/1/2 and capped by the 24-hour window), and the API's refusals as they are.
import { describe, expect, it } from 'vitest';
import { berlinSquid } from '../helpers/spend.js';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });

const tsv = (out: string) =>
  out
    .trimEnd()
    .split('\n')
    .map((l) => l.split('\t'));

/** A Google Maps squid as a new user makes it: params at the crawler's defaults (emails on), two tasks. */
async function berlin(): Promise<string> {
  return berlinSquid(emu);
}

describe('sq squids estimate', () => {
  it('a table of services; total, time, balance now and after, and the paid function on by default with how to turn it off', async () => {
    const id = await berlin();
    const api = await emu.api('/v1/squid/estimate', { method: 'POST', body: { squid: id } });
    await emu.clearRequests();
    const r = await sq(['squids', 'estimate', 'Berlin cafés'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(tsv(r.stdout)).toEqual([
      ['service', 'results', 'credits'],
      ...api.services.map((s: J) => [s.name, String(s.results), String(s.credits)]),
    ]);
    const left = emu.emu.state.balance.available - emu.emu.state.balance.consumed;
    expect(r.stderr).toContain(`Total: ${api.total_credits} credits for 2 tasks (max_results 200).`);
    expect(r.stderr).toContain(`Time: ${api.estimated_time}.`);
    expect(r.stderr).toContain(
      `Balance: ${left.toLocaleString('en-US')} credits now, ${(left - api.total_credits).toLocaleString('en-US')} after the run.`,
    );
    expect(r.stderr).toContain('Auto Billing Reset: off');
    expect(r.stderr).toContain(
      `Paid function extract_emails_from_website is on by default: ${api.services[1].credits} credits ` +
        `of this run. Turn it off: sq squids update 'Berlin cafés' --param functions.extract_emails_from_website=false`,
    );
    // Nothing was started or charged.
    expect((await emu.requests('POST')).map((q) => q.path)).toEqual(['/v1/squid/estimate']);
  });

  it('--json: the API object plus balance_after and auto_reset_charges', async () => {
    const id = await berlin();
    const api = await emu.api('/v1/squid/estimate', { method: 'POST', body: { squid: id } });
    const r = await sq(['squids', 'estimate', id, '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    const left = emu.emu.state.balance.available - emu.emu.state.balance.consumed;
    // Auto-reset off: everything exact, no charge, covered.
    expect(JSON.parse(r.stdout)).toEqual({
      ...api,
      balance_after: left - api.total_credits,
      balance_after_max: left - api.total_credits,
      auto_reset_charges: 0,
      resets: 0,
      resets_max: 0,
      pending_reset: false,
      renewed_credits: 0,
      covered: true,
      pauses_after_tasks: null,
      pauses_after_tasks_max: null,
      resumes_at: null,
      charge: null,
    });
  });

  it("auto_reset_price only when the balance names the plan's price", async () => {
    const id = await berlin();
    expect(JSON.parse((await sq(['squids', 'estimate', id, '--json'], { env: emu.env() })).stdout)).not.toHaveProperty(
      'auto_reset_price',
    );
    // No docs page shows a price on the balance, so the emulator's has none: the service's answer is given one here.
    const balance = await emu.api('/v1/user/balance');
    await emu.control('PUT', '/_emulator/faults', {
      rules: [
        { method: 'GET', path: '/v1/user/balance', action: 'status', status: 200, body: { ...balance, price: 49 } },
      ],
    });
    expect(
      JSON.parse((await sq(['squids', 'estimate', id, '--json'], { env: emu.env() })).stdout).auto_reset_price,
    ).toBe(49);
    await emu.control('DELETE', '/_emulator/faults');
  });

  it('balance_after is negative when the balance does not cover the run', async () => {
    const id = await berlin();
    await emu.control('POST', '/_emulator/usage', { pct: 99.9 });
    const r = JSON.parse((await sq(['squids', 'estimate', id, '--json'], { env: emu.env() })).stdout);
    expect(r.balance_after).toBeLessThan(0);
    expect(r.recommended_upgrade_plan).not.toBeNull();
  });

  // The allowance is 10,000; the Berlin squid's estimate is ~100 credits. Usage and threshold place the run across
  // 0, 1 or 2 thresholds; the 24-hour cap stops the count.
  const cases: [string, { threshold: number; max: number; usagePct: number; used?: number }, number][] = [
    ['auto-reset on, the run stays under the threshold', { threshold: 80, max: 3, usagePct: 50 }, 0],
    ['the run crosses the threshold once', { threshold: 80, max: 3, usagePct: 79.9 }, 1],
    // The reset returns consumed to 0; the 99 credits after it stay under the 100 of 1% (results are charged whole).
    [
      'a threshold of 1%: the run crosses it once, and stays under it after the reset',
      { threshold: 1, max: 3, usagePct: 0.95 },
      1,
    ],
    // The reset due before the run fires whether or not it starts: not among the run's own (pending_reset says it).
    [
      'usage already above a threshold of 1%: a reset already due, and one of its own as it crosses again',
      { threshold: 1, max: 3, usagePct: 1.5 },
      1,
    ],
    ['the same run with 1 reset left in the 24-hour window', { threshold: 1, max: 3, usagePct: 0.95, used: 2 }, 1],
    ['no reset left in the window', { threshold: 1, max: 1, usagePct: 0.95, used: 1 }, 0],
  ];
  for (const [what, o, expected] of cases) {
    it(`auto_reset_charges ${expected}: ${what}`, async () => {
      const id = await berlin();
      const resetTimes = Array.from({ length: o.used ?? 0 }, (_, i) => emu.emu.clock.now() - (i + 1) * 60_000);
      await emu.control('POST', '/_emulator/billing', {
        auto_reset: { enabled: true, threshold_pct: o.threshold, max_resets_per_24h: o.max, reset_times: resetTimes },
      });
      await emu.control('POST', '/_emulator/usage', { pct: o.usagePct });
      const r = await sq(['squids', 'estimate', id, '--json'], { env: emu.env() });
      expect(r.code).toBe(0);
      const est = JSON.parse(r.stdout);
      // The threshold at 1% is 100 credits: the case needs a run of more than 100 (two thresholds' worth).
      const due = o.usagePct > o.threshold;
      if (due) expect(est.total_credits).toBeGreaterThan(100);
      expect(est.auto_reset_charges).toBe(expected);
      expect(est.pending_reset).toBe(due);
      const human = await sq(['squids', 'estimate', id], { env: emu.env() });
      if (due)
        expect(human.stderr).toMatch(
          /1 reset is already due .* this run sets off (\d to )?1 reset more of its own \(3 of 3 left in the 24-hour window, the due one included\)/,
        );
      else if (expected)
        expect(human.stderr).toMatch(
          new RegExp(`this run sets off (\\d to )?${expected} resets? \\(threshold ${o.threshold}%`),
        );
      else expect(human.stderr).toContain('sets off none');
      if (expected)
        expect(human.stderr).toContain(
          'each renews plan Premium (10,000 credits) and charges the card on file a price the API gives ' +
            'as an id only (price_1EmulatorPremiumMonthly): `sq billing auto-reset --web` shows it; the ' +
            'renewal date moves from',
        );
    });
  }

  // spec/platform-api.md: GET /v1/plans/auto-reset answers all six fields. An answer without some of them leaves the
  // card charge unknown: said so, and never "none" (a missing max_resets_per_24h was read as 0: "sets off none").
  const partial: [string, Record<string, unknown>, string[], RegExp][] = [
    [
      'on, without max_resets_per_24h and resets_used_in_window',
      { enabled: true, threshold_pct: 1, current_usage_pct: 0.95 },
      ['max_resets_per_24h', 'resets_used_in_window'],
      new RegExp(
        /Auto Billing Reset: on, but the API did not give max_resets_per_24h and resets_used_in_window: /.source +
          /whether this run sets off a reset \(a charge on the card on file\) is UNKNOWN\./.source,
      ),
    ],
    [
      'without enabled',
      { threshold_pct: 80, max_resets_per_24h: 3, resets_used_in_window: 0, current_usage_pct: 10 },
      ['enabled'],
      /Auto Billing Reset: UNKNOWN whether it is on/,
    ],
  ];
  for (const [what, body, missing, line] of partial) {
    it(`auto-reset settings ${what}: auto_reset_charges null, the fields named, and the human view says UNKNOWN`, async () => {
      const id = await berlin();
      await emu.faults([{ method: 'GET', path: '/v1/plans/auto-reset', action: 'status', status: 200, body }]);
      const r = await sq(['squids', 'estimate', id, '--json'], { env: emu.env() });
      expect(r.code, r.stderr).toBe(0);
      const est = JSON.parse(r.stdout);
      expect(est.auto_reset_charges).toBeNull();
      expect(est.auto_reset_unknown).toEqual(expect.arrayContaining(missing));
      const human = await sq(['squids', 'estimate', id], { env: emu.env() });
      expect(human.stderr).toMatch(line);
      expect(human.stderr).not.toContain('sets off none');
      expect(human.stderr).not.toContain('nothing is charged');
    });
  }

  it('a run whose card charge is unknown asks on a terminal even under confirm-above (runs start --no-input: exit 2)', async () => {
    await berlin();
    await emu.faults([
      {
        method: 'GET',
        path: '/v1/plans/auto-reset',
        action: 'status',
        status: 200,
        body: { enabled: true, threshold_pct: 80, current_usage_pct: 10 },
      },
    ]);
    await emu.clearRequests();
    const r = await sq(['runs', 'start', '--squid', DEMO_SQUIDS.headphones, '--no-input'], {
      env: emu.env(),
      tty: true,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('UNKNOWN');
    expect((await emu.requests('POST')).map((q) => q.path)).not.toContain('/v1/runs');
  });

  it("a squid without tasks is the API's 400 (exit 1), an unknown one exit 3", async () => {
    const none = await sq(['squids', 'estimate', DEMO_SQUIDS.lyon], { env: emu.env() });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/NoTasksPresent/);
    const missing = await sq(['squids', 'estimate', 'f'.repeat(32)], { env: emu.env() });
    expect(missing.code).toBe(3);
  });

  it('a 503 is retried (the estimate changes nothing), and runs in --dry-run', async () => {
    const id = await berlin();
    await emu.faults([{ path: '/v1/squid/estimate', action: 'status', status: 503, count: 1 }]);
    const r = await sq(['squids', 'estimate', id, '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect((await emu.requests('POST')).filter((q) => q.path === '/v1/squid/estimate')).toHaveLength(2);
    const dry = await sq(['squids', 'estimate', id, '--json', '--dry-run'], { env: emu.env() });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).total_credits).toBeGreaterThan(0);
  });
});
