// The plan: what differs between the file and the live account, field by field, in the order apply sends it
// (squids, then tasks, then delivery, then chains, then deletions, billing last). Only fields the file names are managed.
import { UsageError, refuseProblems } from '../errors.js';
import { recordId } from '../api/resolve.js';
import { SQUIDS_PATH, squidPath, withLiveParams } from '../api/squids.js';
import { TASKS_PATH, taskBatches, taskPath } from '../api/tasks.js';
import { DELIVERY_PATH, storedDelivery, storedEvents, type Channel, type DeliveryBody } from '../api/delivery.js';
import { diffDelivery, type DiffContext } from './delivery-diff.js';
import { RUN_EVENTS } from '../api/events.js';
import { MASK } from '../lib/secrets.js';
import { SECRET_FIELDS, type AppliedState } from './applied.js';
import { located, pathOf, type Desired, type DesiredSquid } from './file.js';
import type { Rec } from '../lib/guards.js';
import type { Account, Crawler, Squid, Task } from '../api/records.js';
import {
  desiredCrawler,
  linkedAccounts,
  matchAccount,
  matchCrawler,
  type Live,
  type LiveSquid,
  liveSchedule,
} from './state.js';
import { unknownSquidParams } from '../api/crawlers.js';
import { crawlerAccountType } from '../api/account-links.js';
import { chainStep } from './chain.js';
import { billingStep, pruneSteps } from './account-steps.js';
import { canonicalTimeZone } from '../api/cron.js';
import type { Change, PlanItem, Request, Step } from './step.js';

export type { Change, PlanItem, Request, ScheduledRun, Step } from './step.js';

/** A delivery channel that matches the file in every field that could be compared, with secrets that could not be. */
export interface Uncompared {
  kind: 'delivery';
  squid: string;
  id: string | null;
  channel: Channel;
  not_compared: string[];
}

export interface Plan {
  version: 1;
  summary: { create: number; update: number; delete: number };
  items: PlanItem[];
  /** Not changes (apply sends nothing for them), but the file and the account may still differ there. */
  not_compared: Uncompared[];
}

const CHANNEL_KEY: Record<Channel, string | null> = {
  sftp: 'ftp_fields',
  webhook: 'webhook_fields',
  sheet: 'google_sheet_fields',
  s3: 's3_fields',
  email: null,
};

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as Rec);
  const kb = Object.keys(b as Rec);
  return ka.length === kb.length && ka.every((k) => same((a as Rec)[k], (b as Rec)[k]));
}

const notifyOf = (r: Squid): string => {
  const v = (r.notifications_params as Rec | undefined)?.run_notify;
  return v === 'on_success' || v === 'on_error' ? v : 'none';
};

/** The accounts a squid links: the ids the file's references name, and the ids linked now. */
interface Links {
  want: string[];
  have: string[];
}

/** The squid fields of the file against the record: changes for the plan, and the update body (API names). */
function squidChanges(want: DesiredSquid, live: Squid | null, links?: Links): { changes: Change[]; body: Rec } {
  const s = want.spec;
  const changes: Change[] = [];
  const body: Rec = {};
  const field = (name: string, to: unknown, from: unknown, apiKey: string, apiValue: unknown = to) => {
    if (to === undefined || (live && same(to, from))) return;
    changes.push({ field: name, from: live ? (from ?? null) : null, to });
    body[apiKey] = apiValue;
  };
  field('active', s.active, live?.is_active, 'is_active');
  field('concurrency', s.concurrency, live?.concurrency, 'concurrency');
  if (s.schedule !== undefined) {
    // The zone as the API's list spells it (europe/paris: Europe/Paris), as `squids update --timezone` sends it.
    const zone = s.schedule?.timezone ?? 'UTC';
    const to =
      s.schedule === null
        ? null
        : { cron: s.schedule.cron.trim().split(/\s+/).join(' '), timezone: canonicalTimeZone(zone) ?? zone };
    const from = live ? liveSchedule(live) : null;
    if (!same(to, from) && (live || to)) {
      changes.push({ field: 'schedule', from: live ? from : null, to });
      if (to) Object.assign(body, { cron_expression: to.cron, timezone: to.timezone });
      else body.cron_expression = null;
    }
  }
  if (s.notify !== undefined)
    field('notify', s.notify, live ? notifyOf(live) : undefined, 'run_notify', s.notify === 'none' ? null : s.notify);
  field('unique_results', s.unique_results, live?.export_unique_results, 'export_unique_results');
  if (s.params) {
    const have = (live?.params ?? {}) as Rec;
    const params: Rec = {};
    for (const [k, v] of Object.entries(s.params)) {
      if (k === 'functions' && v && typeof v === 'object' && !Array.isArray(v)) {
        const fns: Rec = {};
        const haveFns = (have.functions ?? {}) as Rec;
        for (const [f, on] of Object.entries(v as Rec)) {
          if (live && same(on, haveFns[f])) continue;
          changes.push({ field: `params.functions.${f}`, from: live ? (haveFns[f] ?? null) : null, to: on });
          fns[f] = on;
        }
        if (Object.keys(fns).length) params.functions = fns;
        continue;
      }
      if (live && same(v, have[k])) continue;
      changes.push({ field: `params.${k}`, from: live ? (have[k] ?? null) : null, to: v });
      params[k] = v;
    }
    // The API replaces params whole: an update carries the live params with the file's changes laid over them (a
    // new squid's are laid over its defaults by apply, once it exists).
    if (Object.keys(params).length) body.params = live ? withLiveParams(live.params, params) : params;
  }
  // Compared as sets: the order of the file's list means nothing to the service.
  if (links && (!live || !same(links.want, links.have)) && (live || links.want.length)) {
    changes.push({ field: 'accounts', from: live ? links.have : null, to: links.want });
    body.accounts = links.want;
  }
  return { changes, body };
}

/**
 * The schedule that starts firing once this squid item is applied: the item sets a schedule or turns the squid on,
 * and afterwards the squid is active with a schedule. null when it turns nothing on.
 */
function scheduleOn(
  want: DesiredSquid,
  live: Squid | null,
  changes: Change[],
): { cron: string; timezone: string } | null {
  const touched = changes.some(
    (c) => (c.field === 'schedule' && c.to !== null) || (c.field === 'active' && c.to === true),
  );
  if (!touched) return null;
  if (!(want.spec.active ?? (live ? live.is_active !== false : true))) return null;
  const s = want.spec.schedule;
  if (s === null) return null;
  if (s !== undefined) return { cron: s.cron.trim().split(/\s+/).join(' '), timezone: s.timezone ?? 'UTC' };
  return live ? liveSchedule(live) : null;
}

/** The update body less what turns a schedule on (cron_expression, timezone, is_active: true): sent later by apply. */
function splitSchedule(body: Rec): { now: Rec; later: Rec } {
  const now: Rec = { ...body };
  const later: Rec = {};
  for (const k of ['cron_expression', 'timezone']) {
    if (k in now) {
      later[k] = now[k];
      delete now[k];
    }
  }
  if (now.is_active === true) {
    later.is_active = true;
    delete now.is_active;
  }
  return { now, later };
}

/** Why an account cannot serve the crawler's squid (its type is not the crawler's account_type), as the CLI says it. */
function wrongType(account: Account, crawler: Crawler | undefined): string | null {
  if (!crawler) return null;
  const want = crawlerAccountType(crawler);
  const type = typeof account.type === 'string' ? account.type : '';
  const who = `account ${String(account.username ?? recordId(account))} (${recordId(account)})`;
  const name = JSON.stringify(String(crawler.name ?? recordId(crawler)));
  if (!want) return `crawler ${name} uses no platform account, so ${who} of type ${type} cannot be linked`;
  return type === want ? null : `${who} is of type ${type}, but crawler ${name} needs a ${want} account`;
}

/** The file's account references as sorted ids; each one that names no account, or several, is a problem. */
function accountLinks(
  s: DesiredSquid,
  live: Live,
  squidId: string | null,
  problems: string[],
  locate: Desired['locate'],
): Links | undefined {
  if (s.spec.accounts === undefined) return undefined;
  const ids = new Set<string>();
  const crawlerId = desiredCrawler(s, live.matched.get(s.ref), live.crawlers);
  const crawler = crawlerId === undefined ? undefined : live.accountCrawlers.get(crawlerId);
  s.spec.accounts.forEach((ref, i) => {
    const at = ['squids', s.ref, 'accounts', i];
    const hit = matchAccount(ref, live.accounts);
    if (hit === undefined)
      problems.push(
        located(
          locate(at),
          `${pathOf(at)}: no account has the id, username or id prefix ${JSON.stringify(ref)} (see \`sq accounts list\`)`,
        ),
      );
    else if (Array.isArray(hit))
      problems.push(
        located(
          locate(at),
          `${pathOf(at)}: ${JSON.stringify(ref)} names ${hit.length} accounts (${hit.map(recordId).join(', ')}); use the full id`,
        ),
      );
    else {
      ids.add(recordId(hit));
      const problem = wrongType(hit, crawler);
      if (problem) problems.push(located(locate(at), `${pathOf(at)}: ${problem}`));
    }
  });
  return { want: [...ids].sort(), have: squidId === null ? [] : linkedAccounts(live.accounts, squidId) };
}

/** A task of the file is present when every parameter it names has the same value on a live task (null: none). */
function taskMatches(want: Rec, live: Task): boolean {
  const p = (live.params ?? {}) as Rec;
  const none = (x: unknown) => x === undefined || x === null;
  return Object.entries(want).every(([k, v]) => (none(v) ? none(p[k]) : !none(p[k]) && String(p[k]) === String(v)));
}

const byUrl = new WeakMap<Task[], Map<string, Task[]>>();

/** The live tasks that can match: those with the same URL when the task has one (lists of thousands stay fast). */
function candidates(want: Rec, live: Task[]): Task[] {
  if (want.url === undefined) return live;
  let index = byUrl.get(live);
  if (!index) {
    index = new Map();
    for (const l of live) {
      const u = String(((l.params ?? {}) as Rec).url ?? '');
      index.set(u, [...(index.get(u) ?? []), l]);
    }
    byUrl.set(live, index);
  }
  return index.get(String(want.url)) ?? [];
}

/** How a task is shown: its URL, or its parameters. */
export function taskValue(params: Rec): unknown {
  const keys = Object.keys(params);
  return keys.length === 1 && keys[0] === 'url' ? params.url : params;
}

/**
 * The stored URL as the plan shows it, when the file's URL takes values from \${NAME}: what the stored URL has where the
 * file has a \${NAME} is a token (the old one, after a rotation, which no known secret masks), so it is masked; a stored
 * URL that does not fit the file's shape is masked whole.
 */
function maskAsWritten(stored: unknown, written: string): unknown {
  if (typeof stored !== 'string') return stored;
  const parts = written.split(/\$\{[A-Za-z_][A-Za-z0-9_]*\}/);
  const literal = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`^${parts.map(literal).join('(.*?)')}$`, 's').exec(stored);
  if (!m) return MASK;
  return parts.map((p, i) => (i > 0 && m[i] ? MASK : '') + p).join('');
}

/**
 * The plan of one channel. `written`: its URL as the file writes it, when that takes a \${NAME} (see maskAsWritten).
 * `known`: what sq last applied and what --assume-unchanged says, for the fields the service does not read back.
 */
export function deliveryChanges(
  body: DeliveryBody,
  channel: Channel,
  record: Squid | null,
  written?: string,
  known: DiffContext = {},
): { changes: Change[]; unverified: string[]; unreadable: string[]; create: boolean } {
  const stored = storedDelivery(record ?? {});
  const key = CHANNEL_KEY[channel];
  const want = (key ? (body as Rec)[key] : body) as Rec;
  const have = (
    key ? (stored as unknown as Rec)[key] : { email: stored.email, notifications: stored.notifications }
  ) as Rec | null;
  const diff = diffDelivery(body, stored, known);
  // A channel wanted inactive matches one the service reports not configured (is_active false, or null).
  const create = key !== null && !have && want.is_active !== false;
  const fields = create
    ? Object.keys(want).flatMap((f) => (f === 'events' ? RUN_EVENTS.map((e) => `events.${e}`) : [f]))
    : diff.fields;
  const events = have ? storedEvents(have) : null;
  const value = (obj: Rec | null, f: string, isHave: boolean): unknown => {
    if (isHave && f in diff.from) return diff.from[f];
    if (!obj) return null;
    if (f.startsWith('events.')) return (isHave ? events : (obj.events as Rec))?.[f.slice(7) as never] ?? null;
    if (isHave && f === 'url' && written !== undefined) return maskAsWritten(obj[f] ?? null, written);
    return obj[f] ?? null;
  };
  const changes = fields
    .filter((f) => !(create && want[f] === undefined && !f.startsWith('events.')))
    .map((f) => {
      const from = create || diff.unreadable.includes(f) ? null : SECRET_FIELDS.has(f) ? MASK : value(have, f, true);
      return { field: f, from, to: SECRET_FIELDS.has(f) ? MASK : value(want, f, false) };
    });
  return { changes, unverified: create ? [] : diff.unverified, unreadable: create ? [] : diff.unreadable, create };
}

function refusesCrawlerChange(want: DesiredSquid, live: LiveSquid, crawlers: Crawler[]): void {
  if (want.spec.crawler === undefined) return;
  const c = matchCrawler(want.spec.crawler, crawlers);
  const have = String(live.record.crawler ?? '');
  if (c && recordId(c) !== have) {
    throw new UsageError(
      `${pathOf(['squids', want.ref, 'crawler'])}: the squid runs on crawler ${JSON.stringify(String(live.record.crawler_name ?? have))}; ` +
        "a squid's crawler cannot change (give the new squid another name, or delete this one)",
    );
  }
}

export interface PlanOptions {
  /** `sq delivery apply`: squids are only found, never created (a missing one is a problem of the file). */
  findOnly?: boolean;
  /** `sq delivery apply --force`: a channel that matches is sent anyway, as an update with no changes. */
  force?: boolean;
  /** What sq last applied of the fields the service does not read back (absent: nothing remembered). */
  applied?: AppliedState;
  /** --assume-unchanged: whether a field of a channel that cannot be read back is taken as unchanged. */
  assumed?: (channel: Channel, field: string) => boolean;
}

export function makePlan(want: Desired, live: Live, opts: PlanOptions = {}): { plan: Plan; steps: Step[] } {
  const squidSteps: Step[] = [];
  const taskSteps: Step[] = [];
  const deliverySteps: Step[] = [];
  const chainSteps: Step[] = [];
  const uncompared: Uncompared[] = [];
  const problems: string[] = [];

  for (const s of want.squids) {
    const have = live.matched.get(s.ref) ?? null;
    const id = have?.id ?? null;
    const who = have?.name || s.ref;
    problems.push(...unknownParams(s, have, want, live));
    if (have) {
      refusesCrawlerChange(s, have, live.crawlers);
      const update = squidUpdateStep(s, have, want, live, problems);
      if (update) squidSteps.push(update);
    } else {
      // A squid that cannot be created is a problem of the file; nothing else of it is planned.
      const create = squidCreateStep(s, want, live, opts, problems);
      if (!create) continue;
      squidSteps.push(create);
    }
    taskSteps.push(...tasksSteps(s, have, who, id, want.prune));
    deliverySteps.push(...channelSteps(s, have, who, id, opts, uncompared));
    // `sq delivery apply` (findOnly) manages delivery only.
    const chain = opts.findOnly ? undefined : chainStep(s, have, who, live.crawlers, problems);
    if (chain) chainSteps.push(chain);
  }
  refuseProblems(problems, 'invalid account file: ');
  const deleteSteps = want.prune && want.managesSquids ? pruneSteps(live) : [];
  const billing = want.billing && live.autoReset ? billingStep(want.billing, live.autoReset) : undefined;

  const steps = [
    ...squidSteps,
    ...taskSteps,
    ...deliverySteps,
    ...chainSteps,
    ...deleteSteps,
    ...(billing ? [billing] : []),
  ];
  const count = (a: PlanItem['action']) => steps.filter((s) => s.item.action === a).length;
  return {
    plan: {
      version: 1,
      summary: { create: count('create'), update: count('update'), delete: count('delete') },
      items: steps.map((s) => s.item),
      not_compared: uncompared,
    },
    steps,
  };
}

/** The file's params keys the squid's crawler does not declare, each located in the file. */
function unknownParams(s: DesiredSquid, have: LiveSquid | null, want: Desired, live: Live): string[] {
  const crawler = s.spec.params ? desiredCrawler(s, have ?? undefined, live.crawlers) : undefined;
  const declared = crawler === undefined ? undefined : live.crawlerParams.get(crawler);
  if (!s.spec.params || !declared) return [];
  const shown = JSON.stringify(String(have?.record.crawler_name ?? s.spec.crawler ?? crawler));
  const at = (k: string) => [
    'squids',
    s.ref,
    'params',
    ...(k.startsWith('functions.') ? ['functions', k.slice(10)] : [k]),
  ];
  return unknownSquidParams(s.spec.params, declared, (k) => located(want.locate(at(k)), pathOf(at(k))), shown);
}

/** A squid the account does not have: created with the file's fields, or (no crawler to create it from) a problem. */
function squidCreateStep(
  s: DesiredSquid,
  want: Desired,
  live: Live,
  opts: PlanOptions,
  problems: string[],
): Step | undefined {
  const crawler = s.spec.crawler === undefined ? undefined : matchCrawler(s.spec.crawler, live.crawlers);
  if (opts.findOnly) {
    problems.push(
      `${pathOf(['squids', s.ref])}: no squid of this account has this name, hash or hash prefix (see \`sq squids list\`)`,
    );
    return undefined;
  }
  if (s.spec.crawler === undefined) {
    problems.push(`${pathOf(['squids', s.ref])}: no squid of this account is named so; add "crawler:" to create it`);
    return undefined;
  }
  if (!crawler) {
    problems.push(
      `${pathOf(['squids', s.ref, 'crawler'])}: no crawler has the id, name or slug ${JSON.stringify(s.spec.crawler)} (see \`sq crawlers list\`)`,
    );
    return undefined;
  }
  const { changes, body: whole } = squidChanges(s, null, accountLinks(s, live, null, problems, want.locate));
  const create = { crawler: recordId(crawler), name: s.ref };
  const on = scheduleOn(s, null, changes);
  const { now: body, later } = on ? splitSchedule(whole) : { now: whole, later: {} };
  return {
    item: {
      kind: 'squid',
      action: 'create',
      squid: s.ref,
      id: null,
      changes: [{ field: 'crawler', from: null, to: s.spec.crawler }, ...changes],
    },
    squid: s.ref,
    missing: [],
    // The create itself is sent by apply (it yields the id); these are what follows it, once the id is known.
    requests: (sid) => [
      { method: 'POST', path: SQUIDS_PATH, body: create },
      ...(Object.keys(body).length && sid ? [{ method: 'POST' as const, path: squidPath(sid), body }] : []),
    ],
    ...(on
      ? { schedule: { on, later: (sid: string) => ({ method: 'POST' as const, path: squidPath(sid), body: later }) } }
      : {}),
  };
}

/** A squid the account has: its fields the file sets otherwise, if any. */
function squidUpdateStep(
  s: DesiredSquid,
  have: LiveSquid,
  want: Desired,
  live: Live,
  problems: string[],
): Step | undefined {
  const { changes, body: whole } = squidChanges(s, have.record, accountLinks(s, live, have.id, problems, want.locate));
  if (!changes.length) return undefined;
  const on = scheduleOn(s, have.record, changes);
  const { now: body, later } = on ? splitSchedule(whole) : { now: whole, later: {} };
  return {
    item: { kind: 'squid', action: 'update', squid: have.name || s.ref, id: have.id, changes },
    squid: s.ref,
    missing: [],
    requests: (sid) => (Object.keys(body).length ? [{ method: 'POST', path: squidPath(sid), body }] : []),
    ...(on
      ? { schedule: { on, later: (sid: string) => ({ method: 'POST' as const, path: squidPath(sid), body: later }) } }
      : {}),
  };
}

/** The file's tasks the squid lacks, added in batches; with prune, its tasks the file does not list, deleted. */
function tasksSteps(s: DesiredSquid, have: LiveSquid | null, who: string, id: string | null, prune: boolean): Step[] {
  if (!s.tasks) return [];
  const steps: Step[] = [];
  const liveTasks = have?.tasks ?? [];
  const matched = new Set<Task>();
  const add = s.tasks.filter((t) => {
    const hits = candidates(t, liveTasks).filter((l) => taskMatches(t, l));
    for (const h of hits) matched.add(h);
    return hits.length === 0;
  });
  const del = prune ? liveTasks.filter((l) => !matched.has(l)) : [];
  if (add.length) {
    steps.push({
      item: { kind: 'tasks', action: 'create', squid: who, id, changes: [], add: add.map(taskValue) },
      squid: s.ref,
      missing: [],
      requests: (sid) => {
        const out: Request[] = [];
        for (const batch of taskBatches(add))
          out.push({ method: 'POST', path: TASKS_PATH, body: { squid: sid, tasks: batch } });
        return out;
      },
    });
  }
  if (del.length) {
    const gone = del.map((t) => ({ id: recordId(t), value: taskValue((t.params ?? {}) as Rec) }));
    steps.push({
      item: { kind: 'tasks', action: 'delete', squid: who, id, changes: [], delete: gone },
      squid: s.ref,
      missing: [],
      confirm: `delete ${gone.length} task${gone.length === 1 ? '' : 's'} of squid "${who}"`,
      requests: () => gone.map((t) => ({ method: 'DELETE', path: taskPath(t.id) })),
    });
  }
  return steps;
}

/** The squid's delivery channels that differ from the file (or all, with --force); those equal but for secrets are noted. */
function channelSteps(
  s: DesiredSquid,
  have: LiveSquid | null,
  who: string,
  id: string | null,
  opts: PlanOptions,
  uncompared: Uncompared[],
): Step[] {
  const steps: Step[] = [];
  for (const ch of s.channels) {
    const known: DiffContext = {
      memory: id ? opts.applied?.memory(id, ch.channel) : undefined,
      assumed: (f) => opts.assumed?.(ch.channel, f) ?? false,
    };
    const d = deliveryChanges(ch.body, ch.channel, have?.record ?? null, ch.written, known);
    const notCompared = [
      ...d.unverified,
      ...ch.missing.map((m) => `${m.path.split('.').pop()} (\${${m.name}} is not set)`),
    ];
    if (!d.create && d.changes.length === 0 && !opts.force) {
      if (notCompared.length)
        uncompared.push({ kind: 'delivery', squid: who, id, channel: ch.channel, not_compared: notCompared });
      continue;
    }
    steps.push({
      item: {
        kind: 'delivery',
        action: d.create ? 'create' : 'update',
        squid: who,
        id,
        channel: ch.channel,
        changes: d.changes,
        ...(notCompared.length ? { not_compared: notCompared } : {}),
        ...(d.unreadable.length ? { unreadable: d.unreadable } : {}),
      },
      squid: s.ref,
      missing: ch.missing.map((m) => m.name),
      delivery: ch.body,
      requests: (sid) => [{ method: 'POST', path: DELIVERY_PATH, query: { squid: sid }, body: ch.body }],
    });
  }
  return steps;
}
