import { defineVerb } from '../../command.js';
import type { Ctx } from '../../context.js';
import { ApiError, interruptedBatch, PartialFailureError, SqError } from '../../errors.js';
import { required } from '../../validate/index.js';
import { readInput } from '../../io/stdin.js';
import { printPlanned, type PlannedRequest } from '../../io/dry-run.js';
import { redactText } from '../../output/secrets.js';
import { channelOf, deliveryPath, diffDelivery, postDelivery, storedDelivery, type Channel } from '../../api/delivery.js';
import { checkApplyDocument, parseApplyText, type SquidPlan } from './_shared/apply-file.js';
import { resolveSquid } from '../../api/resolve.js';
import { getSquidRecord } from './_shared/common.js';
import { deliveryChanges, type Change } from '../../account/diff.js';
import { maskSecrets } from '../../output/secrets.js';

type ChannelStatus = 'changed' | 'unchanged' | 'would change' | 'failed';

/** One channel of the --dry-run --json plan: the shape of `sq plan`'s delivery items (field, from, to). */
interface ChannelPlan {
  action: 'create' | 'update' | 'none';
  changes: Change[];
  not_compared: string[];
}

interface SquidReport {
  ref: string;
  id: string | null;
  name: string | null;
  status: 'changed' | 'unchanged' | 'would change' | 'failed';
  channels: Partial<Record<Channel, { status: ChannelStatus; fields: string[]; unverified: string[]; error?: string }>>;
  error?: string;
  /** --dry-run: what would be sent, per channel, for the plan object. */
  plan?: Partial<Record<Channel, ChannelPlan>>;
}

const FILE_HELP = `File format (YAML or JSON):

  version: 1                  # optional
  squids:
    "Paris restaurants":      # squid name, unique hash prefix or full hash
      sftp:    { host: sftp.example.com, port: 22, username: deploy,
                 password: \${SFTP_PASSWORD}, directory: /upload,
                 active: true }
      webhook: { url: https://ci.example.com/hook,
                 events: [run.done, run.error], retry: true, active: true }
      email:   { address: ops@example.com, notifications: true }
      sheet:   { url: https://docs.google.com/spreadsheets/d/ID/edit,
                 append: false, active: true }
      s3:      { bucket: my-exports, target_path: paris,
                 access_key: \${AWS_ACCESS_KEY_ID},
                 secret_key: \${AWS_SECRET_ACCESS_KEY}, active: true }

Defaults: port 22, active true, retry true, notifications true, append false. events takes a list, a
comma-separated string or "all"; every event not listed is unsubscribed.

\${NAME} in any value is replaced by that environment variable; a missing or empty one is an error (exit 2)
before any request. Secrets (sftp.password, s3.access_key, s3.secret_key) must be a single \${NAME}
reference: a literal secret in the file is refused, so the file can be committed. Every value taken from
the environment is handled as a secret: masked in the plan, dry run and report unless --show-secrets (a
token in a URL's path too), and an error quotes the file's \${NAME}, never the value.

The whole file is validated first; errors name the bad field, e.g. squids."Paris restaurants".webhook.events[1].
Then, for each squid, the stored configuration is read (GET /v1/squids/{hash}) and only channels that differ are
sent (POST /v1/delivery?squid=). Running apply twice sends nothing the second time.

Secrets: when the service returns the stored password/keys, they are compared too. When it does not (or
returns them masked), they cannot be compared: a channel whose other fields match is left unchanged and
reported as "not compared". Use --force to send every channel anyway, e.g. after rotating a password.

Report: one line per squid on stderr (changed / unchanged / failed); with --json, a summary object on stdout.

--dry-run --json prints one plan object, whatever the number of changes (secrets masked; field names and
from/to values as in \`sq plan --json\`):

  {"version": 1, "dry_run": true,
   "summary": {"create": 1, "update": 1, "delete": 0, "unchanged": 1,
               "failed": 0},
   "squids": [{"squid": "Paris restaurants", "id": "…",
               "name": "Paris restaurants", "error": null,
               "channels": {
                 "sftp": {"action": "update", "not_compared": [],
                          "changes": [{"field": "host",
                                       "from": "old.example.com",
                                       "to": "sftp.example.com"}]},
                 "webhook": {"action": "none", "changes": [],
                             "not_compared": []}}}]}

summary counts channels (create, update, unchanged) and squids that could not be read (failed, with their
error); action is create (channel not set up yet), update or none. With --force an unchanged channel is an
update with no changes. Secrets are ******** in from and to; so is what a stored URL has where the file's
URL has a \${NAME} (the old token, after a rotation).

Exit 0 when all squids succeeded, 8 when some failed and others succeeded, and the error's own code when all failed.
A stop signal sends nothing more and exits 130 (Ctrl-C), 143 (SIGTERM) or 129 (SIGHUP) with the same report.`;

export default defineVerb({
  name: 'apply',
  summary: 'Apply delivery settings for many squids from a YAML/JSON file (idempotent, for CI)',
  description: `Declarative delivery configuration: describe the wanted state in a file; apply sends only what differs.\n\n${FILE_HELP}`,
  options: [
    { flags: '-f, --file <file>', description: 'the YAML or JSON file ("-" reads stdin)' },
    { flags: '--force', description: 'send every channel in the file even when it looks unchanged' },
  ],
  examples: [
    'SFTP_PASSWORD=... sq delivery apply -f delivery.yaml',
    'sq delivery apply -f delivery.yaml --dry-run',
    'sq delivery apply -f delivery.json --json',
  ],
  async run(ctx, _args, opts) {
    const file = required('--file', opts.file, 'the YAML or JSON delivery file ("-" for stdin)');
    const text = await readInput(ctx, '--file', file);
    // Registered with ctx as they are read, every stderr line and error is scrubbed of them (the check's own too); the
    // stdout summary is scrubbed here.
    const plan = checkApplyDocument(await parseApplyText(text, file === '-' ? '<stdin>' : file), ctx.env, { onSecret: (s) => ctx.addSecret(s) });
    const scrub = (s: string) => redactText(s, plan.secrets);

    const http = await ctx.http();
    const planOnly = !http.sendsWrites;
    const reports: SquidReport[] = [];
    const planned: PlannedRequest[] = [];
    const errors: SqError[] = [];
    for (const sq of plan.squids) {
      // A stop signal: the squids not reached yet are not sent (the report below counts them).
      if (ctx.signal.aborted) break;
      const r = await applySquid(http, sq, !!opts.force, planned);
      if (r.error) {
        r.error = scrub(r.error);
        errors.push(r.err!);
      }
      delete r.err;
      for (const c of Object.values(r.channels)) if (c.error) c.error = scrub(c.error);
      reports.push(r);
      reportLine(ctx, r);
    }

    if (planOnly && ctx.outputSettings().format === 'json') {
      await ctx.out.json(planObject(ctx, reports));
      ctx.out.info('Dry run: nothing was sent.');
    } else if (planOnly) {
      await printPlanned(ctx, planned);
    } else {
      await writeSummary(ctx, reports);
    }

    const failed = reports.filter((r) => r.status === 'failed');
    const details = failed.map((r) => `  ${r.ref}: ${r.error}`);
    const total = plan.squids.length;
    if (ctx.signal.aborted && (failed.length > 0 || reports.length < total)) {
      const summary = `${reports.length - failed.length} of ${total} squids done, ${failed.length} failed, ${total - reports.length} not sent; running delivery apply again sends what is still missing`;
      throw interruptedBatch(ctx.signal.reason, summary, details);
    }
    if (failed.length === 0) return;
    if (failed.length < reports.length) {
      throw new PartialFailureError(`${failed.length} of ${reports.length} squids failed; the others were ${planOnly ? 'planned (dry run: nothing was sent)' : 'applied'}`, { details });
    }
    if (reports.length === 1 && errors[0]) {
      errors[0].message = scrub(errors[0].message);
      throw errors[0];
    }
    throw new ApiError(`all ${reports.length} squids failed`, { details });
  },
});

async function applySquid(
  http: Awaited<ReturnType<Ctx['http']>>,
  sq: SquidPlan,
  force: boolean,
  planned: PlannedRequest[],
): Promise<SquidReport & { err?: SqError }> {
  const report: SquidReport & { err?: SqError } = { ref: sq.ref, id: null, name: null, status: 'unchanged', channels: {} };
  try {
    const squid = await resolveSquid(http, sq.ref);
    report.id = squid.id;
    const record = await getSquidRecord(http, squid.id);
    report.name = typeof record.name === 'string' ? record.name : squid.name || null;
    const current = storedDelivery(record);
    for (const body of sq.bodies) {
      const channel = channelOf(body);
      const diff = diffDelivery(body, current);
      const changed = force || diff.fields.length > 0;
      if (!http.sendsWrites) {
        const d = deliveryChanges(body, channel, record, sq.written[channel]);
        report.plan ??= {};
        report.plan[channel] = { action: changed ? (d.create ? 'create' : 'update') : 'none', changes: changed ? d.changes : [], not_compared: d.unverified };
      }
      if (!changed) {
        report.channels[channel] = { status: 'unchanged', ...diff };
        continue;
      }
      if (!http.sendsWrites) {
        planned.push({ method: 'POST', path: deliveryPath(squid.id), body });
        report.channels[channel] = { status: 'would change', ...diff };
        continue;
      }
      try {
        await postDelivery(http, squid.id, body);
        report.channels[channel] = { status: 'changed', ...diff };
      } catch (err) {
        if (!(err instanceof SqError)) throw err;
        report.channels[channel] = { status: 'failed', ...diff, error: err.message };
        report.err ??= err;
      }
    }
  } catch (err) {
    if (!(err instanceof SqError)) throw err;
    report.err = err;
    report.error = err.message;
  }
  const statuses = Object.values(report.channels).map((c) => c.status);
  if (report.err) {
    report.status = 'failed';
    report.error ??= Object.entries(report.channels).filter(([, c]) => c.error).map(([k, c]) => `${k}: ${c.error}`).join('; ');
  } else if (statuses.includes('changed')) report.status = 'changed';
  else if (statuses.includes('would change')) report.status = 'would change';
  return report;
}

function reportLine(ctx: Ctx, r: SquidReport) {
  const s = ctx.out.errStyle;
  const who = r.name && r.name !== r.ref ? `${r.ref} (${r.id})` : r.id && r.id !== r.ref ? `${r.ref} (${r.id})` : r.ref;
  const parts = Object.entries(r.channels).map(([ch, c]) => {
    const what = c.status === 'changed' || c.status === 'would change' ? `${c.status} (${c.fields.join(', ')})` : c.status;
    return `${ch} ${what}${c.unverified.length ? ` [${c.unverified.join(', ')} not compared]` : ''}`;
  });
  if (r.status === 'failed') {
    ctx.out.info(`${s.red('✗')} ${who}: failed: ${r.error}${parts.length ? ` — ${parts.join(', ')}` : ''}`, { force: true });
    return;
  }
  const mark = r.status === 'unchanged' ? s.dim('=') : s.green('✓');
  ctx.out.info(`${mark} ${who}: ${r.status}${parts.length ? ` — ${parts.join(', ')}` : ''}`);
}

async function writeSummary(ctx: Ctx, reports: SquidReport[]) {
  const count = (st: string) => reports.filter((r) => r.status === st).length;
  const fmt = ctx.outputSettings().format;
  if (fmt === 'json') {
    await ctx.out.record(
      { changed: count('changed'), unchanged: count('unchanged'), failed: count('failed'), squids: reports },
      { maskSecrets: true },
    );
    return;
  }
  const rows = reports.flatMap((r) => {
    const chans = Object.entries(r.channels);
    if (chans.length === 0) return [{ squid: r.ref, id: r.id ?? '', channel: '', status: r.status, fields: '', error: r.error ?? '' }];
    return chans.map(([ch, c]) => ({
      squid: r.ref,
      id: r.id ?? '',
      channel: ch,
      status: c.status,
      fields: c.fields.join(','),
      error: c.error ?? '',
    }));
  });
  await ctx.out.list(rows, {
    columns: [{ key: 'squid' }, { key: 'id' }, { key: 'channel' }, { key: 'status', kind: 'status' }, { key: 'fields' }, { key: 'error' }],
  });
}

/** The --dry-run --json plan: every squid of the file, every channel, the same keys whatever changes. */
function planObject(ctx: Ctx, reports: SquidReport[]) {
  const channels = reports.flatMap((r) => Object.values(r.plan ?? {}));
  const count = (a: ChannelPlan['action']) => channels.filter((c) => c.action === a).length;
  const plan = {
    version: 1,
    dry_run: true,
    summary: { create: count('create'), update: count('update'), delete: 0, unchanged: count('none'), failed: reports.filter((r) => r.status === 'failed').length },
    squids: reports.map((r) => ({ squid: r.ref, id: r.id, name: r.name, error: r.error ?? null, channels: r.plan ?? {} })),
  };
  // Passwords and keys are already masked field by field; this also masks tokens in webhook URLs.
  return maskSecrets(plan, ctx.globals.showSecrets, ctx.secrets());
}
