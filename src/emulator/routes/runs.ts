// Runs: start, list, detail, stats, credits, abort, download, and their run tasks (both spellings).
import type { EmuCore } from '../emu.js';
import { abortRun, RUN_TIMING, startRun } from '../engine.js';
import { runStartRefusal } from '../model/run-start.js';
import { runCreditsView } from '../credits.js';
import { paginate } from '../pagination.js';
import { detail, errB, json, naiveSec, timedelta } from '../util.js';
import { requestExport } from '../exports.js';
import { runDetailView, runDurationMs, runsOfSquid, runtaskView, runView } from '../views.js';
import { bodyObject, findRun, findSquid, type Rec } from './common.js';
import * as store from '../model/store.js';

function runTasksOf(emu: EmuCore, runId: string): Rec[] {
  return store.records(emu, 'runtasks').filter((rt) => rt.run === runId);
}

function stats(emu: EmuCore, run: Rec): Rec {
  const rts = runTasksOf(emu, String(run.id));
  const done = rts.filter((rt) => ['completed', 'error', 'aborted'].includes(String(rt.status))).length;
  const total = rts.length;
  const pct = run.status === 'done' ? 100 : total ? Math.floor((done / total) * 100) : 0;
  const current = rts.find((rt) => rt.status === 'running');
  const left = total - done;
  // "∞" whenever there is nothing to estimate: a finished run shows it too, not 0:00:00.
  const eta =
    run.is_done || run.status === 'paused' || run.status === 'pending' ? '∞' : timedelta(left * RUN_TIMING.taskMs);
  return {
    id: run.id,
    object: 'run',
    duration: timedelta(runDurationMs(emu, run)),
    started_at: run.started_at ? String(run.started_at).slice(0, 19) : null,
    ended_at: run.ended_at ? String(run.ended_at).slice(0, 19) : null,
    is_done: run.is_done,
    percent_done: `${pct}%`,
    eta,
    total_tasks: total,
    total_tasks_done: done,
    total_tasks_left: left,
    total_results: run.total_results,
    results_total: rts.reduce((a, rt) => a + Number(rt.total_results ?? 0), 0),
    results_done: run.total_results,
    // The stats sample of a done run has null here; the service only counts requests while a run is going.
    total_requests: run.is_done || !done ? null : done * 3,
    current_task: current ? current.task : '',
    updated_at: naiveSec(emu.clock.now()),
  };
}

export function registerRuns(emu: EmuCore): void {
  const opts = () => ({ freePlan: emu.config.freePlan, style: 'errB' as const });

  emu.route('POST', '/v1/runs', (req) => {
    const f = findSquid(emu, bodyObject(req).squid);
    if (f.res) return f.res;
    const refusal = runStartRefusal(emu, f.rec);
    if (refusal) return errB(400, refusal.message, 'squid');
    const run = startRun(emu, String(f.rec.id));
    return json(200, runView(emu, run));
  });

  emu.route('GET', '/v1/runs', (req) => {
    const f = findSquid(emu, req.query.get('squid') ?? undefined);
    if (f.res) return f.res;
    return paginate(req, runsOfSquid(emu, String(f.rec.id)), (r) => runView(emu, r), opts());
  });

  emu.route('GET', '/v1/runs/:hash', (req) => {
    const f = findRun(emu, req.params.hash);
    return f.res ?? json(200, runDetailView(emu, f.rec));
  });

  emu.route('GET', '/v1/runs/:hash/stats', (req) => {
    const f = findRun(emu, req.params.hash);
    return f.res ?? json(200, stats(emu, f.rec));
  });

  emu.route('GET', '/v1/runs/:hash/credits', (req) => {
    const run = store.record(emu, 'runs', req.params.hash);
    return run ? json(200, runCreditsView(emu, run)) : detail(404, 'Run not found.');
  });

  emu.route('POST', '/v1/runs/:hash/abort', (req) => {
    const run = store.record(emu, 'runs', req.params.hash);
    if (!run || !abortRun(emu, run)) return errB(404, 'Run not found or already completed', 'run_hash');
    return json(200, runView(emu, run));
  });

  emu.route('GET', '/v1/runs/:hash/download', (req) => {
    const run = store.record(emu, 'runs', req.params.hash);
    if (!run || run.export_done !== true) return errB(404, 'Run not found or export not ready', 'run_hash');
    return requestExport(emu, run, req.query);
  });

  emu.route('GET', '/v1/runs/:hash/tasks', (req) => {
    const f = findRun(emu, req.params.hash);
    return f.res ?? paginate(req, runTasksOf(emu, String(f.rec.id)), runtaskView, opts());
  });

  emu.route('GET', '/v1/runtasks', (req) => {
    const f = findRun(emu, req.query.get('run') ?? undefined, 'run');
    return f.res ?? paginate(req, runTasksOf(emu, String(f.rec.id)), runtaskView, opts());
  });
}
