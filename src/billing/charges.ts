// What a run would spend, as arithmetic on what the API says (no requests here): the balance left after it, and
// how many Auto Billing Resets (each a charge on the card on file) it would set off. The rules are the spec's state
// table: a reset fires when usage (consumed / available) goes above threshold_pct, consumed credits return to zero,
// and at most max_resets_per_24h fire in any rolling 24 hours.

export interface BalanceFacts {
  /** The plan's allowance for the period (GET /v1/user/balance `available`, not what is left). */
  available: number;
  consumed: number;
}

/**
 * The Auto Billing Reset settings as far as the API said them. A field it left out (or sent in a type the spec does
 * not give it) is null and named in `unknown`: what depends on it is unknown, never taken as 0 or off.
 */
export interface AutoResetFacts {
  /** null: the API did not say whether it is on. */
  enabled: boolean | null;
  threshold_pct: number | null;
  max_resets_per_24h: number | null;
  resets_used_in_window: number | null;
  /** null without an active subscription (the API's null: no reset can fire); undefined when the API left it out. */
  current_usage_pct: number | null | undefined;
  /** The fields the API did not give, in the order of the spec's table. */
  unknown: string[];
}

const round4 = (n: number) => Math.round(n * 1e4) / 1e4;

/** Credits left now: the allowance minus what was consumed. */
export function creditsLeft(b: BalanceFacts): number {
  return round4(b.available - b.consumed);
}

/** Credits left once a run of `credits` is charged; negative when the balance does not cover it. */
export function balanceAfter(b: BalanceFacts, credits: number): number {
  return round4(b.available - b.consumed - credits);
}

/** Resets the 24-hour cap still allows now; null when the API did not give the cap or the count. */
export function resetsLeft(ar: AutoResetFacts): number | null {
  if (ar.max_resets_per_24h === null || ar.resets_used_in_window === null) return null;
  return Math.max(0, ar.max_resets_per_24h - ar.resets_used_in_window);
}

/** Credits that can be consumed before the next reset fires (usage strictly above the threshold); 0 when above it; null without a threshold. */
export function creditsBeforeReset(b: BalanceFacts, ar: AutoResetFacts): number | null {
  if (ar.threshold_pct === null) return null;
  return Math.max(0, round4((b.available * ar.threshold_pct) / 100 - b.consumed));
}

/**
 * How many resets a run of `credits` would set off: each time usage would go above the threshold a reset fires
 * (consumed back to 0) while the 24-hour cap allows; 0 when auto-reset is off or there is no subscription.
 * Usage already above the threshold counts: the next check fires a reset during the run. null when it cannot be
 * told: the API did not say whether auto-reset is on, or it is on and the threshold, the cap or the count is missing
 * (a current_usage_pct left out counts as a subscription: the careful side).
 */
export function autoResetCharges(b: BalanceFacts, ar: AutoResetFacts, credits: number): number | null {
  if (ar.enabled === false || ar.current_usage_pct === null || !(b.available > 0) || !(credits > 0)) return 0;
  const left0 = resetsLeft(ar);
  if (ar.enabled === null || ar.threshold_pct === null || left0 === null) return null;
  const trigger = (b.available * ar.threshold_pct) / 100;
  let consumed = b.consumed;
  let left = credits;
  let charges = 0;
  for (let allowed = left0; allowed > 0; allowed--) {
    const need = trigger - consumed;
    // A reset fires once usage is strictly above the threshold; with usage already above it, at once.
    if (need >= 0 && left <= need) break;
    left -= Math.max(0, need);
    consumed = 0;
    charges++;
  }
  return charges;
}
