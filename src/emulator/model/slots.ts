// Slots (changelog, "slots"): each active squid holds as many as its concurrency (one at least); creating, activating
// or raising concurrency past the plan's total fails with SlotsLimitExceeded, and so does starting a run while the
// squids already hold more than the plan has (after the plan lost slots).
import type { EmuCore } from '../emu.js';
import * as store from './store.js';

/** Slots in use: each active squid holds as many as its concurrency (one at least). */
export function usedSlots(emu: EmuCore, except?: string): number {
  return store
    .records(emu, 'squids')
    .filter((s) => s.id !== except && s.is_active !== false)
    .reduce((a, s) => a + Math.max(1, Number(s.concurrency ?? 1)), 0);
}

/** The error of a change that would hold more slots than the plan has (SlotsLimitExceeded), or null. */
export function slotsProblem(emu: EmuCore, wanted: number, except?: string): string | null {
  const total = Number(store.balance(emu).total_available_slots);
  const used = usedSlots(emu, except);
  return used + wanted > total
    ? `Your plan has ${total} slots and ${used} are in use; this needs ${wanted} (SlotsLimitExceeded). Deactivate a squid or upgrade your plan.`
    : null;
}
