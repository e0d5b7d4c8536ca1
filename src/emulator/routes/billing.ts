// Auto Billing Reset's settings (spec: Billing Auto-Reset) and the control plane's usage and payment outcome; the rule
// of when a reset fires, and its timer, are model/billing.ts.
import type { Emu } from '../types.js';
import { FieldError, validationError } from '../delivery.js';
import {
  autoResetView,
  billingState,
  PAYMENT_OUTCOMES,
  setAutoReset,
  setBillingState,
  setPaymentOutcome,
  setUsagePct,
} from '../model/billing.js';
import { errB, isRecord } from '../util.js';

type Outcome = (typeof PAYMENT_OUTCOMES)[number];

export function registerBilling(emu: Emu): void {
  emu.route('GET', '/v1/plans/auto-reset', () => ({ status: 200, body: autoResetView(emu) }));

  emu.route('POST', '/v1/plans/auto-reset', (req) => {
    try {
      setAutoReset(emu, isRecord(req.body) ? req.body : {});
    } catch (e) {
      if (e instanceof FieldError) return validationError(e);
      throw e;
    }
    return { status: 200, body: autoResetView(emu) };
  });

  emu.route('POST', '/_emulator/usage', (req) => {
    const pct = isRecord(req.body) ? req.body.pct : undefined;
    if (typeof pct !== 'number' || !Number.isFinite(pct) || pct < 0) {
      return errB(400, 'pct must be a number >= 0 (percent of the plan allowance)', 'pct');
    }
    setUsagePct(emu, pct);
    return { status: 200, body: autoResetView(emu) };
  });

  emu.route('POST', '/_emulator/payment', (req) => {
    const outcome = isRecord(req.body) ? req.body.outcome : undefined;
    if (!PAYMENT_OUTCOMES.includes(outcome as Outcome))
      return errB(400, `outcome must be one of ${PAYMENT_OUTCOMES.join(', ')}`, 'outcome');
    setPaymentOutcome(emu, outcome as Outcome);
    return { status: 200, body: { payment_outcome: outcome } };
  });

  emu.route('POST', '/_emulator/billing', (req) => {
    try {
      setBillingState(emu, isRecord(req.body) ? req.body : {});
    } catch (e) {
      if (e instanceof FieldError) return validationError(e);
      throw e;
    }
    return { status: 200, body: billingState(emu) };
  });
}
