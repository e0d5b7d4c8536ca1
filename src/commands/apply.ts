import { defineVerb } from '../cli/command.js';
import { runApply } from '../account/apply.js';
import { ASSUME_OPTION, FILE_OPTION, planOfFile } from '../account/plan-file.js';
import { MAX_CREDITS_OPTION, spendPolicy } from '../billing/guard.js';

export default defineVerb({
  name: 'apply',
  writes: true,
  summary: 'Make the account match a file: squids, tasks, delivery, billing',
  description:
    'Computes the plan (see `sq plan`) and shows it on stderr, then sends it in a safe order: squids are created and ' +
    'updated first, then tasks, then delivery channels, then deletions (prune), and the automatic billing reset last. ' +
    'A second apply sends nothing. --dry-run shows the plan and the requests and sends nothing.\n\n' +
    'Before the first write: every ${ENV} secret that a changed delivery channel needs must be set (else exit 2). ' +
    'On a terminal, apply shows the plan and asks once; --yes applies without asking. Without a terminal (a script, ' +
    'CI) and without --yes, a plan is applied unless it holds a change that needs --yes: deleting (prune: true in the ' +
    'file) or a billing change that can charge more than before (turning it on, a lower threshold, more resets; each ' +
    'reset charges the card on file). Then the plan is shown, those changes are named, nothing is sent, exit 2.\n\n' +
    'Report: one line per item on stderr (applied / failed / skipped); a failed item does not stop the others, except ' +
    'those that need a squid that could not be created. Exit 0 when every item was applied, 8 when some failed, the ' +
    "error's own code when the only item failed; a stop signal sends nothing more and exits 130, 143 or 129.\n\n" +
    'More: sq help account-file (the file), sq help plan-json (--json), sq help spending (a schedule the file turns on).',
  options: [FILE_OPTION, MAX_CREDITS_OPTION, ASSUME_OPTION],
  examples: [
    'SFTP_PASSWORD=... sq apply -f sq.yaml --yes',
    'sq apply -f sq.yaml --dry-run',
    'sq apply -f sq.yaml --json --yes | jq .summary',
  ],
  async run(ctx, _args, opts) {
    const policy = await spendPolicy(ctx, opts.maxCredits);
    const { plan, steps, applied } = await planOfFile(ctx, opts);
    await runApply(ctx, await ctx.http(), plan, steps, policy, applied);
  },
});
