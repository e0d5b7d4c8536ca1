// May a run of this squid start? The one rule POST /v1/runs, the scheduler and a chain's autostart all ask, so a
// squid refused by one path is refused by the others with the same words. In the order the service checks:
// inactive, a run in progress, not ready, no tasks, no credits, slots, account health.
import { defOf } from '../crawlers.js';
import type { EmuCore } from '../emu.js';
import { candidateAccounts } from '../collect.js';
import { isActive } from '../engine.js';
import { runsOfSquid } from '../views.js';
import type { Refusal } from '../types.js';
import { slotsProblem } from './slots.js';
import type { CrawlerRecord, SquidRecord } from './records.js';
import * as store from './store.js';

export type { Refusal };

const refuse = (code: string, text: string): Refusal => ({ code, message: `${text} (${code}).` });

/** Why a run of `squid` may not start now, or null when it may. */
export function runStartRefusal(emu: EmuCore, squid: SquidRecord): Refusal | null {
  const id = String(squid.id);
  const crawler = store.record(emu, 'crawlers', String(squid.crawler));
  if (squid.is_active === false)
    return refuse('SquidInactive', 'This squid is deactivated; activate it (is_active: true) before starting a run');
  if (runsOfSquid(emu, id).some(isActive)) return refuse('RunInProgress', 'A run is already active for this squid');
  if (squid.is_ready === false) return notReady(squid, crawler);
  if (!store.records(emu, 'tasks').some((t) => t.squid === id && t.is_active !== false))
    return refuse('NoTasksPresent', 'This squid has no tasks; add tasks before starting a run');
  if (emu.remainingCredits() <= 0) return refuse('NotEnoughBalance', 'Not enough credits left to start a run');
  // The squid's own slots are counted among those in use: a plan that lost slots starts nothing until it fits again.
  if (slotsProblem(emu, 0) !== null) {
    const total = Number(store.balance(emu).total_available_slots);
    return refuse(
      'SlotsLimitExceeded',
      `Your active squids hold more slots than your plan's ${total}; deactivate a squid or upgrade your plan`,
    );
  }
  return crawler ? accountRefusal(emu, squid, crawler) : null;
}

function notReady(squid: SquidRecord, crawler: CrawlerRecord | undefined): Refusal {
  const params = squid.params;
  const missing = crawler
    ? Object.entries(defOf(crawler).squid)
        .filter(([n, p]) => p.required && params[n] == null)
        .map(([n]) => n)
    : [];
  return missing.length
    ? refuse(
        'SquidNotReady',
        `This squid is not ready: set its required parameters (${missing.join(', ')}) before starting a run`,
      )
    : refuse(
        'SquidNotReady',
        'This squid is not ready: set its parameters (POST /v1/squids/{id} with params) before its first run, even when all are optional',
      );
}

/**
 * Account health (changelog: status "200" is the condition a run checks): a crawler that needs an account refuses
 * to start when the accounts it would use are all unhealthy. With none at all the run starts and ends in error
 * (no_accounts), as before: the docs do not say which the service does.
 */
function accountRefusal(emu: EmuCore, squid: SquidRecord, crawler: CrawlerRecord): Refusal | null {
  const def = defOf(crawler);
  if (!def.account) return null;
  const accounts = candidateAccounts(emu, squid, def);
  if (!accounts.length || accounts.some((a) => String(a.status) === '200')) return null;
  return refuse(
    'AccountNotHealthy',
    `No ${def.account.type} account of this squid is synchronized (status "200"); re-synchronize its cookies`,
  );
}
