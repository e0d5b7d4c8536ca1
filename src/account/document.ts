// The as-code document: what `sq plan --json`, `sq apply --json` (with --dry-run or not) and `sq delivery apply
// --json` print. One shape whatever the number of changes (0, 1 or N) and whatever the command, so a script reads
// `.summary`, `.items[]` and `.not_compared[]` the same way everywhere. Every item has every key (null or [] where
// it does not apply). schema/sq-plan.schema.json is generated from the zod schema below (npm run schema).
import * as z from 'zod/mini';
import type { PlannedRequest } from '../errors.js';
import type { Plan, PlanItem, Step, Uncompared } from './diff.js';

const d = <T extends z.ZodMiniType>(schema: T, text: string): T => schema.check(z.describe(text)) as T;
const change = z.strictObject({ field: z.string(), from: z.unknown(), to: z.unknown() });
const request = z.strictObject({ method: z.enum(['POST', 'PATCH', 'DELETE']), path: z.string(), body: z.unknown() });

const itemSchema = z.strictObject({
  kind: z.enum(['squid', 'tasks', 'delivery', 'billing', 'chain']),
  action: z.enum(['create', 'update', 'delete']),
  squid: d(z.nullable(z.string()), 'the squid as the file names it (or its live name); null for billing'),
  id: d(z.nullable(z.string()), "the squid's id; null while it is still to be created, and for billing"),
  channel: d(
    z.nullable(z.enum(['sftp', 'webhook', 'email', 'sheet', 's3'])),
    'delivery items: the channel; null otherwise',
  ),
  changes: d(z.array(change), 'field by field: from (null on create) and to; secrets are ********'),
  add: d(z.array(z.unknown()), 'tasks to add (a URL, or the parameters)'),
  delete: d(z.array(z.strictObject({ id: z.string(), value: z.unknown() })), 'tasks to delete (prune: true)'),
  not_compared: d(
    z.array(z.string()),
    'fields of this item not compared: their ${ENV} is not set, or --assume-unchanged names them',
  ),
  unreadable: d(
    z.array(z.string()),
    'delivery: fields the API does not read back and sq never applied here (see `sq plan --help`): sent as the file has them',
  ),
  fires_now: d(
    z.nullable(z.boolean()),
    'billing: a reset (and a charge) fires as soon as this is saved; null otherwise',
  ),
  needs_yes: d(
    z.nullable(z.string()),
    'why apply asks before this item (a deletion, a billing change that can charge more); null when it does not',
  ),
  scheduled_run: d(
    z.nullable(
      z.strictObject({
        schedule: d(z.string(), 'the schedule in words, with its time zone'),
        next_run: d(z.nullable(z.string()), 'the next run, UTC (ISO 8601); null when none within 5 years'),
        credits_per_run: d(
          z.nullable(z.number()),
          "one run's estimate now (POST /v1/squid/estimate); null when there is none yet",
        ),
        note: d(z.nullable(z.string()), 'why there is no estimate, or what it leaves out'),
      }),
    ),
    "squids: the schedule this item turns on (the platform then starts runs, each charged) and one run's cost; null otherwise",
  ),
  status: d(
    z.enum(['planned', 'applied', 'failed', 'skipped']),
    'planned: nothing was sent (plan, dry run); else what apply did',
  ),
  error: d(z.nullable(z.string()), 'why the item failed or was skipped'),
  requests: d(z.array(request), "the requests the item sends (a new squid's id is a placeholder until it exists)"),
});

const uncomparedSchema = z.strictObject({
  kind: z.literal('delivery'),
  squid: z.string(),
  id: z.nullable(z.string()),
  channel: z.enum(['sftp', 'webhook', 'email', 'sheet', 's3']),
  not_compared: z.array(z.string()),
});

const count = z.number().check(z.int(), z.minimum(0));

export const documentSchema = z.strictObject({
  version: d(z.literal(1), 'the version of this document; a change that breaks scripts gets a new one'),
  dry_run: d(z.boolean(), 'true: nothing was sent (sq plan, --dry-run); false: apply sent the items'),
  summary: z.strictObject({
    create: count,
    update: count,
    delete: count,
    applied: count,
    failed: count,
    skipped: count,
    not_compared: d(count, 'channels left as they are whose secrets could not be compared'),
  }),
  items: d(z.array(itemSchema), 'the changes, in the order apply sends them'),
  not_compared: d(
    z.array(uncomparedSchema),
    'channels otherwise unchanged whose secrets could not be compared: nothing is sent for them',
  ),
});

export type AsCodeItem = z.infer<typeof itemSchema>;
export type AsCodeDocument = z.infer<typeof documentSchema>;

/** What apply did with one item; absent while it is only planned. */
export interface ItemOutcome {
  status: 'applied' | 'failed' | 'skipped';
  error?: string;
  /** The id apply learnt (a squid it created). */
  id?: string;
}

const PENDING = 'pending-squid-id';

/** A step's requests as shown; a squid not created yet has no id, so `<id of new squid "name">` stands where it goes. */
export function shownRequests(
  step: Step,
  id: string | null | undefined,
): (PlannedRequest & { method: 'POST' | 'PATCH' | 'DELETE'; body: unknown })[] {
  const shown = id ?? `<id of new squid "${step.squid}">`;
  const all = [...step.requests(id ?? PENDING), ...(step.schedule ? [step.schedule.later(id ?? PENDING)] : [])];
  return all.map((r) => {
    const query =
      r.query &&
      new URLSearchParams(
        Object.entries(r.query).map(([k, v]): [string, string] => [k, v === PENDING ? shown : v]),
      ).toString();
    return {
      method: r.method,
      path: `${id ? r.path : r.path.replace(PENDING, shown)}${query ? `?${query}` : ''}`,
      body: r.body ?? null,
    };
  });
}

function item(step: Step, outcome?: ItemOutcome): AsCodeItem {
  const i: PlanItem = step.item;
  const id = outcome?.id ?? i.id ?? null;
  return {
    kind: i.kind,
    action: i.action,
    squid: i.squid ?? null,
    id,
    channel: i.channel ?? null,
    changes: i.changes,
    add: i.add ?? [],
    delete: i.delete ?? [],
    not_compared: i.not_compared ?? [],
    unreadable: i.unreadable ?? [],
    fires_now: i.fires_now ?? null,
    needs_yes: step.confirm ?? null,
    scheduled_run: i.scheduled_run ?? null,
    status: outcome?.status ?? 'planned',
    error: outcome?.error ?? null,
    requests: shownRequests(step, id),
  };
}

/**
 * The document of a plan (outcomes absent: nothing was sent) or of an apply (one outcome per step, in order). The
 * caller masks secrets (maskSecrets) before printing, as for any output.
 */
export function asCodeDocument(plan: Plan, steps: Step[], outcomes?: ItemOutcome[]): AsCodeDocument {
  const items = steps.map((s, i) => item(s, outcomes?.[i]));
  const n = (st: AsCodeItem['status']) => items.filter((i) => i.status === st).length;
  return {
    version: 1,
    dry_run: outcomes === undefined,
    summary: {
      ...plan.summary,
      applied: n('applied'),
      failed: n('failed'),
      skipped: n('skipped'),
      not_compared: plan.not_compared.length,
    },
    items,
    not_compared: plan.not_compared.map((u: Uncompared) => ({
      kind: u.kind,
      squid: u.squid,
      id: u.id,
      channel: u.channel,
      not_compared: u.not_compared,
    })),
  };
}

/** The JSON Schema shipped as schema/sq-plan.schema.json. */
export function documentJsonSchema(): Record<string, unknown> {
  const js = z.toJSONSchema(documentSchema, { io: 'output' }) as Record<string, unknown>;
  return { ...js, title: 'sq plan / apply / delivery apply --json document' };
}
