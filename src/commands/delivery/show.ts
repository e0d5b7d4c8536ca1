import { defineVerb } from '../../cli/command.js';
import type { Column } from '../../output/types.js';
import { nonEmpty, required, RUN_EVENTS } from '../../validate/index.js';
import { storedDelivery, storedEvents } from '../../api/delivery.js';
import { resolveSquid } from '../../api/resolve.js';
import { getSquid } from '../../api/squids.js';
import type { Rec } from '../../lib/guards.js';
import { appliedState } from '../../account/applied.js';
import { SQUID_OPTION } from './_shared/common.js';

const onOff = (v: unknown) => (v === true ? 'active' : v === false ? 'inactive' : 'active?');
/** A channel's cell: its line, or 'not configured' when the squid has none. */
const channel = (line: (f: Rec) => string) => (v: unknown) =>
  v && typeof v === 'object' ? line(v as Rec) : 'not configured';

// One readable line per channel for the terminal; --json keeps the API's objects (secrets masked).
const COLUMNS: Column[] = [
  { key: 'squid', header: 'Squid' },
  { key: 'name', header: 'Name' },
  {
    key: 'ftp_fields',
    header: 'SFTP',
    format: channel((f) => {
      // The service answers {host, port, is_active} only; a username or directory is shown when it comes back.
      return `${onOff(f.is_active)}  sftp://${f.username ? `${String(f.username)}@` : ''}${f.host ?? '?'}:${f.port ?? 22}${f.directory ?? ''}`;
    }),
  },
  {
    key: 'webhook_fields',
    header: 'Webhook',
    format: channel((f) => {
      const ev = storedEvents(f);
      const list = ev ? RUN_EVENTS.filter((e) => ev[e]).join(',') || 'no events' : 'events unknown';
      return `${onOff(f.is_active)}  ${f.url ?? '?'}  [${list}]  ${f.retry === true ? 'retry' : 'no retry'}`;
    }),
  },
  {
    key: 'email',
    header: 'E-mail',
    format: (v, r) =>
      typeof v === 'string' && v ? `${v}  notifications ${r.notifications === true ? 'on' : 'off'}` : 'not configured',
  },
  {
    key: 'google_sheet_fields',
    header: 'Google Sheet',
    format: channel((f) => `${onOff(f.is_active)}  ${f.url ?? '?'}  ${f.append === true ? 'append' : 'overwrite'}`),
  },
  {
    key: 'last_applied',
    header: 'Last applied by sq (not read back)',
    format: (v) => {
      if (!v || typeof v !== 'object' || !Object.keys(v).length) return 'nothing remembered';
      const fields = (f: Rec) =>
        Object.entries(f)
          .map(([k, x]) => `${k}=${typeof x === 'string' ? x : JSON.stringify(x)}`)
          .join(' ');
      return Object.entries(v as Record<string, Rec>)
        .map(([c, f]) => `${c}: ${fields(f)}`)
        .join('; ');
    },
  },
  {
    key: 's3_fields',
    header: 'S3',
    format: channel((f) => {
      const keys = f.aws_access_key ? 'with keys' : 'no keys';
      return `${onOff(f.is_active)}  s3://${f.bucket ?? '?'}/${f.target_path ?? ''}  ${keys}`;
    }),
  },
];

export default defineVerb({
  name: 'show',
  summary: 'Show the delivery configuration of a squid (read from GET /v1/squids/{hash})',
  description:
    'The service has no endpoint to read delivery settings back, so they are taken from the squid record: ' +
    'ftp_fields, webhook_fields, google_sheet_fields, s3_fields, email and notifications. The service answers only ' +
    'part of each (SFTP: host, port, is_active; webhook: url, is_active; S3: bucket, is_active), and a channel whose ' +
    'is_active is false is shown as not configured. Passwords and keys are masked unless --show-secrets. ' +
    'last_applied adds, per channel, what sq last applied from this profile of the fields the service does not ' +
    'answer (SFTP username and directory, webhook events and retry, S3 target_path; never a secret), as `sq plan` ' +
    'compares them (see `sq plan --help`); a change made elsewhere (the dashboard) is not seen there.',
  options: [SQUID_OPTION],
  examples: [
    'sq delivery show --squid "Paris restaurants"',
    'sq delivery show --squid 3f2a --json',
    'sq delivery show --squid 3f2a --fields webhook_fields.url',
  ],
  async run(ctx, _args, opts) {
    const ref = nonEmpty('--squid', required('--squid', opts.squid, 'the squid (hash, prefix or name)'));
    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    // The full squid record is where the stored delivery config lives (there is no GET /delivery).
    const rec = await getSquid(http, squid.id);
    const d = storedDelivery(rec);
    const name = typeof rec.name === 'string' ? rec.name : squid.name;
    const channels = {
      sftp: d.ftp_fields,
      webhook: d.webhook_fields,
      sheet: d.google_sheet_fields,
      s3: d.s3_fields,
      email: { email: d.email, notifications: d.notifications },
    };
    const lastApplied = (await appliedState(ctx)).lastApplied(squid.id, channels);
    const out: Rec = { squid: squid.id, name, ...d, last_applied: lastApplied };
    await ctx.out.record(out, {
      title: `Delivery of squid ${name || squid.id}`,
      columns: ctx.out.spec.terminal ? COLUMNS : undefined,
    });
  },
});
