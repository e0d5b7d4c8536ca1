// The control plane under /_emulator (no auth, no rate limits, no faults): clock, reset, request log,
// faults, config, and bulk generation of a finished run for benchmarks.
import { creditsPerRow } from '../collect.js';
import { recordCharge } from '../credits.js';
import { defOf } from '../crawlers.js';
import type { EmuCore } from '../emu.js';
import { type Faults, validateRules } from '../faults.js';
import { refusedLaunches } from '../model/launches.js';
import type { RateLimiter } from '../ratelimit.js';
import type { RequestLog } from '../requestlog.js';
import { runRecord } from '../records.js';
import { generateRowFields } from '../rows.js';
import { detail, isRecord, json, naiveUs } from '../util.js';
import { runView } from '../views.js';
import { bodyObject, type Rec } from './common.js';
import * as store from '../model/store.js';

interface ControlDeps {
  faults: Faults;
  log: RequestLog;
  limiter: RateLimiter;
  reset(): Promise<void>;
}

const MAX_GENERATE = 1_000_000;

function clockBody(emu: EmuCore): Rec {
  const now = emu.clock.now();
  return { mode: emu.clock.mode, now: new Date(now).toISOString(), now_ms: now };
}

function generate(emu: EmuCore, squid: Rec, count: number): Rec {
  const crawler = store.crawlerOf(emu, squid.crawler);
  const def = defOf(crawler);
  const now = emu.clock.now();
  const id = emu.newHash('run');
  const tasks = store.records(emu, 'tasks').filter((t) => t.squid === squid.id);
  const fields = generateRowFields(
    {
      def,
      squidParams: (squid.params ?? {}) as Rec,
      squid: String(squid.id),
      run: id,
      task: null,
      basis: `generate:${id}`,
      scrapingTimeMs: now,
    },
    count,
  );
  if (tasks.length) fields.forEach((f, i) => (f.task = tasks[i % tasks.length].id));
  emu.addResults(fields, def.result_id ?? 'hash');
  const at = naiveUs(now);
  const run = runRecord(id, String(squid.id), at, {
    is_done: true,
    ended_at: at,
    credit_used: count * creditsPerRow(def, (squid.params ?? {}) as Rec),
    status: 'done',
    export_done: true,
    export_count: count,
    export_time: at,
    total_results: count,
    total_unique_results: count,
    done_reason: 'tasks_done',
  });
  store.putRecord(emu, 'runs', run);
  recordCharge(emu, id, def, (squid.params ?? {}) as Rec, count);
  emu.markDirty();
  return run;
}

export function registerControl(emu: EmuCore, deps: ControlDeps): void {
  emu.route('GET', '/_emulator/clock', () => json(200, clockBody(emu)));
  emu.route('POST', '/_emulator/clock/advance', async (req) => {
    if (emu.clock.mode !== 'virtual')
      return detail(400, 'The clock is real: start the emulator with --clock virtual to move time.');
    const ms = bodyObject(req).ms;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return detail(400, 'ms must be a number >= 0.');
    await emu.clock.advance(ms);
    return json(200, clockBody(emu));
  });

  emu.route('POST', '/_emulator/reset', async () => {
    await deps.reset();
    return json(200, { reset: true, ...clockBody(emu) });
  });

  emu.route('GET', '/_emulator/requests', () => json(200, deps.log.list()));
  emu.route('DELETE', '/_emulator/requests', () => {
    deps.log.clear();
    return json(200, { cleared: true });
  });

  emu.route('GET', '/_emulator/faults', () => json(200, deps.faults.list()));
  emu.route('PUT', '/_emulator/faults', (req) => {
    const v = validateRules(req.body);
    if (typeof v === 'string') return detail(400, v);
    deps.faults.set(v.seed, v.rules);
    return json(200, deps.faults.list());
  });
  emu.route('DELETE', '/_emulator/faults', () => {
    deps.faults.clear();
    return json(200, deps.faults.list());
  });

  emu.route('GET', '/_emulator/config', () => json(200, emu.config));
  emu.route('POST', '/_emulator/config', (req) => {
    const b = bodyObject(req);
    if (b.freePlan !== undefined && typeof b.freePlan !== 'boolean') return detail(400, 'freePlan must be a boolean.');
    const rl = b.rateLimits;
    if (rl !== undefined && rl !== 'on' && rl !== 'off' && !(typeof rl === 'number' && rl > 0 && Number.isFinite(rl)))
      return detail(400, 'rateLimits must be "on", "off" or a positive number.');
    if (typeof b.freePlan === 'boolean') emu.config.freePlan = b.freePlan;
    if (rl !== undefined) {
      emu.config.rateLimits = rl as EmuCore['config']['rateLimits'];
      deps.limiter.setting = emu.config.rateLimits;
      deps.limiter.clear();
    }
    return json(200, emu.config);
  });

  // The plan's slots (SlotsLimitExceeded past them): tests that need many squids raise it, slot tests lower it.
  emu.route('POST', '/_emulator/slots', (req) => {
    const total = bodyObject(req).total;
    if (typeof total !== 'number' || !Number.isInteger(total) || total < 0 || total > 100_000)
      return detail(400, 'total must be an integer from 0 to 100000.');
    store.updateBalance(emu, { total_available_slots: total });
    return json(200, { total_available_slots: total });
  });

  // Launches a schedule or a chain could not make, with the run-start rule's refusal (model/launches.ts).
  emu.route('GET', '/_emulator/launches', () => json(200, refusedLaunches(emu)));

  emu.route('POST', '/_emulator/generate', (req) => {
    const b = bodyObject(req);
    if (!isRecord(req.body) || typeof b.squid !== 'string') return detail(400, 'squid (a squid hash) is required.');
    const squid = store.record(emu, 'squids', b.squid);
    if (!squid) return detail(404, 'Squid not found.');
    const n = b.results;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_GENERATE)
      return detail(400, `results must be an integer from 0 to ${MAX_GENERATE}.`);
    return json(200, runView(emu, generate(emu, squid, n)));
  });
}
