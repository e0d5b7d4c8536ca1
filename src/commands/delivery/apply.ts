import { defineVerb } from '../../cli/command.js';
import { runApply } from '../../account/apply.js';
import { pathOf, type Desired } from '../../account/file.js';
import { ASSUME_OPTION, planOfFile } from '../../account/plan-file.js';
import { refuseProblems } from '../../errors.js';

export default defineVerb({
  name: 'apply',
  writes: true,
  summary: 'Apply delivery settings for many squids from a YAML/JSON file (idempotent, for CI)',
  description:
    'Declarative delivery configuration: describe the wanted state in a file; apply sends only what differs. This is ' +
    '`sq apply` limited to delivery: the same plan, order, report and --json document. The account is read (GET ' +
    'requests only) and only channels that differ are sent (POST /v1/delivery?squid=); a second apply sends nothing. ' +
    'On a terminal apply asks once (--yes does not ask); without a terminal it applies. Exit 0 when every channel was ' +
    "applied, 8 when some failed, the error's own code when the only channel failed.\n\n" +
    'More: sq help account-file (the file format, ${NAME} secrets, the fields the API does not read back), ' +
    'sq help plan-json (--json).',
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
    const { plan, steps, applied } = await planOfFile(ctx, opts, {
      findOnly: true,
      force: !!opts.force,
      limit: deliveryOnly,
      allowMissingSecrets: false,
    });
    await runApply(ctx, await ctx.http(), plan, steps, undefined, applied);
  },
});

const CHANNELS = ['sftp', 'webhook', 'email', 'sheet', 's3'];

/** What `sq delivery apply` manages: squids that exist, and their delivery channels; anything else is `sq apply`'s. */
function deliveryOnly(want: Desired): void {
  const problems: string[] = [];
  const elsewhere = 'sq delivery apply manages delivery channels only; use `sq apply` for the rest';
  if (!want.managesSquids)
    problems.push('squids: is required: a mapping from squid (name, hash prefix or hash) to its delivery channels');
  else if (want.squids.length === 0) problems.push('squids: lists no squid');
  if (want.prune) problems.push(`prune: ${elsewhere}`);
  if (want.billing) problems.push(`billing: ${elsewhere}`);
  for (const s of want.squids) {
    for (const k of Object.keys(s.spec)) {
      if (!CHANNELS.includes(k) && (s.spec as Record<string, unknown>)[k] !== undefined)
        problems.push(`${pathOf(['squids', s.ref, k])}: ${elsewhere}`);
    }
    if (s.channels.length === 0)
      problems.push(`${pathOf(['squids', s.ref])}: must be a mapping of one or more channels: ${CHANNELS.join(', ')}`);
  }
  refuseProblems(problems, 'invalid delivery file: ');
}
