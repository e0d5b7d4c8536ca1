// Auto Billing Reset (spec "Auto Billing Reset"): read the settings, and write them with a POST that is never
// retried once it may have reached the server (each reset charges the card on file).
import type { HttpClient } from './http.js';
import { AmbiguousWriteError } from './http.js';
import { ApiError } from '../errors.js';

export const AUTO_RESET_PATH = '/v1/plans/auto-reset';

export interface AutoReset {
  enabled: boolean;
  threshold_pct: number;
  max_resets_per_24h: number;
  resets_used_in_window: number;
  window_resets_at: string | null;
  current_usage_pct: number | null;
  [k: string]: unknown;
}

export interface AutoResetUpdate {
  enabled: boolean;
  threshold_pct?: number;
  max_resets_per_24h?: number;
}

function asSettings(v: unknown): AutoReset {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new ApiError(`the API answered ${AUTO_RESET_PATH} with an unexpected body (not an object)`);
  }
  return v as AutoReset;
}

export async function getAutoReset(http: HttpClient): Promise<AutoReset> {
  return asSettings(await http.get(AUTO_RESET_PATH));
}

export async function setAutoReset(http: HttpClient, body: AutoResetUpdate): Promise<AutoReset> {
  try {
    return asSettings(await http.post(AUTO_RESET_PATH, body));
  } catch (err) {
    // A timeout, a reset connection or a 5xx leaves the outcome unknown; the HTTP module did not retry. Say what
    // that means here.
    if (err instanceof AmbiguousWriteError) {
      err.message =
        `${err.message.replace(/\. The request may have reached the server.*$/, '')}. ` +
        'The request may have reached the server, so the setting may or may not have changed (and a reset may have ' +
        'charged the card). It was not retried: check with `sq billing auto-reset` before trying again';
    }
    throw err;
  }
}

/** Whether a write can charge more than the current setting could: that is what needs a yes. */
export function raisesCharges(before: AutoReset, after: Required<AutoResetUpdate>): boolean {
  if (!after.enabled) return false;
  return (
    !before.enabled ||
    after.threshold_pct < before.threshold_pct ||
    after.max_resets_per_24h > before.max_resets_per_24h ||
    (typeof before.current_usage_pct === 'number' && before.current_usage_pct > after.threshold_pct)
  );
}
