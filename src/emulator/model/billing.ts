// Auto Billing Reset, the rule of when it fires: the spec's state table, a periodic check on business time, a rolling
// 24 h cap and suppression for the rest of the billing cycle after a failed charge. Its routes are routes/billing.ts.
import type { AutoResetState, Emu, EmuState } from '../types.js';
import { FieldError, email, sendMail, userEmail } from '../delivery.js';

const CHECK_INTERVAL_MS = 60_000;
const WINDOW_MS = 24 * 60 * 60_000;
const CYCLE_MS = 30 * 24 * 60 * 60_000;

export const DEFAULT_AUTO_RESET: AutoResetState = {
  enabled: false,
  threshold_pct: 80,
  max_resets_per_24h: 3,
  reset_times: [],
  suppressed_until: null,
  payment_outcome: 'ok',
};

export const PAYMENT_OUTCOMES = ['ok', 'declined', 'requires_3ds'] as const;

/** Run by startBilling, so after every replaceState (start, reset); other code reads emu.state.autoReset. */
function repairSettings(emu: Emu): void {
  // A state file written before this section existed (or a hand-edited one) still loads.
  const cur = emu.state.autoReset as Partial<AutoResetState> | undefined;
  if (!cur || !Array.isArray(cur.reset_times)) {
    emu.state.autoReset = { ...DEFAULT_AUTO_RESET, ...(cur ?? {}), reset_times: [] };
  }
}

/** Raw usage percentage, or null without an active subscription. */
function usagePct(emu: Emu): number | null {
  const sub = emu.state.subscription;
  if (!sub || sub.active === false) return null;
  const { available, consumed } = emu.state.balance;
  if (!(available > 0)) return consumed > 0 ? 100 : 0;
  return (consumed / available) * 100;
}

function resetsInWindow(ar: AutoResetState, now: number): number[] {
  return ar.reset_times.filter((t) => t <= now && now - t < WINDOW_MS).sort((a, b) => a - b);
}

/** GET /v1/plans/auto-reset: the settings and where usage and the 24 h window stand. */
export function autoResetView(emu: Emu): Record<string, unknown> {
  const ar = emu.state.autoReset;
  const now = emu.clock.now();
  const inWindow = resetsInWindow(ar, now);
  const usage = usagePct(emu);
  return {
    enabled: ar.enabled,
    threshold_pct: ar.threshold_pct,
    max_resets_per_24h: ar.max_resets_per_24h,
    resets_used_in_window: inWindow.length,
    // The counter drops when the oldest reset leaves the rolling window.
    window_resets_at: inWindow.length ? new Date(inWindow[0] + WINDOW_MS).toISOString() : null,
    current_usage_pct: usage === null ? null : Math.round(usage * 100) / 100,
  };
}

function suppressed(ar: AutoResetState, now: number): boolean {
  if (ar.suppressed_until === null) return false;
  if (now < ar.suppressed_until) return true;
  ar.suppressed_until = null;
  return false;
}

const FAILURE_REASON: Record<'declined' | 'requires_3ds', string> = {
  declined: 'your card was declined',
  requires_3ds: 'your card requires 3-D Secure authentication, which an automatic charge cannot complete',
};

/**
 * The ordinary end of a billing cycle: the plan renews on schedule and consumed credits return to zero. This is not
 * an automatic reset (no extra charge, not counted in the 24-hour window); a suppression that lasted "until the end
 * of the cycle" ends with it.
 */
function renewIfCycleEnded(emu: Emu): boolean {
  const sub = emu.state.subscription;
  const now = emu.clock.now();
  if (!sub || !sub.active || now < sub.cycle_ends_at) return false;
  while (sub.cycle_ends_at <= now) {
    sub.cycle_started_at = sub.cycle_ends_at;
    sub.cycle_ends_at += CYCLE_MS;
  }
  emu.state.balance.consumed = 0;
  emu.state.balance.reset_time = new Date(sub.cycle_ends_at).toISOString();
  suppressed(emu.state.autoReset, now);
  emu.markDirty();
  return true;
}

/** Fires a reset when every condition of the state table holds. Returns what happened. */
export function maybeReset(emu: Emu): 'reset' | 'failed' | 'none' {
  const ar = emu.state.autoReset;
  const now = emu.clock.now();
  const usage = usagePct(emu);
  const sub = emu.state.subscription;
  if (!ar.enabled || usage === null || !sub || usage <= ar.threshold_pct) return 'none';
  if (suppressed(ar, now)) return 'none';
  if (resetsInWindow(ar, now).length >= ar.max_resets_per_24h) return 'none';

  const outcome = ar.payment_outcome;
  if (outcome === 'ok') {
    const b = emu.state.balance;
    b.consumed = 0;
    sub.cycle_started_at = now;
    sub.cycle_ends_at = now + CYCLE_MS;
    b.reset_time = new Date(sub.cycle_ends_at).toISOString();
    // Only the window matters; older resets would grow the state forever.
    ar.reset_times = [...resetsInWindow(ar, now), now];
    emu.markDirty();
    return 'reset';
  }
  ar.suppressed_until = sub.cycle_ends_at > now ? sub.cycle_ends_at : now + CYCLE_MS;
  const reason = FAILURE_REASON[outcome] ?? 'the payment failed';
  sendMail(
    emu,
    userEmail(emu),
    `Automatic billing reset failed: ${reason}`,
    `Automatic billing reset failed: ${reason}. Your usage is at ${usage.toFixed(2)}% of your plan ` +
      `(threshold ${ar.threshold_pct}%). No further automatic reset will be attempted until the end of the current ` +
      `billing cycle (${new Date(ar.suppressed_until).toISOString()}). Update your payment method in the dashboard.`,
  );
  emu.markDirty();
  return 'failed';
}

function intIn(body: Record<string, unknown>, key: string, lo: number, hi: number): number | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
    throw new FieldError(key, `${key} must be an integer from ${lo} to ${hi}`);
  }
  return v;
}

/** POST /v1/plans/auto-reset: the settings sent, checked (a FieldError names the bad one), then a check at once. */
export function setAutoReset(emu: Emu, body: Record<string, unknown>): void {
  if (typeof body.enabled !== 'boolean')
    throw new FieldError('enabled', 'enabled is required and must be a boolean (true or false)');
  const threshold = intIn(body, 'threshold_pct', 1, 100);
  const max = intIn(body, 'max_resets_per_24h', 1, 10);
  const ar = emu.state.autoReset;
  ar.enabled = body.enabled;
  if (threshold !== undefined) ar.threshold_pct = threshold;
  if (max !== undefined) ar.max_resets_per_24h = max;
  emu.markDirty();
  if (ar.enabled) maybeReset(emu);
}

/** Control plane: usage set to `pct` percent of the plan's allowance. */
export function setUsagePct(emu: Emu, pct: number): void {
  const b = emu.state.balance;
  b.consumed = (b.available * pct) / 100;
  emu.markDirty();
}

/** Control plane: the outcome the next automatic charge will have. */
export function setPaymentOutcome(emu: Emu, outcome: AutoResetState['payment_outcome']): void {
  emu.state.autoReset.payment_outcome = outcome;
  emu.markDirty();
}

/** The periodic check (cycle renewal, then a reset when due), on business time; the function returned stops it. */
export function startBilling(emu: Emu): () => void {
  repairSettings(emu);
  let stopped = false;
  let timer = 0;
  const tick = (): void => {
    if (stopped) return;
    renewIfCycleEnded(emu);
    maybeReset(emu);
    timer = emu.clock.schedule(CHECK_INTERVAL_MS, tick);
  };
  timer = emu.clock.schedule(CHECK_INTERVAL_MS, tick);
  return () => {
    stopped = true;
    emu.clock.cancel(timer);
  };
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function planSubscription(v: unknown): EmuState['subscription'] {
  if (v === null) return null;
  const s = (typeof v === 'object' ? v : {}) as Record<string, unknown>;
  if (
    typeof s.active !== 'boolean' ||
    !isNum(s.cycle_started_at) ||
    !isNum(s.cycle_ends_at) ||
    s.cycle_ends_at <= s.cycle_started_at
  )
    throw new FieldError(
      'subscription',
      'subscription must be null or {active: boolean, cycle_started_at: ms, cycle_ends_at: ms after it}',
    );
  return { active: s.active, cycle_started_at: s.cycle_started_at, cycle_ends_at: s.cycle_ends_at };
}

/** The Auto Billing Reset state sent, checked field by field over the current one. */
function planAutoReset(cur: AutoResetState, v: unknown): AutoResetState {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new FieldError('auto_reset', 'auto_reset must be an object');
  const a = v as Record<string, unknown>;
  const next = { ...cur };
  if (a.enabled !== undefined) {
    if (typeof a.enabled !== 'boolean')
      throw new FieldError('auto_reset.enabled', 'auto_reset.enabled must be true or false');
    next.enabled = a.enabled;
  }
  next.threshold_pct = intIn(a, 'threshold_pct', 1, 100) ?? next.threshold_pct;
  next.max_resets_per_24h = intIn(a, 'max_resets_per_24h', 1, 10) ?? next.max_resets_per_24h;
  if (a.reset_times !== undefined) {
    if (!Array.isArray(a.reset_times) || !a.reset_times.every(isNum))
      throw new FieldError('auto_reset.reset_times', 'auto_reset.reset_times must be a list of ms');
    next.reset_times = [...a.reset_times];
  }
  if (a.suppressed_until !== undefined) {
    if (a.suppressed_until !== null && !isNum(a.suppressed_until))
      throw new FieldError('auto_reset.suppressed_until', 'auto_reset.suppressed_until must be ms or null');
    next.suppressed_until = a.suppressed_until;
  }
  if (a.payment_outcome !== undefined) {
    if (!PAYMENT_OUTCOMES.includes(a.payment_outcome as AutoResetState['payment_outcome']))
      throw new FieldError(
        'auto_reset.payment_outcome',
        `auto_reset.payment_outcome must be one of ${PAYMENT_OUTCOMES.join(', ')}`,
      );
    next.payment_outcome = a.payment_outcome as AutoResetState['payment_outcome'];
  }
  return next;
}

/**
 * Control plane (POST /_emulator/billing): the plan's allowance and usage, its subscription, the Auto Billing Reset
 * state and the user's e-mail (where billing mail goes), each only when sent; all are checked before any changes.
 * No reset check runs here: the periodic one (or an update of the settings) decides, as on the service.
 */
export function setBillingState(emu: Emu, body: Record<string, unknown>): void {
  const b = emu.state.balance;
  for (const k of ['available', 'consumed'] as const)
    if (body[k] !== undefined && !(isNum(body[k]) && body[k] >= 0))
      throw new FieldError(k, `${k} must be a number >= 0 (credits)`);
  if (body.email !== undefined) email(body, 'email', 'email');
  const subscription = body.subscription === undefined ? emu.state.subscription : planSubscription(body.subscription);
  const autoReset =
    body.auto_reset === undefined ? emu.state.autoReset : planAutoReset(emu.state.autoReset, body.auto_reset);
  if (isNum(body.available)) b.available = body.available;
  if (isNum(body.consumed)) b.consumed = body.consumed;
  if (typeof body.email === 'string') emu.state.user.email = body.email;
  emu.state.subscription = subscription;
  if (subscription) b.reset_time = new Date(subscription.cycle_ends_at).toISOString();
  emu.state.autoReset = autoReset;
  emu.markDirty();
}

/** What POST /_emulator/billing answers: the state it sets. */
export function billingState(emu: Emu): Record<string, unknown> {
  const { available, consumed, reset_time } = emu.state.balance;
  return {
    available,
    consumed,
    reset_time,
    subscription: emu.state.subscription,
    auto_reset: emu.state.autoReset,
    email: emu.state.user.email,
  };
}
