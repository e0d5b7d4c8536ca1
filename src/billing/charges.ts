// What a run would spend, as arithmetic on what the API says (no requests here): the balance left after it, and
// how many Auto Billing Resets (each a charge on the card on file) it would set off. The rules are the spec's state
// table: a reset fires when usage (consumed / available) goes above threshold_pct, consumed credits return to zero,
// and at most max_resets_per_24h fire in any rolling 24 hours.

export interface BalanceFacts {
  /** The plan's allowance for the period (GET /v1/user/balance `available`, not what is left). */
  available: number;
  consumed: number;
}

/** The Auto Billing Reset settings as far as the API said them: a field left out (or of another type) is null and
 * named in `unknown`, never taken as 0 or off. */
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

/** Can a reset fire at all: Auto Billing Reset not off and a subscription to renew (current_usage_pct not null). */
export function resetCanFire(ar: AutoResetFacts): boolean {
  return ar.enabled !== false && ar.current_usage_pct !== null;
}

/**
 * How many resets a run of `credits` would set off: each time usage would go above the threshold a reset fires
 * while the 24-hour cap allows; 0 when auto-reset is off or there is no subscription. null when the API did not say
 * enough to tell (a current_usage_pct left out counts as a subscription: the careful side).
 */
export function autoResetCharges(b: BalanceFacts, ar: AutoResetFacts, credits: number): number | null {
  if (!resetCanFire(ar) || !(b.available > 0) || !(credits > 0)) return 0;
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

/**
 * What a run does to the account, as far as the spec's rules tell it: the balance after, the resets it sets off,
 * whether it is covered and where it pauses if not. A reset fires at a periodic check once usage is above the
 * threshold, at a time not known, so each figure depending on it is a range: a check after every task (as many resets
 * as possible) to a check only when the run is out of credits or ended (as few). A task is charged whole; the tasks
 * are taken as equal shares of the estimate.
 */
export interface RunForecast {
  /** Resets the run sets off: the fewest (checks as late as possible) and the most (as early as possible). */
  resets: number;
  resets_max: number;
  /** Credits each reset renews: the plan's allowance (consumed credits return to zero). */
  renewed_credits: number;
  /** Credits left once the run has ended and the next check has run: the low and the high end (equal when exact). */
  balance_after: number;
  balance_after_max: number;
  /** true: the run finishes; false: it pauses for lack of credits; null: it depends on when the checks fall. */
  covered: boolean | null;
  /** When not covered for sure or maybe: the tasks done before it pauses (the fewest, the most); else null. */
  pauses_after_tasks: number | null;
  pauses_after_tasks_max: number | null;
  /** Resets still allowed in the 24-hour window once the run has set off its own (the fewest). */
  resets_left_after: number;
  /** A reset already due before the run: not among `resets` (the run's own), though the balance counts it. */
  pending_reset: boolean;
}

interface SimEnd {
  resets: number;
  consumed: number;
  /** Tasks done when it paused for good; null when it finished. */
  pausedAfter: number | null;
}

function simulate(b: BalanceFacts, trigger: number, allowed: number, costs: number[], early: boolean): SimEnd {
  let consumed = b.consumed;
  let left = allowed;
  let resets = 0;
  const check = () => {
    if (left > 0 && consumed > trigger) {
      consumed = 0;
      left--;
      resets++;
    }
  };
  // Usage already above the threshold: the earliest check fires a reset before the first task.
  if (early) check();
  for (let i = 0; i < costs.length; i++) {
    // Out of credits the run pauses; the next check may fire a reset, and the run goes on.
    if (consumed >= b.available) {
      check();
      if (consumed >= b.available) return { resets, consumed, pausedAfter: i };
    }
    consumed += costs[i];
    if (early) check();
  }
  // The check after the run: usage above the threshold fires a reset even once the run has ended.
  check();
  return { resets, consumed, pausedAfter: null };
}

/** `credits` in `n` equal chunks. */
const chunks = (credits: number, n: number) => Array.from({ length: n }, () => Math.max(0, credits) / n);

/** The forecast of a run of `credits` in `tasks` tasks yielding `results` results (see RunForecast); null when the
 * API did not say enough to tell (autoResetCharges is null). */
export function forecastRun(
  b: BalanceFacts,
  ar: AutoResetFacts,
  credits: number,
  tasks: number,
  results = tasks,
): RunForecast | null {
  const off = !resetCanFire(ar) || !(b.available > 0);
  const left0 = off ? 0 : resetsLeft(ar);
  if (!off && (ar.enabled === null || ar.threshold_pct === null || left0 === null)) return null;
  const trigger = off ? Infinity : (b.available * (ar.threshold_pct ?? 100)) / 100;
  const n = Math.max(1, Math.floor(tasks));
  const units = Math.max(n, Math.min(20_000, Math.floor(results)));
  const early = simulate(b, trigger, left0 ?? 0, chunks(credits, units), true);
  const late = simulate(b, trigger, left0 ?? 0, chunks(credits, n), false);
  const after = [early, late].map((s) => round4(b.available - s.consumed));
  const paused = [early.pausedAfter === null ? null : Math.floor((early.pausedAfter * n) / units), late.pausedAfter];
  const covered = paused.every((p) => p === null) ? true : paused.every((p) => p !== null) ? false : null;
  const stops = paused.filter((p): p is number => p !== null);
  // Due already: both bounds fire it (the early one before the first task, the late one at the latest after the run).
  const pending = !off && (left0 ?? 0) > 0 && b.consumed > trigger ? 1 : 0;
  return {
    resets: Math.max(0, Math.min(early.resets, late.resets) - pending),
    resets_max: Math.max(0, Math.max(early.resets, late.resets) - pending),
    renewed_credits: b.available,
    balance_after: Math.min(...after),
    balance_after_max: Math.max(...after),
    covered,
    pauses_after_tasks: stops.length ? Math.min(...stops) : null,
    // Paused under one bound and finished under the other (covered null): the latest pause of the bound that paused.
    pauses_after_tasks_max: stops.length ? Math.max(...stops) : null,
    resets_left_after: Math.max(0, (left0 ?? 0) - Math.max(early.resets, late.resets)),
    pending_reset: pending === 1,
  };
}
