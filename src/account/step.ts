// What a plan is made of: the items it reports and the steps apply runs (diff.ts builds them; chain.ts adds the
// chain's). A leaf module, so the step builders do not import each other.
import type { Channel, DeliveryBody } from '../api/delivery.js';

export interface Change {
  field: string;
  from: unknown;
  to: unknown;
}

export interface PlanItem {
  kind: 'squid' | 'tasks' | 'delivery' | 'billing' | 'chain';
  action: 'create' | 'update' | 'delete';
  /** The squid's key in the file (its name); absent for billing. */
  squid?: string;
  /** The squid's id; null while it is still to be created. */
  id?: string | null;
  channel?: Channel;
  changes: Change[];
  /** Tasks: the values to add and the tasks to delete (prune). */
  add?: unknown[];
  delete?: { id: string; value: unknown }[];
  /** Fields not compared: their variable is not set, or --assume-unchanged names them. */
  not_compared?: string[];
  /** Delivery: fields the service does not read back and sq never applied here; sent as the file has them. */
  unreadable?: string[];
  /** Billing: usage is above the new threshold, so a reset (and a charge) fires as soon as it is saved. */
  fires_now?: boolean;
  /** Squids: the schedule this item turns on (the platform then starts runs, each charged) and what one run costs. */
  scheduled_run?: ScheduledRun;
}

/** What each run of a schedule an item turns on costs (sq plan, sq apply). */
export interface ScheduledRun {
  /** In words, with its zone: "Mondays at 09:00 Europe/Paris". */
  schedule: string;
  /** The next run (UTC, ISO), or null when none within 5 years. */
  next_run: string | null;
  /** One run's estimate now (POST /v1/squid/estimate); null when there is none yet (see note). */
  credits_per_run: number | null;
  /** Why there is no estimate, or what it does not include yet. */
  note: string | null;
}

export interface Request {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

/** One step of apply: the item it reports, and the requests, built once the squid's id is known. */
export interface Step {
  item: PlanItem;
  /** The file key of the squid whose id the requests need (filled in by a create earlier in the same apply). */
  squid?: string;
  requests(id: string): Request[];
  /** Delivery: the body sent, remembered once applied (src/account/applied.ts). */
  delivery?: DeliveryBody;
  /** Environment variables this step needs but that are not set. */
  missing: string[];
  /** Whether this step can charge the card (billing) or deletes something: apply asks first. */
  confirm?: string;
  /**
   * Squids whose item turns a schedule on: the schedule, and the request that turns it on, which apply sends after
   * the squid's params and tasks, once one run's estimate is known and within the cap (src/billing/guard.ts).
   */
  schedule?: { on: { cron: string; timezone: string }; later(id: string): Request };
  /**
   * A chain step that leaves the chain starting runs of its target by itself (autostart): the chain as chainCost
   * (billing/spend.ts) reads it, for the cap and the confirmation before the write, as `sq squids chain set` has them.
   */
  chain?: {
    autostart: true;
    target_cluster: { id?: unknown; name?: unknown } | null;
    target_module: { id: string; name?: unknown };
  };
}
