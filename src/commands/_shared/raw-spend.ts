// `sq api` sends what it is given, but the money rules hold for it as for every verb: a raw request that starts a run
// or can charge the card says so first, can be capped, and a card charge needs a yes.
// - POST /v1/runs (a run of the body's squid): the guard of `sq runs start` — the estimate line on stderr, the cap
//   (--max-credits, SQ_MAX_CREDITS, the profile's max-credits: exit 9, nothing sent), and a possible Auto Billing
//   Reset needs --yes off a terminal (a terminal asks).
// - POST /v1/squids/{id} that turns a schedule on (a cron on an active squid, or activating a scheduled one): the
//   guard of `sq squids update --schedule` — what each scheduled run costs, the cap, the question.
// - POST or PATCH of /v1/squids/{id}/chain (a chain starts a charged run of its target after each done run): the
//   guard of `sq squids chain set` — what the chained runs cost, the cap and the question when they start by themselves.
// - POST /v1/plans/auto-reset that can charge more than the current setting (turning it on, a lower threshold, more
//   resets, or usage already above the new threshold, which fires a reset at once): the question of
//   `sq billing auto-reset`, --yes off a terminal (without it, exit 2 and nothing sent).
// Any other request goes as it is. A body the guard cannot read as the API would (enabled: "yes") counts as the
// costlier reading.
import type { Ctx } from '../../cli/context.js';
import type { HttpClient } from '../../api/http.js';
import { AUTO_RESET_PATH, getAutoReset } from '../../api/billing.js';
import { RUNS_PATH } from '../../api/runs.js';
import { getSquid } from '../../api/squids.js';
import { getChain } from '../../api/chains.js';
import { chainCost } from '../../billing/spend.js';
import { confirmAutoResetChange } from '../../billing/auto-reset-change.js';
import { guardChain, guardSchedule, guardSpend, spendPolicy } from '../../billing/guard.js';
import { scheduleAfter } from './schedule-after.js';

/** A squid's own path: POST there updates it. */
const SQUID_PATH = /^\/v1\/squids\/([^/]+)$/;
/** A squid's chain: POST creates it, PATCH changes its settings. */
const CHAIN_PATH = /^\/v1\/squids\/([^/]+)\/chain$/;

/** Whether `sq api` can spend with `method` on `endpoint`: what --max-credits applies to. */
export function spendingEndpoint(method: string, endpoint: string): boolean {
  if (method === 'PATCH') return CHAIN_PATH.test(endpoint);
  return method === 'POST' && (endpoint === RUNS_PATH || SQUID_PATH.test(endpoint) || CHAIN_PATH.test(endpoint));
}

type Fields = Record<string, unknown>;

/** Before `sq api` sends `method` to `endpoint` (its path without query or trailing slash) with `body`: the guard a
 * request that spends needs, or nothing. */
export async function guardRawWrite(
  ctx: Ctx,
  http: HttpClient,
  method: string,
  endpoint: string,
  body: unknown,
  maxCredits: string | undefined,
): Promise<void> {
  const fields: Fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Fields) : {};
  const chain = CHAIN_PATH.exec(endpoint);
  const squid = SQUID_PATH.exec(endpoint);
  if (chain && (method === 'POST' || method === 'PATCH'))
    await rawChain(ctx, http, method, decodeURIComponent(chain[1]), fields, maxCredits);
  else if (method !== 'POST') return;
  else if (endpoint === RUNS_PATH) await rawRun(ctx, http, fields, maxCredits);
  else if (squid) await rawSchedule(ctx, http, decodeURIComponent(squid[1]), fields, maxCredits);
  else if (endpoint === AUTO_RESET_PATH) await rawAutoReset(ctx, http, fields);
}

/** POST /v1/runs: the guard of `sq runs start`. */
async function rawRun(ctx: Ctx, http: HttpClient, fields: Fields, maxCredits: string | undefined): Promise<void> {
  const squid = fields.squid;
  // No squid, no run: the API refuses the request (400) and nothing is spent.
  if (squid === undefined || squid === null || squid === '') return;
  await guardSpend(ctx, http, String(squid), await spendPolicy(ctx, maxCredits));
}

/** POST /v1/squids/{id}: the guard of `sq squids update --schedule` when the update turns a schedule on. */
async function rawSchedule(
  ctx: Ctx,
  http: HttpClient,
  id: string,
  fields: Fields,
  maxCredits: string | undefined,
): Promise<void> {
  if (!['cron_expression', 'timezone', 'is_active'].some((k) => fields[k] !== undefined)) return;
  // is_active: anything but false may be read as true by the API: the costlier reading.
  const body = fields.is_active === undefined || fields.is_active === false ? fields : { ...fields, is_active: true };
  const turnsOn = scheduleAfter(await getSquid(http, id), body);
  if (!turnsOn) return;
  await guardSchedule(ctx, http, id, await spendPolicy(ctx, maxCredits), turnsOn, id);
  if (fields.params !== undefined)
    ctx.out.warn(
      "the estimate is of the squid's parameters before this request, which changes them: `sq squids estimate` gives the new one",
    );
}

/** POST (a new chain) or PATCH (a change) of /v1/squids/{id}/chain: the guard of `sq squids chain set`. */
async function rawChain(
  ctx: Ctx,
  http: HttpClient,
  method: string,
  id: string,
  fields: Fields,
  maxCredits: string | undefined,
): Promise<void> {
  // A new chain's target squid is made on the first done run: its crawler's rate is what can be said. A change
  // keeps the chain's target, with the autostart the body gives.
  const existing = method === 'PATCH' ? await getChain(http, id) : null;
  // No chain to change: the API refuses the PATCH (404) and nothing starts.
  if (method === 'PATCH' && !existing) return;
  const cost = existing
    ? await chainCost(http, { ...existing, ...(fields.autostart !== undefined ? { autostart: fields.autostart } : {}) })
    : await chainCost(http, {
        autostart: fields.autostart,
        target_cluster: null,
        target_module: { id: fields.target_module_id },
      });
  await guardChain(ctx, cost, await spendPolicy(ctx, maxCredits), id);
}

/** POST /v1/plans/auto-reset: the question of `sq billing auto-reset` when it can charge more than today's setting. */
async function rawAutoReset(ctx: Ctx, http: HttpClient, fields: Fields): Promise<void> {
  const before = await getAutoReset(http);
  const number = (v: unknown, was: number) => (v === undefined || !Number.isFinite(Number(v)) ? was : Number(v));
  const after = {
    enabled: fields.enabled === undefined ? before.enabled === true : fields.enabled !== false,
    threshold_pct: number(fields.threshold_pct, before.threshold_pct),
    max_resets_per_24h: number(fields.max_resets_per_24h, before.max_resets_per_24h),
  };
  // Off a terminal the refusal says what the yes is for, not only that one is needed.
  const what = (firesNow: boolean) =>
    `POST ${AUTO_RESET_PATH} turns on or raises automatic billing resets (threshold ${after.threshold_pct}%, up to ` +
    `${after.max_resets_per_24h} per 24 h): each reset charges the card on file${firesNow ? ', and one fires now' : ''}`;
  await confirmAutoResetChange(ctx, before, after, {
    question: (firesNow) => `Send it? ${what(firesNow)}.`,
    refusal: (firesNow) => `${what(firesNow)}; nothing was sent: pass --yes to send it`,
  });
}
