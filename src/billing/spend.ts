// What a run of a squid would cost the account: the API's estimate with the balance and the Auto Billing Reset settings
// read beside it: the credits, what is left after, and how many resets (card charges) the run would set off.
import type { HttpClient } from '../api/http.js';
import { ApiError, NotFoundError } from '../errors.js';
import { isRecord } from '../lib/guards.js';
import { getBalance } from '../api/user.js';
import type { Balance, Crawler } from '../api/records.js';
import { getAutoReset } from '../api/billing.js';
import { getEstimate, type Estimate } from '../api/estimate.js';
import {
  autoResetCharges,
  balanceAfter,
  creditsLeft,
  forecastRun,
  resetCanFire,
  type AutoResetFacts,
  type BalanceFacts,
} from './charges.js';

/** The estimate and what it means for the account: `sq squids estimate --json` prints this. */
export interface SpendEstimate extends Estimate {
  /** Credits left after the run; negative when the balance does not cover it. */
  balance_after: number;
  /** Auto Billing Resets (card charges) the run would set off; null when unknown (see auto_reset_unknown). */
  auto_reset_charges: number | null;
  /** The auto-reset fields the API did not give, when that leaves auto_reset_charges unknown. */
  auto_reset_unknown?: string[];
  /** What one reset charges, when the balance names the plan's price (a numeric `price`); the docs show none. */
  auto_reset_price?: number;
  /** The forecast's high end (forecastRun); `balance_after` is its low end, equal when exact. */
  balance_after_max: number;
  /** Resets the run sets off: at least `resets`, at most `resets_max` (null: unknown); not a pending_reset. */
  resets: number | null;
  resets_max: number | null;
  /** true: usage is above the threshold already, so a reset fires whether or not this run starts (counted in the
   * balance after); null: unknown. */
  pending_reset: boolean | null;
  /** Credits each reset renews (the plan's allowance); 0 when no reset fires during the run. */
  renewed_credits: number;
  /** true: the run finishes; false: it pauses for lack of credits; null: it may (depends on the check's timing, or unknown). */
  covered: boolean | null;
  /** Tasks done before it pauses (the fewest and the most), when it is not or may not be covered; else null. */
  pauses_after_tasks: number | null;
  pauses_after_tasks_max: number | null;
  /** When a paused run could go on (ISO), when it is not or may not be covered; null when not known. */
  resumes_at: string | null;
  /** The charge each reset makes: the plan renewed, its price (or price id only), the renewal date before and after. */
  charge: ResetCharge | null;
}

/** What a reset charges, as far as GET /v1/user/balance says it. */
export interface ResetCharge {
  plan: string | null;
  allowance: number;
  /** The plan's price when the balance gives a numeric `price`; else null and price_id names it. */
  price: number | null;
  price_id: string | null;
  /** The renewal date now (balance reset_time) and about after the run's last reset (that reset plus one interval). */
  renews_before: string | null;
  renews_after: string | null;
}

/** Beside the estimate, what the human view shows (not in --json: the API objects are `sq balance`'s and `sq billing auto-reset`'s). */
export interface SpendContext {
  estimate: SpendEstimate;
  balance: BalanceFacts & Record<string, unknown>;
  autoReset: AutoResetFacts & Record<string, unknown>;
  creditsLeft: number;
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function balanceFacts(v: Balance): BalanceFacts & Record<string, unknown> {
  if (!num(v.available) || !num(v.consumed))
    throw new ApiError('the API answered GET /v1/user/balance without numeric available and consumed');
  return { ...v, available: v.available, consumed: v.consumed };
}

/** The settings of GET /v1/plans/auto-reset. A field left out, or of another type than the spec's, is unknown (null,
 * and named in `unknown`): never read as off, 0 or "no card charge". */
export function autoResetFacts(v: Record<string, unknown>): AutoResetFacts & Record<string, unknown> {
  const unknown: string[] = [];
  const known = <T>(key: string, ok: boolean, value: T): T | null => {
    if (ok) return value;
    unknown.push(key);
    return null;
  };
  const enabled = known('enabled', typeof v.enabled === 'boolean', v.enabled as boolean);
  const threshold = known('threshold_pct', num(v.threshold_pct), v.threshold_pct as number);
  const max = known('max_resets_per_24h', num(v.max_resets_per_24h), v.max_resets_per_24h as number);
  const used = known('resets_used_in_window', num(v.resets_used_in_window), v.resets_used_in_window as number);
  // null is the API's own word (no subscription); left out, it is not known.
  const usage = num(v.current_usage_pct) ? v.current_usage_pct : v.current_usage_pct === null ? null : undefined;
  if (usage === undefined) unknown.push('current_usage_pct');
  return {
    ...v,
    enabled,
    threshold_pct: threshold,
    max_resets_per_24h: max,
    resets_used_in_window: used,
    current_usage_pct: usage,
    unknown,
  };
}

export type AccountFacts = {
  balance: BalanceFacts & Record<string, unknown>;
  autoReset: AutoResetFacts & Record<string, unknown>;
};

/** The balance and the Auto Billing Reset settings (two requests at once). */
export async function accountFacts(http: HttpClient): Promise<AccountFacts> {
  // The auto-reset endpoint is the spec's, not in the public docs: a service without it has no reset to fire.
  const noAutoReset = (err: unknown) => {
    // A 404 is the API's own answer: this service has no Auto Billing Reset, so none fires.
    if (err instanceof NotFoundError) return { enabled: false };
    throw err;
  };
  const [bal, ar] = await Promise.all([getBalance(http), getAutoReset(http).catch(noAutoReset)]);
  return { balance: balanceFacts(bal), autoReset: autoResetFacts(ar) };
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The charge of one reset: the plan, its price or price id, and the renewal date it moves (to about now + one interval). */
export function resetCharge(balance: BalanceFacts & Record<string, unknown>, now: number): ResetCharge {
  const interval = balance.interval === 'daily' ? DAY_MS : balance.interval === 'yearly' ? 365 * DAY_MS : 30 * DAY_MS;
  const before =
    typeof balance.reset_time === 'string' && Number.isFinite(Date.parse(balance.reset_time))
      ? isoDay(Date.parse(balance.reset_time))
      : null;
  return {
    plan: typeof balance.name === 'string' && balance.name ? balance.name : null,
    allowance: balance.available,
    price: num(balance.price) ? balance.price : null,
    price_id: typeof balance.id === 'string' && balance.id ? balance.id : null,
    renews_before: before,
    renews_after: isoDay(now + interval),
  };
}

/** When a run that runs out of credits could go on: the 24-hour window frees a reset, or the plan renews. */
function resumesAt(
  balance: Record<string, unknown>,
  autoReset: AutoResetFacts & Record<string, unknown>,
  onWindow: boolean,
  now: number,
): string | null {
  const renews =
    typeof balance.reset_time === 'string' && Number.isFinite(Date.parse(balance.reset_time))
      ? Date.parse(balance.reset_time)
      : null;
  if (!onWindow) return renews === null ? null : new Date(renews).toISOString();
  // A reset already in the window frees its place at window_resets_at; else the first one this run sets off does, 24 h on.
  const w = typeof autoReset.window_resets_at === 'string' ? Date.parse(autoReset.window_resets_at) : NaN;
  return new Date(Number.isFinite(w) && (autoReset.resets_used_in_window ?? 0) > 0 ? w : now + DAY_MS).toISOString();
}

/** What an estimate adds up to for the account: the balance after it, the resets it sets off, the charge. */
export function spendContext(est: Estimate, { balance, autoReset }: AccountFacts, now = Date.now()): SpendContext {
  const price = balance.price;
  const results = Math.max(0, ...est.services.map((s) => s.results));
  const f = forecastRun(balance, autoReset, est.total_credits, est.tasks.count, results);
  const charges = f === null ? autoResetCharges(balance, autoReset, est.total_credits) : f.resets_max;
  const plain = balanceAfter(balance, est.total_credits);
  const on = resetCanFire(autoReset);
  return {
    estimate: {
      ...est,
      balance_after: f ? f.balance_after : plain,
      balance_after_max: f ? f.balance_after_max : plain,
      auto_reset_charges: charges,
      resets: f ? f.resets : null,
      resets_max: f ? f.resets_max : null,
      pending_reset: f ? f.pending_reset : null,
      renewed_credits: f && (f.resets_max > 0 || f.pending_reset) ? f.renewed_credits : 0,
      covered: f ? f.covered : null,
      pauses_after_tasks: f ? f.pauses_after_tasks : null,
      pauses_after_tasks_max: f ? f.pauses_after_tasks_max : null,
      resumes_at: f && f.covered !== true ? resumesAt(balance, autoReset, on && f.resets_left_after === 0, now) : null,
      charge: charges === 0 && !f?.pending_reset ? null : resetCharge(balance, now),
      ...(charges === null ? { auto_reset_unknown: autoReset.unknown } : {}),
      ...(num(price) ? { auto_reset_price: price } : {}),
    },
    balance,
    autoReset,
    creditsLeft: creditsLeft(balance),
  };
}

/** The estimate, the balance and the auto-reset settings (three requests at once), and what they add up to. */
export async function spendEstimate(http: HttpClient, squidId: string): Promise<SpendContext> {
  const [est, facts] = await Promise.all([getEstimate(http, squidId), accountFacts(http)]);
  // The server's time: when a paused run could go on is the platform's clock, not this machine's.
  return spendContext(est, facts, http.serverNow());
}

/** What the target squid of a chain would cost: its estimate once it exists with tasks, else its crawler's rate. */
export interface ChainCost {
  autostart: boolean;
  target: { id: string; name: string } | null;
  estimate: SpendContext | null;
  /** Credits a row of the target crawler (its base rate), when the crawler could be read. */
  ratePerRow: number | null;
  crawlerName: string;
}

export async function chainCost(
  http: HttpClient,
  chain: {
    autostart?: unknown;
    target_cluster?: { id?: unknown; name?: unknown } | null;
    target_module?: { id?: unknown; public_name?: unknown; name?: unknown };
  },
): Promise<ChainCost> {
  const t =
    chain.target_cluster && typeof chain.target_cluster.id === 'string'
      ? { id: chain.target_cluster.id, name: String(chain.target_cluster.name ?? chain.target_cluster.id) }
      : null;
  const mod = chain.target_module ?? {};
  const out: ChainCost = {
    autostart: chain.autostart !== false,
    target: t,
    estimate: null,
    ratePerRow: null,
    crawlerName: String(mod.public_name ?? mod.name ?? mod.id ?? 'the target crawler'),
  };
  if (t) {
    try {
      out.estimate = await spendEstimate(http, t.id);
      return out;
    } catch (err) {
      // A target without tasks yet has no estimate (400); the rate below says what a row costs.
      if (!(err instanceof ApiError) || err.status !== 400) throw err;
    }
  }
  if (typeof mod.id === 'string') {
    const c = await http.get<Crawler>(`/v1/crawlers/${encodeURIComponent(mod.id)}`).catch(() => null);
    if (isRecord(c) && num(c.credits_per_row)) out.ratePerRow = c.credits_per_row;
    // A target known by its id alone (a chain written through sq api) is named as the crawler names itself.
    const name = isRecord(c) ? (c.public_name ?? c.name) : undefined;
    if (mod.public_name === undefined && mod.name === undefined && typeof name === 'string' && name !== '')
      out.crawlerName = name;
  }
  return out;
}
