// Scheduled runs: a squid with a `cron_expression` (and `timezone`, UTC when never set) that is active starts a run
// with `origin: "schedule"` at each time the expression fires on the emulator's clock, unless the run-start rule
// (model/run-start.ts) refuses it: the live service skips such a launch; so does this, keeping the refusal.
import type { EmuCore } from './emu.js';
import { startRun } from './engine.js';
import { recordRefusedLaunch } from './model/launches.js';
import { runStartRefusal } from './model/run-start.js';
import { nextFireMs } from './model/schedule.js';
import * as store from './model/store.js';

const CHECK_MS = 30_000;

/** Starts the timer that launches due runs; returns its stop function. */
export function registerSchedules(emu: EmuCore): () => void {
  // Per squid: the schedule text and the launch time computed for it, so a changed schedule is recomputed.
  const due = new Map<string, { key: string; at: number | null }>();
  let stopped = false;
  let timer = 0;
  const tick = (): void => {
    if (stopped) return;
    const now = emu.clock.now();
    for (const squid of store.records(emu, 'squids')) {
      const id = String(squid.id);
      const key = `${JSON.stringify(squid.schedule)}|${String(squid.is_active)}`;
      let entry = due.get(id);
      if (!entry || entry.key !== key) {
        // First seen or changed: the first time after now (a time already passed is not made up).
        entry = { key, at: nextFireMs(squid, now) };
        due.set(id, entry);
      }
      if (entry.at === null || entry.at > now) continue;
      entry.at = nextFireMs(squid, now);
      const refusal = runStartRefusal(emu, squid);
      if (refusal) {
        recordRefusedLaunch(emu, id, 'schedule', refusal);
        continue;
      }
      startRun(emu, id, 'schedule');
      emu.markDirty();
    }
    for (const id of due.keys()) if (!store.record(emu, 'squids', id)) due.delete(id);
    timer = emu.clock.schedule(CHECK_MS, tick);
  };
  timer = emu.clock.schedule(CHECK_MS, tick);
  return () => {
    stopped = true;
    emu.clock.cancel(timer);
  };
}
