// The one apply engine of `sq apply` and `sq delivery apply` (apply limited to delivery): the plan shown first, one
// question (or --yes), then the steps in order, each reported. A failed step does not stop the others, except those
// that need a squid whose creation failed (reported as skipped). POSTs are never retried (the HTTP module's rule), so
// a failure is reported as it is and a second apply picks up what is still missing.
import type { Ctx } from '../cli/context.js';
import type { HttpClient } from '../api/http.js';
import {
  CancelledError,
  InterruptedError,
  interruptedBatch,
  OverBudgetError,
  PartialFailureError,
  SqError,
  UsageError,
} from '../errors.js';
import { guardChain, guardSchedule, type SpendPolicy } from '../billing/guard.js';
import { chainCost } from '../billing/spend.js';
import { printPlanned } from '../cli/dry-run.js';
import { maskSecrets, redactText } from '../lib/secrets.js';
import { recordId } from '../api/resolve.js';
import { SQUIDS_PATH, squidPath, withLiveParams } from '../api/squids.js';
import { unexpectedWriteAnswer } from '../api/http-errors.js';
import type { Plan, Request, Step } from './diff.js';
import { itemTitle, planText } from './render.js';
import type { AppliedState } from './applied.js';
import type { DeliveryBody } from '../api/delivery.js';
import { asCodeDocument, shownRequests, type ItemOutcome } from './document.js';

interface StepReport extends ItemOutcome {
  readonly cause?: SqError;
}

/** Every check that can refuse before anything is shown or asked: environment variables the plan needs (exit 2). */
function refuseMissingSecrets(steps: Step[]): void {
  const missing = [...new Set(steps.flatMap((s) => s.missing))];
  if (missing.length) {
    throw new UsageError(
      `environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set or empty: ` +
        'the plan sends delivery settings that need them; nothing was sent',
    );
  }
}

/**
 * The plan has been shown; now the one question. --yes: no question. On a terminal: "Apply these N changes?".
 * Without a terminal: the items that need --yes (deletions, a billing change that can charge more) are named and
 * nothing is sent (exit 2); a plan without such items goes ahead, as a CI step expects.
 */
async function confirmPlan(ctx: Ctx, steps: Step[]): Promise<void> {
  for (const s of steps)
    if (s.item.fires_now)
      ctx.out.warn(
        'usage is already above the new threshold: a reset fires as soon as the billing setting is saved, and the card on file is charged right away.',
      );
  if (ctx.globals.yes) return;
  const asks = steps.flatMap((s) => (s.confirm ? [s.confirm] : []));
  if (!ctx.canPrompt()) {
    if (asks.length === 0) return;
    throw new UsageError(
      `the plan has changes that need --yes: ${asks.join('; ')}. Nothing was sent; pass --yes to apply it`,
    );
  }
  const n = steps.length;
  const question = `Apply ${n === 1 ? 'this change' : `these ${n} changes`}${asks.length ? ` (${asks.join('; ')})` : ''}?`;
  const ok = await (await ctx.prompter()).confirm(question, { default: false, flag: '--yes' });
  if (!ok) throw new CancelledError('cancelled: nothing was sent');
}

/** The error of a step a stop signal kept from being sent. */
export const NOT_SENT_INTERRUPTED = 'not sent: interrupted';

async function applySteps(
  ctx: Ctx,
  http: HttpClient,
  steps: Step[],
  policy: SpendPolicy,
  applied?: AppliedState,
): Promise<StepReport[]> {
  const ids = new Map<string, string>();
  const failedSquids = new Set<string>();
  const reports: StepReport[] = [];
  const scrub = (s: string) => redactText(s, ctx.secrets());
  // Schedules to turn on once their squids' params and tasks are in: one run's estimate is then that of the runs the
  // schedule starts, and the cap and the question come before the write (src/billing/guard.ts).
  const deferred: Deferred[] = [];
  const turnOn = () => turnOnSchedules(ctx, http, policy, deferred.splice(0), scrub);
  for (const step of steps) {
    if (step.item.kind !== 'squid' && step.item.kind !== 'tasks') await turnOn();
    const report: StepReport = { status: 'applied' };
    const key = step.squid;
    if (ctx.signal.aborted) {
      // A stop signal: nothing more is sent, and the report says which changes were not.
      report.status = 'skipped';
      report.error = NOT_SENT_INTERRUPTED;
    } else if (key !== undefined && failedSquids.has(key)) {
      report.status = 'skipped';
      report.error = `squid "${key}" was not created`;
    } else {
      let sent = 0;
      try {
        let id = step.item.id ?? (key !== undefined ? ids.get(key) : undefined) ?? '';
        let reqs = step.requests(id);
        if (step.item.kind === 'squid' && step.item.action === 'create') {
          const created = await send(http, reqs[0]);
          sent++;
          id = recordId((created ?? {}) as Record<string, unknown>);
          // Without an id the squid may or may not exist: ambiguous, and nothing is sent for squid ''.
          if (!id) throw unexpectedWriteAnswer('POST', SQUIDS_PATH, 'the id of the new squid');
          ids.set(key!, id);
          // The params update replaces them whole: the file's are laid over the new squid's defaults.
          const defaults = (created as Record<string, unknown> | null)?.params;
          reqs = step
            .requests(id)
            .slice(1)
            .map((r) =>
              r.path === squidPath(id) && isParamsBody(r.body)
                ? { ...r, body: { ...r.body, params: withLiveParams(defaults, r.body.params) } }
                : r,
            );
        }
        if (id && step.item.id == null) report.id = id;
        if (step.chain) await guardChainStep(ctx, http, step.chain, policy, step.item.squid ?? id);
        for (const r of reqs) {
          await send(http, r);
          sent++;
        }
      } catch (err) {
        if (!(err instanceof SqError)) throw err;
        // Stopped before its first request went out: not sent. A write in flight may have reached the service: failed.
        const unsent = err instanceof InterruptedError && sent === 0;
        report.status = unsent ? 'skipped' : 'failed';
        report.error = unsent ? NOT_SENT_INTERRUPTED : scrub(err.message);
        // Kept out of the JSON document: the command rethrows it when it is the only item, with its own exit code.
        Object.defineProperty(report, 'cause', { value: err, enumerable: false });
        if (step.item.kind === 'squid' && step.item.action === 'create' && key !== undefined && !ids.has(key))
          failedSquids.add(key);
      }
    }
    reports.push(report);
    reportLine(ctx, step, report);
    const sid = step.item.id ?? (step.squid !== undefined ? ids.get(step.squid) : undefined);
    if (step.delivery && report.status === 'applied' && sid) remember(ctx, applied, sid, step.delivery);
    if (step.schedule && report.status === 'applied' && sid) deferred.push({ step, report, id: sid });
  }
  await turnOn();
  return reports;
}

type Deferred = { step: Step; report: StepReport; id: string };

/** The schedules deferred until their squids' params and tasks were in: each estimated, capped and asked, then sent. */
async function turnOnSchedules(
  ctx: Ctx,
  http: HttpClient,
  policy: SpendPolicy,
  deferred: Deferred[],
  scrub: (s: string) => string,
): Promise<void> {
  for (const { step, report, id } of deferred) {
    if (ctx.signal.aborted) {
      report.status = 'skipped';
      report.error = NOT_SENT_INTERRUPTED;
      continue;
    }
    try {
      await guardSchedule(ctx, http, id, policy, step.schedule!.on, step.item.squid ?? id);
      await send(http, step.schedule!.later(id));
      ctx.out.info(`${ctx.out.errStyle.green('✓')} turn on the schedule of squid "${step.item.squid ?? id}"`);
    } catch (err) {
      if (!(err instanceof SqError)) throw err;
      report.status = 'failed';
      report.error = `${scrub(err.message)}; its other changes were applied`;
      Object.defineProperty(report, 'cause', { value: err, enumerable: false, configurable: true });
      ctx.out.info(
        `${ctx.out.errStyle.red('✗')} turn on the schedule of squid "${step.item.squid ?? id}": failed: ${report.error}`,
        { force: true },
      );
    }
  }
}

/** A chain that starts its target's runs: the cost, the cap and the question before it is written (as `squids chain set`). */
async function guardChainStep(
  ctx: Ctx,
  http: HttpClient,
  chain: NonNullable<Step['chain']>,
  policy: SpendPolicy,
  squid: string,
): Promise<void> {
  await guardChain(ctx, await chainCost(http, chain), policy, `squid ${squid}`);
}

/**
 * What was sent to a channel, kept for the next plan at once (a later step may fail: what the service stores now is
 * what was sent); a state file that cannot be written is said, never fatal.
 */
function remember(ctx: Ctx, applied: AppliedState | undefined, id: string, body: DeliveryBody): void {
  if (!applied) return;
  applied.remember(id, body);
  try {
    applied.save();
  } catch (err) {
    ctx.out.warn(
      `could not keep what was applied in ${applied.file} (${(err as Error).message}): the next plan sends the fields the API does not read back again`,
    );
  }
}

async function send(http: HttpClient, r: Request): Promise<unknown> {
  if (r.method === 'DELETE') return http.delete(r.path);
  if (r.method === 'PATCH') return (await http.request('PATCH', r.path, { body: r.body })).data;
  return http.post(r.path, r.body, r.query ? { query: r.query } : {});
}

function reportLine(ctx: Ctx, step: Step, r: StepReport) {
  const s = ctx.out.errStyle;
  const what = itemTitle(step.item);
  if (r.status === 'applied') ctx.out.info(`${s.green('✓')} ${what}`);
  else
    ctx.out.info(`${r.status === 'failed' ? s.red('✗') : s.dim('-')} ${what}: ${r.status}: ${r.error}`, {
      force: true,
    });
}

/**
 * `sq apply` and `sq delivery apply`: the plan, then (unless a dry run) the question and the writes. Text: the plan
 * and a line per item on stderr. --json: the as-code document (src/account/document.ts) on stdout, the same shape
 * for 0, 1 or N changes. Exit 0 when every item was applied, 8 when some failed, the error's own code when the only
 * item failed.
 */
export async function runApply(
  ctx: Ctx,
  http: HttpClient,
  plan: Plan,
  steps: Step[],
  policy: SpendPolicy = { cap: null, capFrom: '', confirmAbove: 100 },
  applied?: AppliedState,
): Promise<void> {
  const json = ctx.out.spec.json === 'document';
  const mask = <T>(v: T): T => maskSecrets(v, ctx.globals.showSecrets, ctx.secrets()) as T;
  const shownPlan = planText(mask(plan)).trimEnd();
  if (steps.length === 0) {
    // dry_run says whether this was a dry run: an apply with nothing to send is not one.
    if (json) await ctx.out.json(mask(asCodeDocument(plan, steps, http.sendsWrites ? [] : undefined)));
    // Secrets that could not be compared are said, as sq plan says them: a channel left as it is is not a match.
    if (plan.not_compared.length) ctx.out.info(`${shownPlan}\nNothing was sent.`);
    else ctx.out.info('No changes: the account matches the file; nothing was sent.');
    return;
  }
  refuseMissingSecrets(steps);
  if (!http.sendsWrites) {
    if (json) {
      await ctx.out.json(mask(asCodeDocument(plan, steps)));
      ctx.out.info('Dry run: nothing was sent.');
    } else {
      ctx.out.info(shownPlan);
      await printPlanned(
        ctx,
        steps.flatMap((s) => shownRequests(s, s.item.id)),
      );
    }
    return;
  }
  // The plan before the question (and in a CI log before the writes), like `terraform apply`.
  ctx.out.info(shownPlan);
  await confirmPlan(ctx, steps);
  const reports = await applySteps(ctx, http, steps, policy, applied);
  if (json) await ctx.out.json(mask(asCodeDocument(plan, steps, reports)));
  const n = (st: string) => reports.filter((r) => r.status === st).length;
  const bad = reports.flatMap((r, i) => (r.status === 'applied' ? [] : [{ r, step: steps[i] }]));
  if (bad.length === 0) {
    ctx.out.success(`Applied ${reports.length} change${reports.length === 1 ? '' : 's'}`);
    return;
  }
  const details = bad.map(
    ({ r, step: { item: i } }) =>
      `  ${r.status}: ${i.kind}${i.channel ? ` ${i.channel}` : ''}${i.squid ? ` of "${i.squid}"` : ''}: ${r.error}`,
  );
  if (ctx.signal.aborted) {
    const unsent = reports.filter((r) => r.error === NOT_SENT_INTERRUPTED).length;
    const summary =
      `${n('applied')} of ${reports.length} changes applied, ${n('failed')} failed, ${unsent} not ` +
      `sent${n('skipped') > unsent ? `, ${n('skipped') - unsent} skipped` : ''}; running it again ` +
      `sends what is still missing`;
    throw interruptedBatch(ctx.signal.reason, summary, details);
  }
  // A schedule refused by the cap is the cap's exit code (9), whatever else was applied.
  const over = bad.find(({ r }) => r.cause instanceof OverBudgetError);
  if (over)
    throw new OverBudgetError(
      `over budget: ${bad.length} of ${reports.length} changes not (all) applied; ${over.r.error}`,
      { details },
    );
  const only = reports.length === 1 ? bad[0].r.cause : undefined;
  if (only) {
    only.message = bad[0].r.error ?? only.message;
    throw only;
  }
  throw new PartialFailureError(
    `${n('failed')} of ${reports.length} changes failed${n('skipped') ? `, ${n('skipped')} skipped` : ''}; ${n('applied')} applied`,
    { details },
  );
}

function isParamsBody(body: unknown): body is { params: Record<string, unknown> } {
  const p = body && typeof body === 'object' ? (body as Record<string, unknown>).params : undefined;
  return !!p && typeof p === 'object' && !Array.isArray(p);
}
