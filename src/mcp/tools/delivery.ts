// The delivery_* tools: show, set a channel (webhook, e-mail, sheet, SFTP, S3), test one, apply a delivery document.
import {
  active,
  activeArg,
  docFlags,
  docInput,
  dryRun,
  flags,
  hostOf,
  LATER_RUNS,
  objOutput,
  rec,
  secretEnv,
  squidArg,
  str,
  ToolError,
  type ToolDef,
  type ToolArgs,
  type ToolEnv,
  verbRec,
} from './kit.js';
import type { Rec } from '../../lib/guards.js';

export const deliveryShow: ToolDef = {
  name: 'delivery_show',
  title: 'Show delivery',
  access: 'read',
  description: "Where a squid's results go (SFTP, webhook, e-mail, sheet, S3), secrets masked.",
  input: (z) => ({ squid: squidArg(z) }),
  output: (z) => objOutput(z),
  run: (t, a) => verbRec(t, ['delivery', 'show', `--squid=${String(a.squid)}`]),
};

export const deliveryWebhook: ToolDef = {
  name: 'delivery_webhook',
  title: 'Set the webhook delivery',
  access: 'write',
  idempotent: true,
  description:
    "Send a squid's run events to a URL. The answer names the host that will receive them (delivery_host)." +
    LATER_RUNS,
  input: (z) => ({
    squid: squidArg(z),
    url: z.string().min(1).describe('http(s) endpoint'),
    events: z
      .string()
      .optional()
      .describe('comma-separated: run.running, run.paused, run.done, run.error, or "all" (default run.done,run.error)'),
    retry: z.boolean().optional().describe('retry failed deliveries (default true)'),
    active: activeArg(z),
    dry_run: dryRun(z),
  }),
  output: (z) => ({ delivery_host: z.string().optional() }),
  run: (t, a) =>
    setChannel(t, hostOf(str(a, 'url')), [
      'webhook',
      ...flags({ '--squid': a.squid, '--url': a.url, '--events': a.events }),
      ...(a.retry === false ? ['--no-retry'] : []),
      ...active(a),
    ]),
};

export const deliveryEmail: ToolDef = {
  name: 'delivery_email',
  title: 'Set the e-mail delivery',
  access: 'write',
  idempotent: true,
  description:
    "E-mail a squid's results when a run completes. The answer names the address (delivery_host)." + LATER_RUNS,
  input: (z) => ({
    squid: squidArg(z),
    email: z.string().min(1),
    notifications: z.boolean().optional().describe('false keeps the address, sends nothing'),
    dry_run: dryRun(z),
  }),
  output: (z) => ({ delivery_host: z.string().optional() }),
  run: (t, a) =>
    setChannel(t, str(a, 'email')?.split('@').pop(), [
      'email',
      ...flags({ '--squid': a.squid, '--email': a.email }),
      ...(a.notifications === false ? ['--no-notifications'] : []),
    ]),
};

export const deliverySheet: ToolDef = {
  name: 'delivery_sheet',
  title: 'Set the Google Sheet delivery',
  access: 'write',
  idempotent: true,
  description: "Write a squid's results to a Google Sheet." + LATER_RUNS,
  input: (z) => ({
    squid: squidArg(z),
    url: z.string().min(1),
    mode: z.enum(['append', 'overwrite']).optional().describe('default overwrite'),
    active: activeArg(z),
    dry_run: dryRun(z),
  }),
  output: (z) => ({ delivery_host: z.string().optional() }),
  run: (t, a) =>
    setChannel(t, hostOf(str(a, 'url')), [
      'sheet',
      ...flags({ '--squid': a.squid, '--url': a.url }),
      ...(a.mode ? [`--${String(a.mode)}`] : []),
      ...active(a),
    ]),
};

export const deliverySftp: ToolDef = {
  name: 'delivery_sftp',
  title: 'Set the SFTP delivery',
  access: 'write',
  idempotent: true,
  description:
    "Upload a squid's results over SFTP. The password never travels in the call: password_env names an environment " +
    'variable of the server, one of those its --secret-env allows. The answer names the host (delivery_host).' +
    LATER_RUNS,
  input: (z) => ({
    squid: squidArg(z),
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535).optional(),
    username: z.string().min(1),
    directory: z.string().min(1),
    password_env: z
      .string()
      .min(1)
      .describe('environment variable of the server that holds the password (allowed by --secret-env)'),
    active: activeArg(z),
    dry_run: dryRun(z),
  }),
  output: (z) => ({ delivery_host: z.string() }),
  run: async (t, a) => {
    secretEnv(t, a, 'delivery_sftp', ['password_env']);
    return setChannel(t, sftpHost(a), ['sftp', ...flags({ '--squid': a.squid }), ...sftpFlags(a), ...active(a)]);
  },
};

export const deliveryS3: ToolDef = {
  name: 'delivery_s3',
  title: 'Set the S3 delivery',
  access: 'write',
  idempotent: true,
  description:
    "Upload a squid's results to S3; the keys come from environment variables of the server that its --secret-env allows." +
    LATER_RUNS,
  input: (z) => ({
    squid: squidArg(z),
    bucket: z.string().min(1),
    target_path: z.string().optional(),
    access_key_env: z.string().min(1),
    secret_key_env: z.string().min(1),
    active: activeArg(z),
    dry_run: dryRun(z),
  }),
  output: (z) => ({ delivery_host: z.string() }),
  run: async (t, a) => {
    secretEnv(t, a, 'delivery_s3', ['access_key_env', 'secret_key_env']);
    return setChannel(t, `s3://${String(a.bucket)}`, [
      's3',
      ...flags({
        '--squid': a.squid,
        '--bucket': a.bucket,
        '--target-path': a.target_path,
        '--access-key-env': a.access_key_env,
        '--secret-key-env': a.secret_key_env,
      }),
      ...active(a),
    ]);
  },
};

export const deliveryTest: ToolDef = {
  name: 'delivery_test',
  title: 'Test a delivery channel',
  access: 'write',
  idempotent: true,
  description:
    'Ask the service to try a channel now, as `sq delivery test` does: sftp (logs in and checks the directory exists), ' +
    'webhook (POSTs a sample event) or email (sends a test e-mail). squid reuses its stored configuration for what is ' +
    'not given (the service never gives back an SFTP username, directory or password). The SFTP password never travels ' +
    'in the call: password_env names an environment variable of the server that its --secret-env allows.',
  input: (z) => ({
    kind: z.enum(['sftp', 'webhook', 'email']),
    squid: squidArg(z).optional().describe("reuse this squid's stored configuration"),
    url: z.string().optional().describe('webhook: the endpoint to try'),
    email: z.string().optional().describe('email: where to send the test e-mail'),
    host: z.string().min(1).optional().describe('sftp: the server'),
    port: z.number().int().min(1).max(65535).optional().describe('sftp: default 22'),
    username: z.string().min(1).optional().describe('sftp: the login'),
    directory: z.string().min(1).optional().describe('sftp: the target directory, which must exist'),
    password_env: z
      .string()
      .min(1)
      .optional()
      .describe('sftp: environment variable of the server that holds the password (allowed by --secret-env)'),
    dry_run: dryRun(z),
  }),
  output: (z) => ({ delivery_host: z.string().optional() }),
  run: async (t, a) => {
    if (a.kind === 'sftp') secretEnv(t, a, 'delivery_test', ['password_env']);
    else {
      const sftpOnly = SFTP_ARGS.filter((k) => a[k] !== undefined);
      if (sftpOnly.length)
        throw new ToolError(
          2,
          `delivery_test: ${sftpOnly.join(', ')} ${sftpOnly.length === 1 ? 'is' : 'are'} for kind sftp only (kind is ${String(a.kind)})`,
        );
    }
    const host =
      a.kind === 'sftp'
        ? a.host === undefined
          ? undefined
          : sftpHost(a)
        : (hostOf(str(a, 'url')) ?? str(a, 'email')?.split('@').pop());
    const argv = [
      ...flags({ '--squid': a.squid, '--url': a.url, '--email': a.email }),
      ...sftpFlags(a),
      '--',
      String(a.kind),
    ];
    return setChannel(t, host, ['test', ...argv]);
  },
};

export const deliveryApply: ToolDef = {
  name: 'delivery_apply',
  title: 'Apply a delivery document',
  access: 'write',
  idempotent: true,
  description:
    'Make delivery match a document (YAML or JSON text); sends only what differs. ${VAR} secrets only from --secret-env.' +
    LATER_RUNS,
  input: (z) => ({ ...docInput(z), dry_run: dryRun(z) }),
  output: (z) => objOutput(z),
  run: async (t, a) => {
    const d = await docFlags(t, a, 'delivery_apply');
    return verbRec(t, ['delivery', 'apply', ...d.argv], { stdin: d.stdin, env: d.env, write: true });
  },
};

const SFTP_ARGS = ['host', 'port', 'username', 'directory', 'password_env'];
/** --host, --port, --username, --directory and --password-env, of the arguments of the same names. */
const sftpFlags = (a: ToolArgs) => flags(Object.fromEntries(SFTP_ARGS.map((k) => [`--${k.replace('_', '-')}`, a[k]])));
const sftpHost = (a: ToolArgs) => `${String(a.host)}:${String(a.port ?? 22)}`;

/** `sq delivery ARGV`, a write: its answer, with the host the results will go to (delivery_host). */
async function setChannel(t: ToolEnv, host: string | undefined, argv: string[]): Promise<Rec> {
  const { data } = await t.verb(['delivery', ...argv], { write: true });
  return rec({ delivery_host: host, ...rec(data) });
}
