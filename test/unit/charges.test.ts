// The pure arithmetic of src/billing/charges.ts: the balance after a run and the Auto Billing Resets it sets off
// (the spec's state table: above threshold_pct a reset fires and consumed returns to 0, at most max_resets_per_24h).
import { describe, expect, it } from 'vitest';
import {
  autoResetCharges,
  balanceAfter,
  creditsBeforeReset,
  resetsLeft,
  type AutoResetFacts,
} from '../../src/billing/charges.js';

const bal = (consumed: number) => ({ available: 1000, consumed });
const ar = (o: Partial<AutoResetFacts> = {}): AutoResetFacts => ({
  enabled: true,
  threshold_pct: 80,
  max_resets_per_24h: 3,
  resets_used_in_window: 0,
  current_usage_pct: 0,
  unknown: [],
  ...o,
});

describe('autoResetCharges', () => {
  it('is 0 when auto-reset is off, without a subscription, or for a run that stays at or under the threshold', () => {
    expect(autoResetCharges(bal(700), ar({ enabled: false }), 500)).toBe(0);
    expect(autoResetCharges(bal(700), ar({ current_usage_pct: null }), 500)).toBe(0);
    // 700 + 100 = 800: exactly the threshold, not above it.
    expect(autoResetCharges(bal(700), ar(), 100)).toBe(0);
  });

  it('counts each crossing: once past the threshold, again after the reset brought consumed to 0', () => {
    expect(autoResetCharges(bal(700), ar(), 100.5)).toBe(1);
    // 100 to the first crossing, then 800 more to the second: 900 is not above, 901 is.
    expect(autoResetCharges(bal(700), ar(), 900)).toBe(1);
    expect(autoResetCharges(bal(700), ar(), 901)).toBe(2);
  });

  it('stops at the 24-hour cap', () => {
    expect(autoResetCharges(bal(700), ar({ resets_used_in_window: 2 }), 5000)).toBe(1);
    expect(autoResetCharges(bal(700), ar({ resets_used_in_window: 3 }), 5000)).toBe(0);
    expect(autoResetCharges(bal(0), ar({ threshold_pct: 1, max_resets_per_24h: 10 }), 1000)).toBe(10);
  });

  it('usage already above the threshold counts the reset the next check fires', () => {
    expect(autoResetCharges(bal(900), ar(), 1)).toBe(1);
  });
});

describe('what the API did not say is unknown, never 0 or off', () => {
  it('autoResetCharges is null when enabled, the threshold, the cap or the count is missing; 0 only when the API said off or no subscription', () => {
    expect(autoResetCharges(bal(700), ar({ enabled: null }), 500)).toBeNull();
    expect(autoResetCharges(bal(700), ar({ threshold_pct: null }), 500)).toBeNull();
    expect(autoResetCharges(bal(700), ar({ max_resets_per_24h: null }), 500)).toBeNull();
    expect(autoResetCharges(bal(700), ar({ resets_used_in_window: null }), 500)).toBeNull();
    // The API's own words: off, or null usage (no subscription).
    expect(autoResetCharges(bal(700), ar({ enabled: false, threshold_pct: null }), 500)).toBe(0);
    expect(autoResetCharges(bal(700), ar({ current_usage_pct: null, max_resets_per_24h: null }), 500)).toBe(0);
    // current_usage_pct left out counts as a subscription (the careful side).
    expect(autoResetCharges(bal(700), ar({ current_usage_pct: undefined }), 500)).toBe(1);
    expect(resetsLeft(ar({ max_resets_per_24h: null }))).toBeNull();
    expect(creditsBeforeReset(bal(700), ar({ threshold_pct: null }))).toBeNull();
  });
});

describe('the rest', () => {
  it('balanceAfter goes negative when the balance does not cover the run; no float noise', () => {
    expect(balanceAfter(bal(900), 150)).toBe(-50);
    expect(balanceAfter({ available: 0.3, consumed: 0.1 }, 0.1)).toBe(0.1);
  });
  it('creditsBeforeReset and resetsLeft', () => {
    expect(creditsBeforeReset(bal(700), ar())).toBe(100);
    expect(creditsBeforeReset(bal(900), ar())).toBe(0);
    expect(resetsLeft(ar({ resets_used_in_window: 2 }))).toBe(1);
    expect(resetsLeft(ar({ resets_used_in_window: 5 }))).toBe(0);
  });
});
