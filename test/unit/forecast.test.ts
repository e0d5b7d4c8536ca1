// forecastRun (src/billing/charges.ts): the spec's Auto Billing Reset rule applied to a run, with the range the
// periodic check's timing makes. The account: plan of 10,000 credits, 2,500 used, threshold 26 %.
import { describe, expect, it } from 'vitest';
import { forecastRun, type AutoResetFacts } from '../../src/billing/charges.js';

const bal = { available: 10_000, consumed: 2_500 };
const ar = (o: Partial<AutoResetFacts> = {}): AutoResetFacts => ({
  enabled: true,
  threshold_pct: 26,
  max_resets_per_24h: 2,
  resets_used_in_window: 0,
  current_usage_pct: 25,
  unknown: [],
  ...o,
});

describe('forecastRun', () => {
  it('a run that stays under the threshold: exact, covered, no reset', () => {
    expect(forecastRun(bal, ar(), 32, 4, 32)).toMatchObject({
      resets: 0,
      resets_max: 0,
      balance_after: 7_468,
      balance_after_max: 7_468,
      covered: true,
      pauses_after_tasks: null,
    });
  });

  it('one reset: the balance after is a range (the check may fire mid-run or after it), never 7,368', () => {
    const f = forecastRun(bal, ar(), 132, 4, 132)!;
    expect(f).toMatchObject({ resets: 1, resets_max: 1, renewed_credits: 10_000, covered: true });
    // Reset as soon as usage is above 2,600 (101 credits in): 31 credits after it; at the check after the run: all back.
    expect(f.balance_after).toBe(9_969);
    expect(f.balance_after_max).toBe(10_000);
  });

  it('auto-reset off: a run larger than the balance pauses with the balance at 0 or a task below it', () => {
    const f = forecastRun(bal, ar({ enabled: false }), 10_000, 100, 10_000)!;
    expect(f.covered).toBe(false);
    // 7,500 credits left, 100 a task: 75 tasks done, the 76th would need credits left.
    expect(f.pauses_after_tasks).toBe(75);
    expect(f.pauses_after_tasks_max).toBe(75);
    expect(f.balance_after).toBe(0);
    expect(f.resets_max).toBe(0);
  });

  it('a 19,764-credit run with 2 resets left: covered or not depends on when the checks fall; the pause range is said', () => {
    const f = forecastRun(bal, ar(), 19_764, 100, 19_764)!;
    expect(f.covered).toBeNull();
    expect(f.resets).toBe(2);
    // Resets as early as possible: 100 + 2,600 + 10,000 credits before credits run out: task 64 of 100.
    expect(f.pauses_after_tasks).toBe(64);
    expect(f.balance_after).toBeLessThanOrEqual(0);
  });

  it('with 1 reset left, not covered for sure: the pause is between the two bounds', () => {
    const f = forecastRun(bal, ar({ resets_used_in_window: 1 }), 19_764, 100, 19_764)!;
    expect(f.covered).toBe(false);
    expect(f.resets).toBe(1);
    expect(f.pauses_after_tasks).toBe(51);
    // Late: 38 tasks to run out, a reset, 51 more (each task charged whole once started).
    expect(f.pauses_after_tasks_max).toBe(89);
    expect(f.resets_left_after).toBe(0);
  });

  it("a reset already due before the run (usage above the threshold) is not the run's: pending, not among its resets", () => {
    // 2,700 used of 10,000 at 26 %: above 2,600 already, so the next check fires a reset with or without the run.
    const f = forecastRun({ available: 10_000, consumed: 2_700 }, ar(), 32, 4, 32)!;
    expect(f).toMatchObject({ pending_reset: true, resets: 0, resets_max: 0, renewed_credits: 10_000, covered: true });
    // The due reset fires before the first task (9,968 left) or at the check after the run (10,000).
    expect([f.balance_after, f.balance_after_max]).toEqual([9_968, 10_000]);
    // A run big enough to push usage above the threshold again after the due reset: 1 of its own if the check fires
    // early, none if it fires only after the run (the due one and its own are then one reset).
    expect(forecastRun({ available: 10_000, consumed: 2_700 }, ar(), 3_000, 30, 3_000)).toMatchObject({
      pending_reset: true,
      resets: 0,
      resets_max: 1,
    });
    // No reset left in the window: nothing is due, nothing fires.
    expect(
      forecastRun({ available: 10_000, consumed: 2_700 }, ar({ resets_used_in_window: 2 }), 32, 4, 32),
    ).toMatchObject({ pending_reset: false, resets: 0 });
    expect(forecastRun(bal, ar(), 32, 4, 32)!.pending_reset).toBe(false);
  });

  it('unknown settings: null, never a guess', () => {
    expect(forecastRun(bal, ar({ enabled: null }), 100, 1)).toBeNull();
    expect(forecastRun(bal, ar({ threshold_pct: null }), 100, 1)).toBeNull();
  });
});
