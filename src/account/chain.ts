// The `chain:` of a squid in the account file, planned against the chain its live record carries (GET /v1/squids/{id}
// includes `chain` when one is set, so no request of its own). The API changes only the settings of a chain in place
// (PATCH: autostart, name and concurrency of the target); another target crawler or field map replaces it (DELETE,
// then POST). `chain: null` removes it; no `chain:` key leaves it as it is.
import { recordId } from '../api/resolve.js';
import { chainPath, sameFieldMap, type ChainCreate, type ChainUpdate } from '../api/chains.js';
import { isRecord, type Rec } from '../lib/guards.js';
import { pathOf, type DesiredSquid } from './file.js';
import type { Crawler } from '../api/records.js';
import type { ChainSpec } from './schema.js';
import type { Change, Request, Step } from './step.js';
import { matchCrawler, type LiveSquid } from './state.js';

/** The live chain as the file writes it (target by slug when the crawler list has it), for the plan and export. */
export function chainEntry(live: Rec, crawlers: Crawler[]): ChainSpec {
  const module = (isRecord(live.target_module) ? live.target_module : {}) as Rec;
  const crawler = crawlers.find((c) => recordId(c) === module.id);
  const out: ChainSpec = {
    target_crawler: String(crawler?.slug ?? module.name ?? module.id ?? ''),
    field_map: (isRecord(live.field_map) ? live.field_map : {}) as Record<string, string>,
    autostart: live.autostart !== false,
  };
  if (typeof live.cluster_name === 'string') out.target_name = live.cluster_name;
  if (typeof live.cluster_concurrency === 'number') out.target_concurrency = live.cluster_concurrency;
  return out;
}

/** The settings the file names that differ from the live chain (all of them when there is none), as API fields. */
function settings(want: ChainSpec, live: Rec | null): { changes: Change[]; body: ChainUpdate } {
  const changes: Change[] = [];
  const body: ChainUpdate = {};
  const field = <K extends keyof ChainUpdate>(name: string, to: ChainUpdate[K] | undefined, apiKey: K) => {
    const from = live ? (live[apiKey] ?? null) : null;
    if (to === undefined || (live && from === to)) return;
    changes.push({ field: name, from, to });
    body[apiKey] = to;
  };
  field('autostart', want.autostart, 'autostart');
  field('target_name', want.target_name, 'cluster_name');
  field('target_concurrency', want.target_concurrency, 'cluster_concurrency');
  return { changes, body };
}

/** What a step says of a chain that starts its target's runs, for the spend check of `sq apply`. */
function startsRuns(target_cluster: Rec | null, id: string, name: unknown) {
  return { chain: { autostart: true as const, target_cluster, target_module: { id, name } } };
}

/** `chain: null` over a live chain: its DELETE. */
function deleteStep(ref: string, base: { kind: 'chain'; squid: string; id: string | null }, from: unknown): Step {
  return {
    item: { ...base, action: 'delete', changes: [{ field: 'target_crawler', from, to: null }] },
    squid: ref,
    missing: [],
    requests: (sid) => [{ method: 'DELETE', path: chainPath(sid) }],
  };
}

/** The step for one squid's `chain:`, or none when it matches (or the file does not name it). */
export function chainStep(
  s: DesiredSquid,
  have: LiveSquid | null,
  who: string,
  crawlers: Crawler[],
  problems: string[],
): Step | undefined {
  const want = s.spec.chain;
  if (want === undefined) return undefined;
  const id = have?.id ?? null;
  const live = have && isRecord(have.record.chain) ? (have.record.chain as Rec) : null;
  const liveEntry = live ? chainEntry(live, crawlers) : null;
  const base = { kind: 'chain' as const, squid: who, id };
  if (want === null) return live ? deleteStep(s.ref, base, liveEntry!.target_crawler) : undefined;
  const crawler = matchCrawler(want.target_crawler, crawlers);
  if (!crawler) {
    problems.push(
      `${pathOf(['squids', s.ref, 'chain', 'target_crawler'])}: no crawler has the id, name or slug ${JSON.stringify(want.target_crawler)} ` +
        `(see \`sq crawlers list\`)`,
    );
    return undefined;
  }
  const target = recordId(crawler);
  const module = live && isRecord(live.target_module) ? (live.target_module as Rec) : null;
  const replace = live !== null && (module?.id !== target || !sameFieldMap(want.field_map, liveEntry!.field_map));
  // A new chain, or one replaced: every setting the file names goes with the POST.
  const { changes, body } = settings(want, replace ? null : live);
  const create: ChainCreate = { target_module_id: target, field_map: want.field_map, ...body };
  if (!live || replace) {
    const head: Change[] = [];
    if (!live || module?.id !== target)
      head.push({ field: 'target_crawler', from: liveEntry?.target_crawler ?? null, to: want.target_crawler });
    if (!live || !sameFieldMap(want.field_map, liveEntry!.field_map))
      head.push({ field: 'field_map', from: liveEntry?.field_map ?? null, to: want.field_map });
    const requests = (sid: string): Request[] => [
      ...(replace ? [{ method: 'DELETE' as const, path: chainPath(sid) }] : []),
      { method: 'POST', path: chainPath(sid), body: create },
    ];
    // A new chain's target squid is made on its first done run: no estimate before then (the rate a row is said).
    const chain = want.autostart !== false ? startsRuns(null, target, crawler.name) : {};
    return {
      item: { ...base, action: replace ? 'update' : 'create', changes: [...head, ...changes] },
      squid: s.ref,
      missing: [],
      requests,
      ...chain,
    };
  }
  if (changes.length === 0) return undefined;
  // The chain still starts its target's runs after the update: checked as `sq squids chain set` checks it.
  const on = (want.autostart ?? live?.autostart) !== false;
  const chain = on
    ? startsRuns(isRecord(live?.target_cluster) ? (live.target_cluster as Rec) : null, target, crawler.name)
    : {};
  return {
    item: { ...base, action: 'update', changes },
    squid: s.ref,
    missing: [],
    requests: (sid) => [{ method: 'PATCH', path: chainPath(sid), body }],
    ...chain,
  };
}
