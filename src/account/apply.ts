// Applying a plan: the steps in order, each reported. A failed step does not stop the others, except those that
// need a squid whose creation failed (reported as skipped). POSTs are never retried (the HTTP module's rule), so a
// failure is reported as it is and a second apply picks up what is still missing.
import type { Ctx } from '../context.js';
import type { HttpClient } from '../api/http.js';
import { InterruptedError, SqError, UsageError } from '../errors.js';
import { confirmOrCancel } from '../io/confirm.js';
import { printPlanned, type PlannedRequest } from '../io/dry-run.js';
import { redactText } from '../output/secrets.js';
import { recordId } from '../api/resolve.js';
import { SQUIDS_PATH } from '../api/squids.js';
import { unexpectedWriteAnswer } from '../api/http-errors.js';
import type { PlanItem, Request, Step } from './diff.js';
import { itemTitle } from './render.js';

interface StepReport extends PlanItem {
  status: 'applied' | 'failed' | 'skipped';
  error?: string;
  readonly cause?: SqError;
}

const shown = (r: Request): PlannedRequest => ({
  method: r.method,
  path: r.query ? `${r.path}?${new URLSearchParams(r.query).toString()}` : r.path,
  body: r.body,
});

/**
 * Every check that can refuse, before the first write: missing secrets (exit 2), then one confirmation, asked only
 * when the HTTP client will send the writes (not under --dry-run).
 */
export async function preflight(ctx: Ctx, steps: Step[], sendsWrites: boolean): Promise<void> {
  const missing = [...new Set(steps.flatMap((s) => s.missing))];
  if (missing.length) {
    throw new UsageError(
      `environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set or empty: ` +
        'the plan sends delivery settings that need them; nothing was sent',
    );
  }
  const asks = steps.flatMap((s) => (s.confirm ? [s.confirm] : []));
  if (asks.length === 0 || !sendsWrites) return;
  for (const s of steps) if (s.item.fires_now) ctx.out.warn('usage is already above the new threshold: a reset fires as soon as the billing setting is saved, and the card on file is charged right away.');
  await confirmOrCancel(ctx, `Apply will ${asks.join('; ')}. Continue?`, 'cancelled: nothing was sent');
}

/** --dry-run: every request of every step (a new squid's id is a placeholder), as printPlanned shows requests. */
export async function printPlannedSteps(ctx: Ctx, steps: Step[]): Promise<void> {
  const reqs = steps.flatMap((s) => s.requests(s.item.id ?? `<id of new squid "${s.squid}">`)).map(shown);
  await printPlanned(ctx, reqs);
}

/** The error of a step a stop signal kept from being sent. */
export const NOT_SENT_INTERRUPTED = 'not sent: interrupted';

export async function applySteps(ctx: Ctx, http: HttpClient, steps: Step[]): Promise<StepReport[]> {
  const ids = new Map<string, string>();
  const failedSquids = new Set<string>();
  const reports: StepReport[] = [];
  const scrub = (s: string) => redactText(s, ctx.secrets());
  for (const step of steps) {
    const report: StepReport = { ...step.item, status: 'applied' };
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
          report.id = id;
          reqs = step.requests(id).slice(1);
        }
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
        // Kept out of the JSON report: the command rethrows it when it is the only item, with its own exit code.
        Object.defineProperty(report, 'cause', { value: err, enumerable: false });
        if (step.item.kind === 'squid' && step.item.action === 'create' && key !== undefined && !ids.has(key)) failedSquids.add(key);
      }
    }
    reports.push(report);
    reportLine(ctx, report);
  }
  return reports;
}

async function send(http: HttpClient, r: Request): Promise<unknown> {
  if (r.method === 'DELETE') return http.delete(r.path);
  return http.post(r.path, r.body, r.query ? { query: r.query } : {});
}

function reportLine(ctx: Ctx, r: StepReport) {
  const s = ctx.out.errStyle;
  const what = itemTitle(r);
  if (r.status === 'applied') ctx.out.info(`${s.green('✓')} ${what}`);
  else ctx.out.info(`${r.status === 'failed' ? s.red('✗') : s.dim('-')} ${what}: ${r.status}: ${r.error}`, { force: true });
}
