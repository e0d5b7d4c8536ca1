import { defineVerb } from '../../cli/command.js';
import type { Ctx } from '../../cli/context.js';
import { enumFlag, httpUrlFlag, nonEmpty, portFlag } from '../../validate/index.js';
import { postDeliveryTest, storedDelivery, type TestKind, type TestResult } from '../../api/delivery.js';
import { isRecord } from '../../lib/guards.js';
import { ApiError, UsageError } from '../../errors.js';
import { resolveSquid } from '../../api/resolve.js';
import { getSquid } from '../../api/squids.js';
import { emailFlag, hideUrlSecrets, readPassword, SFTP_LOGIN_OPTIONS, SQUID_OPTION } from './_shared/common.js';
import { shownUrl } from '../../lib/secrets.js';
import { appliedState } from '../../account/applied.js';

const KINDS = ['sftp', 'webhook', 'email'] as const;
type Kind = (typeof KINDS)[number];

const SFTP_CAUSES = [
  'Common causes:',
  '  - the directory does not exist on the server (the service never creates it)',
  '  - the server does not accept connections from the service (firewall or IP allowlist), or host/port are wrong',
  '  - wrong user name or password',
];

interface Stored {
  ftp: Record<string, unknown> | null;
  webhookUrl: string | null;
  email: string | null;
}

async function storedFor(ctx: Ctx, ref: string | undefined): Promise<Stored> {
  if (ref === undefined) return { ftp: null, webhookUrl: null, email: null };
  const http = await ctx.http();
  const squid = await resolveSquid(http, nonEmpty('--squid', ref));
  const d = storedDelivery(await getSquid(http, squid.id));
  // What the service does not give back (the SFTP username and directory): as sq last applied it from this profile.
  const last = (await appliedState(ctx)).lastApplied(squid.id, { sftp: d.ftp_fields }).sftp;
  return {
    ftp: d.ftp_fields && { ...last, ...d.ftp_fields },
    webhookUrl: typeof d.webhook_fields?.url === 'string' ? d.webhook_fields.url : null,
    email: d.email,
  };
}

function pickStr(flag: string, given: unknown, stored: unknown, what: string, squid?: string): string {
  if (given !== undefined) return nonEmpty(flag, given);
  if (typeof stored === 'string' && stored !== '') return stored;
  // The service answers only part of a stored channel (SFTP: host, port, is_active): the rest must be given.
  if (squid !== undefined)
    throw new UsageError(`${flag} is required (${what}): the service does not give it back for --squid ${squid}`);
  throw new UsageError(`${flag} is required (${what}), or pass --squid to reuse a squid's stored configuration`);
}

export default defineVerb({
  name: 'test',
  writes: true,
  summary: 'Check an SFTP server, webhook URL or e-mail address through the service before activating it',
  description:
    'Asks the service to try the delivery now (POST /v1/delivery/test-sftp, /test-webhook or /test-email) and shows ' +
    'the outcome. A failed test exits 1 with the reason.\n\n' +
    'sftp: connects with the login and checks that --directory exists. The password comes from --password-stdin or ' +
    '--password-env, never the command line.\n' +
    'webhook: the service POSTs a sample run.done event to --url; your endpoint must answer 200, 201 or 202 within 30 s.\n' +
    'email: sends a test e-mail to --email.\n\n' +
    "With --squid, values not given as flags are taken from what the service answers of that squid's stored " +
    'configuration (SFTP host and port, the webhook URL, the e-mail), and the SFTP username and directory from what ' +
    'sq last applied from this profile (see `sq delivery show`); the service never answers the SFTP password.',
  args: ['<kind>'],
  options: [
    ...SFTP_LOGIN_OPTIONS,
    { flags: '--url <url>', description: 'webhook: the endpoint to try' },
    { flags: '--email <address>', description: 'email: where to send the test e-mail' },
    { ...SQUID_OPTION, description: "reuse this squid's stored configuration for values not given as flags" },
  ],
  examples: [
    'SFTP_PASSWORD=... sq delivery test sftp --host sftp.example.com --username deploy --directory /upload --password-env SFTP_PASSWORD',
    'sq delivery test webhook --url https://ci.example.com/hook',
    'sq delivery test sftp --squid "Paris restaurants"',
    'sq delivery test email --email ops@example.com',
  ],
  async run(ctx, args, opts) {
    const kind = enumFlag('<kind>', args[0], KINDS) as Kind;
    let body: Record<string, unknown>;
    let path: TestKind;
    // Flags are checked before the stored configuration is read, so a bad value never costs a request.
    if (kind === 'sftp') {
      if (opts.port !== undefined) portFlag('--port', opts.port);
      for (const f of ['host', 'username', 'directory'] as const)
        if (opts[f] !== undefined) nonEmpty(`--${f}`, opts[f]);
      // readPassword registers the password with ctx; the stored one is registered below: both are scrubbed from
      // every message and error.
      const password = await readPassword(ctx, opts, opts.squid === undefined);
      const stored = (await storedFor(ctx, opts.squid)).ftp ?? {};
      const pw = password ?? (typeof stored.password === 'string' && stored.password ? stored.password : undefined);
      if (!pw)
        throw new UsageError(
          'the SFTP password is required: --password-stdin or --password-env VAR (the service never gives a stored one back)',
        );
      ctx.addSecret(pw);
      body = {
        host: pickStr('--host', opts.host, stored.host, 'the SFTP server'),
        port:
          opts.port !== undefined ? portFlag('--port', opts.port) : typeof stored.port === 'number' ? stored.port : 22,
        username: pickStr('--username', opts.username, stored.username, 'the login user name', opts.squid),
        password: pw,
        directory: pickStr('--directory', opts.directory, stored.directory, 'the target directory', opts.squid),
      };
      path = 'sftp';
    } else if (kind === 'webhook') {
      if (opts.url !== undefined) httpUrlFlag('--url', opts.url);
      const stored = await storedFor(ctx, opts.squid);
      body = {
        url: hideUrlSecrets(
          ctx,
          httpUrlFlag('--url', pickStr('--url', opts.url, stored.webhookUrl, 'the endpoint to try')),
        ),
      };
      path = 'webhook';
    } else {
      if (opts.email !== undefined) emailFlag('--email', opts.email);
      const stored = await storedFor(ctx, opts.squid);
      body = { email: emailFlag('--email', pickStr('--email', opts.email, stored.email, 'the address')) };
      path = 'email';
    }

    const http = await ctx.http();
    const res = await ctx.out.spin(`Testing ${kind} delivery…`, () => postDeliveryTest(http, path, body));
    await ctx.out.record(res, { title: `${kind} delivery test` });
    // Messages quote the URL with its token masked by position: a short one escapes the scrubbing of free text.
    const quoted = typeof body.url === 'string' ? { ...body, url: shownUrl(body.url, ctx.globals.showSecrets) } : body;
    if (res.success) {
      ctx.out.success(successText(kind, quoted, res));
      return;
    }
    throw failure(kind, quoted, res);
  },
});

function successText(kind: Kind, body: Record<string, unknown>, res: TestResult): string {
  if (kind === 'sftp')
    return `SFTP test passed: logged in to ${body.host}:${body.port} as ${body.username}; ${body.directory} exists`;
  if (kind === 'webhook') return `Webhook test passed: ${body.url} answered HTTP ${res.status_code ?? '2xx'}`;
  return `Test e-mail sent to ${body.email}`;
}

function failure(kind: Kind, body: Record<string, unknown>, res: TestResult): ApiError {
  const reason =
    typeof res.error === 'string' && res.error ? res.error : isRecord(res.detail) ? JSON.stringify(res.detail) : null;
  if (kind === 'sftp') {
    return new ApiError(
      `SFTP test failed for ${body.username}@${body.host}:${body.port}${body.directory}${reason ? `: ${reason}` : ''}`,
      {
        details: SFTP_CAUSES,
      },
    );
  }
  if (kind === 'webhook') {
    const got = typeof res.status_code === 'number' ? `answered HTTP ${res.status_code}` : 'did not answer';
    return new ApiError(`webhook test failed: ${body.url} ${got}${reason ? ` (${reason})` : ''}`, {
      details: ['The endpoint must answer 200, 201 or 202 within 30 seconds and be reachable from the service.'],
    });
  }
  return new ApiError(`e-mail test failed for ${body.email}${reason ? `: ${reason}` : ''}`);
}
