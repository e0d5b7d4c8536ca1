// The account file of `sq plan`, `sq apply` and `sq delivery apply`: read, checked and planned against the live
// account, and the help those verbs share about it.

import type { OptionSpec } from '../cli/command.js';
import type { Ctx } from '../cli/context.js';
import { required } from '../validate/index.js';
import { loadAccountFile, type Desired } from './file.js';
import { matchCrawler, readLive, type Live } from './state.js';
import { makePlan, type PlanOptions, type Step } from './diff.js';
import type { HttpClient } from '../api/http.js';
import { getEstimate } from '../api/estimate.js';
import { ApiError } from '../errors.js';
import { fmtCredits } from '../billing/describe.js';
import { describeCron, nextRun, parseCron } from '../api/cron.js';
import { UsageError } from '../errors.js';
import { appliedState, type AppliedState } from './applied.js';
import type { Channel } from '../api/delivery.js';

export const FILE_OPTION = {
  flags: '-f, --file <file>',
  description: 'the account file, YAML or JSON ("-" reads stdin)',
} as const satisfies OptionSpec;

/** Delivery fields by channel, as the plan names them. */
const DELIVERY_FIELDS: Record<Channel, string[]> = {
  sftp: ['host', 'port', 'username', 'password', 'directory', 'is_active'],
  webhook: ['url', 'is_active', 'retry', 'events'],
  sheet: ['url', 'append', 'is_active'],
  s3: ['bucket', 'target_path', 'is_active', 'aws_access_key', 'aws_secret_key'],
  email: ['email', 'notifications'],
};

export const ASSUME_OPTION = {
  flags: '--assume-unchanged <field>',
  description:
    'take this delivery field that cannot be read back as unchanged (FIELD or CHANNEL.FIELD, e.g. directory, webhook.events; repeatable, comma-separated)',
  repeatable: true,
} as const satisfies OptionSpec;

/** --assume-unchanged: each name checked (exit 2 naming the allowed ones), then a test of a channel's field. */
export function assumedFields(list: string[] | undefined): (channel: Channel, field: string) => boolean {
  const names = (list ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  const all = new Set(Object.values(DELIVERY_FIELDS).flat());
  for (const n of names) {
    const [a, b] = n.includes('.') ? [n.slice(0, n.indexOf('.')), n.slice(n.indexOf('.') + 1)] : [undefined, n];
    const ok = a === undefined ? all.has(b) : (DELIVERY_FIELDS[a as Channel] ?? []).includes(b);
    if (!ok) {
      const allowed = Object.entries(DELIVERY_FIELDS)
        .map(([c, f]) => `${c}: ${f.join(', ')}`)
        .join('; ');
      throw new UsageError(
        `--assume-unchanged: unknown field ${JSON.stringify(n)}; allowed: FIELD or CHANNEL.FIELD with ${allowed}`,
      );
    }
  }
  const base = (f: string) => (f.startsWith('events.') ? 'events' : f);
  return (channel, field) => names.some((n) => n === base(field) || n === `${channel}.${base(field)}`);
}

/**
 * The file of -f, read and checked (its ${ENV} values registered as secrets), and the plan against the live account.
 * `limit` refuses what a narrower verb does not manage (sq delivery apply), before any request.
 */
export async function planOfFile(
  ctx: Ctx,
  opts: { file?: string; assumeUnchanged?: string[] },
  scope: PlanOptions & { limit?: (want: Desired) => void; allowMissingSecrets?: boolean } = {},
): Promise<ReturnType<typeof makePlan> & { applied: AppliedState }> {
  const file = required('--file', opts.file, 'the account file (YAML or JSON; "-" for stdin)');
  const assumed = assumedFields(opts.assumeUnchanged);
  const want = await loadAccountFile(ctx, file, { allowMissingSecrets: scope.allowMissingSecrets ?? true });
  scope.limit?.(want);
  const http = await ctx.http();
  const live = await readLive(http, want, (w) => ctx.out.warn(w));
  const applied = scope.applied ?? (await appliedState(ctx));
  const made = makePlan(want, live, { ...scope, applied, assumed });
  await costSchedules(http, made.steps, live, want, ctx.now());
  return { ...made, applied };
}

/**
 * Each squid item that turns a schedule on gets what one of its runs costs: the estimate of the squid as it is now
 * (POST /v1/squid/estimate, one request per such squid; it changes nothing), or, for a squid this file creates, the
 * crawler's rate a row (apply estimates it once it exists, before its schedule is turned on).
 */
async function costSchedules(http: HttpClient, steps: Step[], live: Live, want: Desired, now: number): Promise<void> {
  const changesToo = (s: Step) =>
    steps.some((o) => o !== s && o.squid === s.squid && o.item.kind === 'tasks' && o.item.action === 'create') ||
    s.item.changes.some((c) => c.field.startsWith('params'));
  await Promise.all(
    steps.map(async (s) => {
      if (!s.schedule) return;
      const { cron, timezone } = s.schedule.on;
      let words = `cron "${cron}" ${timezone}`;
      let next: number | null = null;
      try {
        const c = parseCron(cron);
        [words, next] = [describeCron(c, timezone), nextRun(c, timezone, now)];
      } catch {
        // shown as the expression
      }
      const base = { schedule: words, next_run: next === null ? null : new Date(next).toISOString() };
      if (!s.item.id) {
        const spec = want.squids.find((w) => w.ref === s.squid)?.spec;
        const crawler = spec?.crawler === undefined ? undefined : matchCrawler(spec.crawler, live.crawlers);
        const rate =
          typeof crawler?.credits_per_row === 'number'
            ? ` (${String(crawler.name ?? spec?.crawler)} charges ${fmtCredits(crawler.credits_per_row)} credits a row, plus its paid functions that are on)`
            : '';
        s.item.scheduled_run = {
          ...base,
          credits_per_run: null,
          note: `a new squid: apply estimates a run once it and its tasks exist, before turning the schedule on${rate}`,
        };
        return;
      }
      try {
        const est = await getEstimate(http, s.item.id);
        const note = changesToo(s)
          ? 'the squid as it is now: this plan changes its params or tasks, and apply estimates again before turning the schedule on'
          : null;
        s.item.scheduled_run = { ...base, credits_per_run: est.total_credits, note };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const noTasks = err.status === 400 && /task/i.test(err.message);
        s.item.scheduled_run = {
          ...base,
          credits_per_run: null,
          note: noTasks
            ? 'no tasks yet: a run has nothing to charge until tasks are added'
            : `could not be estimated: ${err.message}`,
        };
      }
    }),
  );
}
