import { defineVerb } from '../../cli/command.js';
import { UsageError } from '../../errors.js';
import { runApply } from '../../account/apply.js';
import { pathOf, type Desired } from '../../account/file.js';
import { ASSUME_OPTION, JSON_HELP, planOfFile, STATE_HELP } from '../../account/plan-file.js';

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
before any request (\`sq apply\` needs only those of the channels it sends). Secrets (sftp.password, s3.access_key, s3.secret_key) must be a single \${NAME}
reference: a literal secret in the file is refused, so the file can be committed. Every value taken from
the environment is handled as a secret: masked in the plan, dry run and report unless --show-secrets (a
token in a URL's path too), and an error quotes the file's \${NAME}, never the value.

The whole file is validated first; errors name the bad field, e.g. squids."Paris restaurants".webhook.events[1].
This is \`sq apply\` limited to delivery: the same plan, the same order, the same report and the same --json
document (see \`sq apply --help\`). The account is read (GET requests only) and only channels that differ are
sent (POST /v1/delivery?squid=). Running apply twice sends nothing the second time. A squid the account does not
have is an error of the file (exit 2, nothing sent); so is any key other than the channels (use \`sq apply\`).

The service answers SFTP host, port and is_active, a webhook's or sheet's URL and is_active, S3 bucket and
is_active (never a password or key; older answers had more, and what comes back is compared). The other fields
are compared with what sq last applied (below). Use --force to send every channel anyway. A channel wanted
inactive matches one the service reports inactive (is_active false means not configured).

Report: the plan, then one line per channel on stderr (applied / failed / skipped); --dry-run shows the plan and
the requests. On a terminal apply asks once (--yes does not ask); without a terminal it applies.

Exit 0 when every channel was applied, 8 when some failed (the others are listed), the error's own code when the
only channel failed; a stop signal sends nothing more and exits 130 (Ctrl-C), 143 (SIGTERM) or 129 (SIGHUP)
with the same report.`;

export default defineVerb({
  name: 'apply',
  writes: true,
  summary: 'Apply delivery settings for many squids from a YAML/JSON file (idempotent, for CI)',
  description: `Declarative delivery configuration: describe the wanted state in a file; apply sends only what differs.\n\n${FILE_HELP}\n\n${STATE_HELP}\n\n${JSON_HELP}`,
  options: [
    { flags: '-f, --file <file>', description: 'the YAML or JSON file ("-" reads stdin)' },
    { flags: '--force', description: 'send every channel in the file even when it looks unchanged' },
    ASSUME_OPTION,
  ],
  examples: [
    'SFTP_PASSWORD=... sq delivery apply -f delivery.yaml',
    'sq delivery apply -f delivery.yaml --dry-run',
    'sq delivery apply -f delivery.json --json | jq .summary',
  ],
  async run(ctx, _args, opts) {
    const { plan, steps, applied } = await planOfFile(ctx, opts, { findOnly: true, force: !!opts.force, limit: deliveryOnly, allowMissingSecrets: false });
    await runApply(ctx, await ctx.http(), plan, steps, undefined, applied);
  },
});

const CHANNELS = ['sftp', 'webhook', 'email', 'sheet', 's3'];

/** What `sq delivery apply` manages: squids that exist, and their delivery channels; anything else is `sq apply`'s. */
function deliveryOnly(want: Desired): void {
  const problems: string[] = [];
  const elsewhere = 'sq delivery apply manages delivery channels only; use `sq apply` for the rest';
  if (!want.managesSquids) problems.push('squids: is required: a mapping from squid (name, hash prefix or hash) to its delivery channels');
  else if (want.squids.length === 0) problems.push('squids: lists no squid');
  if (want.prune) problems.push(`prune: ${elsewhere}`);
  if (want.billing) problems.push(`billing: ${elsewhere}`);
  for (const s of want.squids) {
    for (const k of Object.keys(s.spec)) {
      if (!CHANNELS.includes(k) && (s.spec as Record<string, unknown>)[k] !== undefined) problems.push(`${pathOf(['squids', s.ref, k])}: ${elsewhere}`);
    }
    if (s.channels.length === 0) problems.push(`${pathOf(['squids', s.ref])}: must be a mapping of one or more channels: ${CHANNELS.join(', ')}`);
  }
  if (problems.length) {
    const [first, ...rest] = problems;
    throw new UsageError(`invalid delivery file: ${first}`, { details: rest.map((p) => `  also: ${p}`) });
  }
}
