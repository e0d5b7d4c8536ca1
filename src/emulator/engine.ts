// The runs engine: moves runs pending → running (→ paused → running) → uploading → done, or → error,
// on the business clock, producing deterministic rows, consuming credits and emitting events.
import type { EmuCore, RunMeta } from './emu.js';
import { defOf } from './crawlers.js';
import { candidateAccounts, collect, exhausted, limitCounter } from './collect.js';
import { runRecord, runtaskRecord } from './records.js';
import type { RunEvent } from './types.js';
import { RUN_TIMING } from './timing.js';
import { isoZ, naiveUs, type Rec } from './util.js';
import { runView } from './views.js';
import * as store from './model/store.js';

export { RUN_TIMING };

const ACTIVE_STATUSES = ['pending', 'running', 'paused', 'uploading'];

const timers = new WeakMap<EmuCore, Map<string, number>>();
function timersOf(emu: EmuCore): Map<string, number> {
  let m = timers.get(emu);
  if (!m) timers.set(emu, (m = new Map()));
  return m;
}

function emit(emu: EmuCore, run: Rec, event: RunEvent): void {
  emu.events.emit('run.event', runView(emu, run), event);
}

function schedule(emu: EmuCore, runId: string, step: NonNullable<RunMeta['step']>, ms: number): void {
  const meta = emu.runMeta[runId];
  if (!meta) return;
  const t = timersOf(emu);
  const old = t.get(runId);
  if (old !== undefined) emu.clock.cancel(old);
  meta.step = step;
  meta.dueAt = emu.clock.now() + ms;
  t.set(
    runId,
    emu.clock.schedule(ms, () => {
      t.delete(runId);
      meta.step = null;
      meta.dueAt = null;
      step_(emu, runId, step);
    }),
  );
  emu.markDirty();
}

function cancel(emu: EmuCore, runId: string): void {
  const t = timersOf(emu);
  const id = t.get(runId);
  if (id !== undefined) emu.clock.cancel(id);
  t.delete(runId);
  const meta = emu.runMeta[runId];
  if (meta) {
    meta.step = null;
    meta.dueAt = null;
  }
}

/** Creates the run (status pending) and schedules it. Validation is the caller's job. */
export function startRun(emu: EmuCore, squidId: string, origin: 'user' | 'schedule' | 'chain' = 'user'): Rec {
  const now = naiveUs(emu.clock.now());
  const id = emu.newHash('run');
  const run = runRecord(id, squidId, now, { origin });
  store.putRecord(emu, 'runs', run);
  const tasks = store
    .records(emu, 'tasks')
    .filter((t) => t.squid === squidId && t.is_active !== false)
    .map((t) => String(t.id));
  emu.runMeta[id] = { tasks, next: 0, dueAt: null, step: null };
  schedule(emu, id, 'start', RUN_TIMING.startMs);
  return run;
}

function runtaskOf(emu: EmuCore, runId: string, taskId: string): Rec | undefined {
  return store.records(emu, 'runtasks').find((rt) => rt.run === runId && rt.task === taskId);
}

function markRunning(emu: EmuCore, runId: string, meta: RunMeta): void {
  const taskId = meta.tasks[meta.next];
  const rt = taskId ? runtaskOf(emu, runId, taskId) : undefined;
  if (rt && rt.status === 'pending') {
    rt.status = 'running';
    rt.started_at = naiveUs(emu.clock.now());
  }
}

function step_(emu: EmuCore, runId: string, step: NonNullable<RunMeta['step']>): void {
  const run = store.record(emu, 'runs', runId);
  const meta = emu.runMeta[runId];
  if (!run || !meta) return;
  switch (step) {
    case 'start':
      return begin(emu, run, meta);
    case 'task':
      return processNext(emu, run, meta);
    case 'resume':
      return resume(emu, run, meta);
    case 'finish':
      return finish(emu, run);
    case 'finish_abort':
      return finishAbort(emu, run);
  }
}

function begin(emu: EmuCore, run: Rec, meta: RunMeta): void {
  if (run.status !== 'pending') return;
  const now = naiveUs(emu.clock.now());
  run.status = 'running';
  run.started_at = now;
  for (const taskId of meta.tasks) {
    const task = store.record(emu, 'tasks', taskId);
    if (!task) continue;
    const id = emu.newHash('runtask');
    store.putRecord(emu, 'runtasks', runtaskRecord(id, String(run.id), taskId, task.params));
  }
  markRunning(emu, String(run.id), meta);
  emit(emu, run, 'run.running');
  schedule(emu, String(run.id), 'task', RUN_TIMING.taskMs);
}

function fail(emu: EmuCore, run: Rec, reason: string, desc: string, rt?: Rec): void {
  const now = naiveUs(emu.clock.now());
  if (rt) {
    rt.status = 'error';
    rt.ended_at = now;
    rt.done_reason = 'error';
    rt.done_reason_desc = desc;
  }
  run.status = 'error';
  run.is_done = true;
  run.ended_at = now;
  run.done_reason = reason;
  run.done_reason_desc = desc;
  emu.markDirty();
  emit(emu, run, 'run.error');
}

function pause(emu: EmuCore, run: Rec, reason: string, desc: string, waitMs: number): void {
  run.status = 'paused';
  run.done_reason = reason;
  run.done_reason_desc = desc;
  emit(emu, run, 'run.paused');
  schedule(emu, String(run.id), 'resume', waitMs);
}

function processNext(emu: EmuCore, run: Rec, meta: RunMeta): void {
  if (run.status !== 'running') return;
  const runId = String(run.id);
  if (meta.next >= meta.tasks.length) return toUploading(emu, run);
  const squid = store.record(emu, 'squids', String(run.squid));
  const crawler = squid ? store.record(emu, 'crawlers', String(squid.crawler)) : undefined;
  if (!squid || !crawler) return fail(emu, run, 'error', 'The squid no longer exists.');
  const def = defOf(crawler);
  const taskId = meta.tasks[meta.next];
  const task = store.record(emu, 'tasks', taskId);
  const rt = runtaskOf(emu, runId, taskId);
  if (!task || !rt) {
    meta.next++;
    markRunning(emu, runId, meta);
    return schedule(emu, runId, 'task', 0);
  }
  if (def.has_issues)
    return fail(emu, run, 'error', `${def.name} is having issues on the target website; the run crashed.`, rt);
  const url = (task.params as Rec).url;
  if (typeof url === 'string' && url.toLowerCase().includes('fail'))
    return fail(emu, run, 'error', `Task ${taskId} failed: the page could not be scraped.`, rt);
  if (emu.remainingCredits() <= 0)
    return pause(
      emu,
      run,
      'no_credits_left',
      'No credits left; the run resumes when credits are available.',
      RUN_TIMING.creditCheckMs,
    );
  let account: Rec | undefined;
  if (def.account) {
    const accounts = candidateAccounts(emu, squid, def);
    if (!accounts.length)
      return fail(emu, run, 'no_accounts', `No ${def.account.type} account is linked or synchronized.`, rt);
    // An account in use by a run of another squid is locked (changelog, account health: lock_time) until it ends.
    account = accounts.find((a) => !exhausted(a) && !lockedByOther(emu, a, String(squid.id)));
    if (!account)
      return pause(
        emu,
        run,
        'no_account_available',
        'Every account reached its daily limit; the run resumes when it resets.',
        RUN_TIMING.pauseMs,
      );
  }
  collect(emu, run, def, squid, task, rt);
  if (account) {
    const c = limitCounter(account);
    if (c) c.value = Number(c.value) + 1;
    if (account.locked_by !== runId) Object.assign(account, { locked_by: runId, lock_time: isoZ(emu.clock.now()) });
  }
  meta.next++;
  markRunning(emu, runId, meta);
  if (meta.next >= meta.tasks.length) return toUploading(emu, run);
  schedule(emu, runId, 'task', RUN_TIMING.taskMs);
}

function resume(emu: EmuCore, run: Rec, meta: RunMeta): void {
  if (run.status !== 'paused') return;
  if (run.done_reason === 'no_credits_left' && emu.remainingCredits() <= 0)
    return schedule(emu, String(run.id), 'resume', RUN_TIMING.creditCheckMs);
  if (run.done_reason === 'no_account_available') {
    // The daily window of the account limits has passed: counters start again.
    for (const a of store.records(emu, 'accounts')) {
      const c = limitCounter(a);
      if (c && exhausted(a)) {
        c.value = 0;
        c.timestamp = Math.floor((emu.clock.now() + 86_400_000) / 1000);
      }
    }
  }
  run.status = 'running';
  run.done_reason = null;
  run.done_reason_desc = null;
  markRunning(emu, String(run.id), meta);
  emit(emu, run, 'run.running');
  schedule(emu, String(run.id), 'task', RUN_TIMING.taskMs);
}

function toUploading(emu: EmuCore, run: Rec): void {
  run.status = 'uploading';
  schedule(emu, String(run.id), 'finish', RUN_TIMING.finishMs);
}

function exportRun(emu: EmuCore, run: Rec): void {
  const now = naiveUs(emu.clock.now());
  run.is_done = true;
  if (!run.ended_at) run.ended_at = now;
  run.export_done = true;
  run.export_time = now;
  run.export_count = emu.resultIdsOfRun(String(run.id)).length;
}

function finish(emu: EmuCore, run: Rec): void {
  if (run.status !== 'uploading') return;
  exportRun(emu, run);
  run.status = 'done';
  run.done_reason = 'tasks_done';
  run.done_reason_desc = null;
  emu.markDirty();
  emit(emu, run, 'run.done');
  const rows = emu.resultIdsOfRun(String(run.id)).flatMap((id) => store.record(emu, 'results', id) ?? []);
  emu.events.emit('run.exported', runView(emu, run), rows);
}

function finishAbort(emu: EmuCore, run: Rec): void {
  if (run.status !== 'uploading') return;
  exportRun(emu, run);
  run.status = 'aborted';
  emu.markDirty();
}

/** The run that holds this account, when it is still active and of another squid than `squidId`. */
export function lockedByOther(emu: EmuCore, account: Rec, squidId: string): boolean {
  const run = account.locked_by ? store.record(emu, 'runs', String(account.locked_by)) : undefined;
  return !!run && run.squid !== squidId && isActive(run);
}

export function isActive(run: Rec): boolean {
  return ACTIVE_STATUSES.includes(String(run.status)) && !(run.status === 'uploading' && run.done_reason === 'aborted');
}

/** Abort: status uploading (partial results still exported), then aborted. Returns false when not abortable. */
export function abortRun(emu: EmuCore, run: Rec): boolean {
  if (!['pending', 'running', 'paused'].includes(String(run.status))) return false;
  const runId = String(run.id);
  cancel(emu, runId);
  const now = naiveUs(emu.clock.now());
  run.status = 'uploading';
  run.is_done = true;
  run.ended_at = now;
  run.export_done = null;
  run.done_reason = 'aborted';
  // The abort sample: the reason is in done_reason alone.
  run.done_reason_desc = null;
  for (const rt of store.records(emu, 'runtasks')) {
    if (rt.run === runId && (rt.status === 'pending' || rt.status === 'running')) {
      rt.status = 'aborted';
      rt.ended_at = now;
      rt.done_reason = 'run_aborted';
    }
  }
  schedule(emu, runId, 'finish_abort', RUN_TIMING.finishMs);
  return true;
}

/** Stops a run's timer for good (squid deleted). */
export function forgetRun(emu: EmuCore, runId: string): void {
  cancel(emu, runId);
  delete emu.runMeta[runId];
}

/** After loading a state file: re-arm every run that was waiting on a timer. */
export function rescheduleRuns(emu: EmuCore): void {
  for (const [runId, meta] of Object.entries(emu.runMeta)) {
    if (!meta.step || meta.dueAt === null || !store.record(emu, 'runs', runId)) continue;
    schedule(emu, runId, meta.step, Math.max(0, meta.dueAt - emu.clock.now()));
  }
}

export function clearTimers(emu: EmuCore): void {
  timersOf(emu).clear();
}
