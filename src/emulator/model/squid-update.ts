// A squid update (POST /v1/squids/{id}) in the model: the checked fields stored through the store, and the answer in
// the form of the squid's crawler (CrawlerDef.update_answer, read by scripts/gen-crawlers.mjs from the crawler's one
// update-settings page; the update-squid reference page's for its crawler): docs/emulator.md, "The update's answer".
import { defOf, isReady } from '../crawlers.js';
import type { EmuCore } from '../emu.js';
import { isActive } from '../engine.js';
import { isRecord, naiveUs } from '../util.js';
import { runsOfSquid, stamped } from '../views.js';
import type { SquidRecord } from './records.js';
import * as store from './store.js';

type Rec = Record<string, unknown>;

/** Stores the update's checked values (run_notify and the schedule's fields in their sub-records) and the readiness. */
export function applySquidUpdate(emu: EmuCore, squid: SquidRecord, touched: [string, unknown][]): SquidRecord {
  const patch: Rec = {};
  for (const [key, value] of touched) {
    if (key === 'run_notify') patch.notifications_params = { run_notify: value };
    else if (key === 'cron_expression' || key === 'timezone') {
      const was = 'schedule' in patch ? patch.schedule : squid.schedule;
      patch.schedule =
        key === 'cron_expression' && value === null ? null : { ...(isRecord(was) ? was : {}), [key]: value };
    } else patch[key] = value;
  }
  // Readiness changes with the params only: a squid whose params were never set stays not ready.
  if ('params' in patch) patch.is_ready = isReady(defOf(store.crawlerOf(emu, squid.crawler)), patch.params as Rec);
  return store.updateRecord(emu, 'squids', squid.id, patch as Partial<SquidRecord>);
}

/** The settings record (the update-squid page's answer): is_active and run_notify only when sent. */
const SETTINGS = [
  'name',
  'no_line_breaks',
  'is_active',
  'params',
  'to_complete',
  'run_notify',
  'export_unique_results',
];
/** Fields an echo leaves out: sales-navigator-leads' page sends accounts, google-maps-reviews' timezone, and neither shows it. */
const NOT_ECHOED = new Set(['accounts', 'timezone']);

function stored(s: SquidRecord, k: string): unknown {
  if (k === 'run_notify') return s.notifications_params.run_notify ?? null;
  if (k === 'cron_expression') return s.schedule?.cron_expression ?? null;
  return (s as unknown as Rec)[k];
}

/**
 * The update's answer for the squid's crawler: its status (201 as every update-settings page labels it; 200 for the
 * update-squid page's crawler) and, as its page shows, an echo of the fields sent, the settings record, or the squid.
 */
export function updateAnswer(emu: EmuCore, squid: SquidRecord, sent: string[]): { status: number; body: Rec } {
  const crawler = store.crawlerOf(emu, squid.crawler);
  const { update_answer: form, update_status: status = 201 } = defOf(crawler);
  if (form === 'squid') {
    const running = runsOfSquid(emu, squid.id).some((r) => isActive(r));
    const body = {
      id: squid.id,
      name: squid.name,
      crawler: { id: crawler.id, name: crawler.name, slug: crawler.slug },
      params: squid.params,
      concurrency: squid.concurrency,
      export_unique_results: squid.export_unique_results,
      to_complete: squid.to_complete,
      no_line_breaks: squid.no_line_breaks,
      status: running ? 'running' : 'idle',
      created_at: stamped(squid, ['created_at'], 'us').created_at,
      updated_at: naiveUs(emu.clock.now()),
    };
    return { status, body };
  }
  const keys =
    form === 'settings'
      ? SETTINGS.filter((k) => (k !== 'is_active' && k !== 'run_notify') || sent.includes(k))
      : sent.filter((k) => !NOT_ECHOED.has(k));
  return { status, body: Object.fromEntries(keys.map((k) => [k, stored(squid, k)])) };
}
