// The plan's steps that belong to the account rather than to one squid of the file: deleting the squids the file no
// longer names (prune), and the automatic billing reset. makePlan (diff.ts) puts them last, in this order.
import { recordId } from '../api/resolve.js';
import { squidPath } from '../api/squids.js';
import { AUTO_RESET_PATH, raisesCharges, type AutoReset, type AutoResetUpdate } from '../api/billing.js';
import type { Desired } from './file.js';
import type { Live } from './state.js';
import type { Change, Step } from './step.js';

/** prune: every live squid the file does not name, deleted with its tasks, runs and results (asked first). */
export function pruneSteps(live: Live): Step[] {
  const steps: Step[] = [];
  const kept = new Set([...live.matched.values()].map((m) => m.id));
  for (const s of live.all) {
    const sid = recordId(s);
    if (kept.has(sid)) continue;
    const nm = typeof s.name === 'string' ? s.name : sid;
    steps.push({
      item: { kind: 'squid', action: 'delete', squid: nm, id: sid, changes: [] },
      missing: [],
      confirm: `delete squid "${nm}" with its tasks, runs and results`,
      requests: () => [{ method: 'DELETE', path: squidPath(sid) }],
    });
  }
  return steps;
}

/** The billing setting's fields the file names and the account has otherwise; a change that can charge more is asked. */
export function billingStep(b: NonNullable<Desired['billing']>, before: AutoReset): Step | undefined {
  const changes: Change[] = [];
  if (b.enabled !== undefined && b.enabled !== before.enabled)
    changes.push({ field: 'enabled', from: before.enabled, to: b.enabled });
  if (b.threshold !== undefined && b.threshold !== before.threshold_pct)
    changes.push({ field: 'threshold', from: before.threshold_pct, to: b.threshold });
  if (b.max_resets !== undefined && b.max_resets !== before.max_resets_per_24h)
    changes.push({ field: 'max_resets', from: before.max_resets_per_24h, to: b.max_resets });
  if (!changes.length) return undefined;
  const body: AutoResetUpdate = { enabled: b.enabled ?? before.enabled === true };
  if (b.threshold !== undefined) body.threshold_pct = b.threshold;
  if (b.max_resets !== undefined) body.max_resets_per_24h = b.max_resets;
  const after = {
    enabled: body.enabled,
    threshold_pct: b.threshold ?? before.threshold_pct,
    max_resets_per_24h: b.max_resets ?? before.max_resets_per_24h,
  };
  const usage = before.current_usage_pct;
  const firesNow = after.enabled && typeof usage === 'number' && usage > after.threshold_pct;
  return {
    item: { kind: 'billing', action: 'update', changes, ...(after.enabled ? { fires_now: firesNow } : {}) },
    missing: [],
    confirm: raisesCharges(before, after)
      ? `set automatic billing reset on (threshold ${after.threshold_pct}%, up to ${after.max_resets_per_24h} ` +
        `per 24 h): each reset charges the card on file${firesNow ? ', and one fires now' : ''}`
      : undefined,
    requests: () => [{ method: 'POST', path: AUTO_RESET_PATH, body }],
  };
}
