// Squid chains (api-reference §8): when a run of the source squid ends done, its results become tasks of a target
// squid (created on the first fire) through `field_map`, and a run of it starts (origin "chain"). The chain pages
// answer errors as `{error: "<text>"}`, unlike the squid pages.
import type { EmuCore } from '../emu.js';
import { startRun } from '../engine.js';
import { recordRefusedLaunch } from '../model/launches.js';
import { runStartRefusal } from '../model/run-start.js';
import { slotsProblem } from '../model/slots.js';
import { runRecord } from '../records.js';
import { newSquid, newTask } from '../seed.js';
import { isoZ, isRecord, json, naiveUs, paramsKey } from '../util.js';
import { chainView } from '../views.js';
import { bodyObject, MAX_CONCURRENCY, type Rec } from './common.js';
import { type ChainRecord, paramsOf } from '../model/records.js';
import * as store from '../model/store.js';

/** Squids in one chain, the first source included: the link that would make a fourth is refused. */
const MAX_DEPTH = 3;
const NO_CHAIN = 'No chain configured on this squid.';

const err = (status: number, error: string) => json(status, { error });

/** Links above this squid: 0 for a squid no chain created. */
function depthOf(emu: EmuCore, squid: Rec): number {
  let depth = 0;
  for (let s: Rec | undefined = squid; s?.chained_from && depth <= MAX_DEPTH; depth++)
    s = store.record(emu, 'squids', String(s.chained_from));
  return depth;
}

type Settings = Partial<Pick<ChainRecord, 'autostart' | 'cluster_name' | 'cluster_concurrency'>>;
type Checked = { ok: true; value: Settings } | { ok: false; error: string };

/** The settings an update may carry (api-reference: autostart, cluster_name, cluster_concurrency). */
const SETTINGS = ['autostart', 'cluster_name', 'cluster_concurrency'];
/** A create takes the target and the field map besides. */
const CREATE = ['target_module_id', 'field_map', ...SETTINGS];

/** The settings a create or an update may carry, every one optional here; a field it does not take is refused. */
function settings(b: Rec, allowed: string[]): Checked {
  const unknown = Object.keys(b).find((k) => !allowed.includes(k));
  if (unknown !== undefined) return { ok: false, error: `Unknown field "${unknown}"; allowed: ${allowed.join(', ')}.` };
  const value: Settings = {};
  if (b.autostart !== undefined) {
    if (typeof b.autostart !== 'boolean') return { ok: false, error: 'autostart must be a boolean.' };
    value.autostart = b.autostart;
  }
  if (b.cluster_name !== undefined) {
    if (b.cluster_name !== null && (typeof b.cluster_name !== 'string' || !b.cluster_name.trim()))
      return { ok: false, error: 'cluster_name must be a non-empty string or null.' };
    value.cluster_name = typeof b.cluster_name === 'string' ? b.cluster_name.trim() : null;
  }
  if (b.cluster_concurrency !== undefined) {
    const c = b.cluster_concurrency;
    if (c !== null && (typeof c !== 'number' || !Number.isInteger(c) || c < 1 || c > MAX_CONCURRENCY))
      return { ok: false, error: `cluster_concurrency must be an integer between 1 and ${MAX_CONCURRENCY}.` };
    value.cluster_concurrency = c;
  }
  return { ok: true, value };
}

export function registerChains(emu: EmuCore): void {
  const source = (hash: string) => store.record(emu, 'squids', hash);

  emu.route('GET', '/v1/squids/:hash/chain', (req) => {
    const s = source(req.params.hash);
    if (!s) return err(404, 'Squid not found.');
    // No chain is a 200 whose body is null, not a 404.
    return json(200, isRecord(s.chain) ? chainView(emu, s.chain) : null);
  });

  emu.route('POST', '/v1/squids/:hash/chain', (req) => {
    const s = source(req.params.hash);
    if (!s) return err(404, 'Squid not found.');
    const b = bodyObject(req);
    if (!isRecord(b.field_map) || Object.values(b.field_map).some((v) => typeof v !== 'string'))
      return err(400, 'field_map is required and must be a dict.');
    if (typeof b.target_module_id !== 'string' || !b.target_module_id) return err(400, 'target_module_id is required.');
    if (!store.record(emu, 'crawlers', b.target_module_id)) return err(404, 'Target module not found.');
    const set = settings(b, CREATE);
    if (!set.ok) return err(400, set.error);
    if (isRecord(s.chain)) return err(409, 'This squid already has a chain configured.');
    // The squids above the source, the source and the target it gets.
    if (depthOf(emu, s) + 2 > MAX_DEPTH) return err(422, `Chain depth limit of ${MAX_DEPTH} reached.`);
    const chain = store.updateRecord(emu, 'squids', s.id, {
      chain: {
        id: emu.newHash('chain'),
        target_module_id: b.target_module_id,
        target_cluster: null,
        field_map: b.field_map as Record<string, string>,
        is_active: true,
        autostart: true,
        cluster_name: null,
        cluster_concurrency: 1,
        created_at: isoZ(emu.clock.now()),
        ...set.value,
      },
    }).chain;
    return json(201, chainView(emu, chain as Rec));
  });

  emu.route('PATCH', '/v1/squids/:hash/chain', (req) => {
    const s = source(req.params.hash);
    if (!s) return err(404, 'Squid not found.');
    if (!isRecord(s.chain)) return err(404, NO_CHAIN);
    const set = settings(bodyObject(req), SETTINGS);
    if (!set.ok) return err(400, set.error);
    // A new concurrency applies to the target squid already created too, so raising it past the plan's slots is
    // refused as raising any active squid's concurrency is (changelog, "slots": SlotsLimitExceeded).
    const target = s.chain.target_cluster ? store.record(emu, 'squids', String(s.chain.target_cluster)) : undefined;
    const conc = set.value.cluster_concurrency;
    if (target && typeof conc === 'number' && target.is_active !== false && conc > Number(target.concurrency ?? 1)) {
      const problem = slotsProblem(emu, conc, String(target.id));
      if (problem) return err(400, problem);
    }
    const { chain } = store.updateRecord(emu, 'squids', s.id, { chain: { ...s.chain, ...set.value } });
    if (target && typeof conc === 'number') store.updateRecord(emu, 'squids', target.id, { concurrency: conc });
    return json(200, chainView(emu, chain as Rec));
  });

  emu.route('DELETE', '/v1/squids/:hash/chain', (req) => {
    const s = source(req.params.hash);
    if (!s) return err(404, 'Squid not found.');
    if (!isRecord(s.chain)) return err(404, NO_CHAIN);
    // Only the link goes: the target squid, its tasks and runs stay.
    store.updateRecord(emu, 'squids', s.id, { chain: undefined });
    return { status: 204 };
  });
}

/** A run of `run.squid` ended done with these rows: feed its chain, if any. */
export function fireChain(emu: EmuCore, run: Rec, rows: Rec[]): void {
  const src = store.record(emu, 'squids', String(run.squid));
  const chain = src?.chain;
  if (!src || !isRecord(chain) || chain.is_active !== true) return;
  const crawler = store.record(emu, 'crawlers', String(chain.target_module_id));
  if (!crawler) return;
  let target = chain.target_cluster ? store.record(emu, 'squids', String(chain.target_cluster)) : undefined;
  const now = emu.clock.now();
  if (!target) {
    const concurrency = Number(chain.cluster_concurrency ?? 1);
    // Creating a squid past the plan's slots fails (changelog, "slots": SlotsLimitExceeded), and an inactive squid
    // holds none: with no slot left the target is created inactive, so the results still become its tasks (nothing
    // is lost) and no run starts until it is activated, which needs a slot like any activation. (Inferred: the docs
    // do not say what a first fire does with no slot left.)
    const full = slotsProblem(emu, concurrency) !== null;
    target = newSquid(
      emu,
      crawler,
      uniqueName(emu, chain.cluster_name ? String(chain.cluster_name) : `${String(crawler.name)} (N) (chained)`),
      now,
    );
    const made = { concurrency, chained_from: src.id, ...(full ? { is_active: false } : {}) };
    target = store.updateRecord(emu, 'squids', target.id, made);
    store.updateRecord(emu, 'squids', src.id, { chain: { ...chain, target_cluster: target.id } });
  }
  const known = new Set(
    store
      .records(emu, 'tasks')
      .filter((t) => t.squid === target.id)
      .map((t) => paramsKey(t.params as Rec)),
  );
  for (const row of rows) {
    const params: Rec = {};
    for (const [from, to] of Object.entries(chain.field_map as Record<string, string>)) {
      if (row[from] !== undefined && row[from] !== null && row[from] !== '') params[to] = row[from];
    }
    const key = paramsKey(params);
    if (Object.keys(params).length === 0 || known.has(key)) continue;
    known.add(key);
    newTask(emu, target, paramsOf(params), now);
  }
  emu.markDirty();
  // The run-start rule decides, as for POST /v1/runs and a schedule: an inactive, not ready, out of credits or out of
  // slots target takes the tasks but does not run, neither an autostarted run nor a queued one; the refusal is kept.
  const refusal = runStartRefusal(emu, target);
  if (refusal) {
    recordRefusedLaunch(emu, String(target.id), 'chain', refusal);
    return;
  }
  if (chain.autostart !== false) {
    startRun(emu, String(target.id), 'chain');
    return;
  }
  // autostart off: the downstream run is created paused, its tasks queued; it does not move on its own.
  const id = emu.newHash('run');
  store.putRecord(emu, 'runs', runRecord(id, target.id, naiveUs(now), { origin: 'chain', status: 'paused' }));
  const tasks = store
    .records(emu, 'tasks')
    .filter((t) => t.squid === target.id)
    .map((t) => String(t.id));
  emu.runMeta[id] = { tasks, next: 0, dueAt: null, step: null };
}

function uniqueName(emu: EmuCore, pattern: string): string {
  const taken = new Set(store.records(emu, 'squids').map((s) => String(s.name).toLowerCase()));
  if (!pattern.includes('(N)')) {
    if (!taken.has(pattern.toLowerCase())) return pattern;
    pattern = `${pattern} (N)`;
  }
  for (let n = 1; ; n++) {
    const name = pattern.replace('(N)', `(${n})`);
    if (!taken.has(name.toLowerCase())) return name;
  }
}
