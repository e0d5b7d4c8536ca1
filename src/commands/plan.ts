import { defineVerb } from '../cli/command.js';
import { maskSecrets } from '../lib/secrets.js';
import { ExitCode } from '../errors.js';
import { planText } from '../account/render.js';
import { asCodeDocument } from '../account/document.js';
import { ASSUME_OPTION, FILE_OPTION, planOfFile } from '../account/plan-file.js';

export default defineVerb({
  name: 'plan',
  summary: 'Show what would change to make the account match a file (--detailed-exitcode: exit 10 when it differs)',
  description:
    'Reads the account (GET requests only, and POST /v1/squid/estimate, which changes nothing, for each squid whose ' +
    'schedule the file turns on) and prints, field by field, what differs from the file: squids to create ' +
    'or change, tasks to add (or delete, with prune: true), delivery channels, the automatic billing reset. A squid ' +
    'the file makes active with a schedule starts runs, each charged: the plan shows the schedule, its next run and ' +
    "one run's estimate (scheduled_run). Secrets are masked. not_compared lists the delivery channels otherwise unchanged whose secrets (or a URL whose " +
    '${ENV} is not set) could not be compared, or whose fields --assume-unchanged names: apply sends nothing for them. ' +
    'More: sq help account-file (the file, and the fields the API does not read back), sq help plan-json (--json).\n\n' +
    'Exit codes: 0 the plan was made (changes or not), 2 the file is invalid (every problem named by its path, ' +
    'before any request), 1/3/4/5 as for any command. With --detailed-exitcode (as `terraform plan ' +
    '-detailed-exitcode`): 0 no change, 10 whenever apply would send something (a field that cannot be read back ' +
    'and that sq never applied included).  Under `bash -e` or in a ' +
    'CI step, write `sq plan -f sq.yaml --detailed-exitcode || [ $? -eq 10 ]` to go on when there are changes, or ' +
    'test `$?` after `set +e`.',
  options: [
    FILE_OPTION,
    { flags: '--detailed-exitcode', description: 'exit 10 when apply would send something (0: nothing)' },
    ASSUME_OPTION,
  ],
  examples: [
    'sq plan -f sq.yaml',
    'sq plan -f sq.yaml --json | jq .summary',
    'sq plan -f sq.yaml --detailed-exitcode || [ $? -eq 10 ]',
    'sq export > sq.yaml && sq plan -f sq.yaml --detailed-exitcode',
  ],
  async run(ctx, _args, opts) {
    const { plan, steps } = await planOfFile(ctx, opts);
    // Passwords are masked by the diff; webhook and sheet URLs carry their tokens in the query, or (a value from
    // \${VAR}) anywhere.
    const mask = <T>(v: T): T => maskSecrets(v, ctx.globals.showSecrets, ctx.secrets()) as T;
    if (ctx.out.spec.json === 'document') await ctx.out.json(mask(asCodeDocument(plan, steps)));
    else ctx.out.text(planText(mask(plan)));
    return opts.detailedExitcode && plan.items.length ? ExitCode.CHANGES : ExitCode.OK;
  },
});
