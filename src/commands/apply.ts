import { defineVerb } from '../cli/command.js';
import { runApply } from '../account/apply.js';
import { FILE_HELP, FILE_OPTION, JSON_HELP, planOfFile } from '../account/plan-file.js';
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
    'Report: one line per item on stderr (applied / failed / skipped). ' +
    JSON_HELP +
    ' A failed item does not stop the others, except those that need a squid that could not be created. ' +
    "Exit 0 when every item was applied, 8 when some failed (the others are listed), the error's own code when the " +
    'only item failed; a stop signal sends nothing more and exits 130 (Ctrl-C), 143 (SIGTERM) or 129 (SIGHUP) with ' +
    'the same report.\n\n' +
    'Spending: a squid the file makes active with a schedule (active: true, schedule: {cron, timezone}) starts runs on ' +
    'it, each charged. The plan shows, per such squid, the schedule, its next run and one run\'s estimate now ' +
    '(scheduled_run in --json). apply turns the schedule on last for that squid, after its params and tasks: it says ' +
    'the estimate of one run then (POST /v1/squid/estimate), and with a cap (--max-credits, SQ_MAX_CREDITS or `sq ' +
    'config set max-credits N`) a run estimated above it leaves the schedule off (that item fails; exit 9); on a ' +
    'terminal, a run above `confirm-above` (default 100 credits) or that would set off an Auto Billing Reset asks ' +
    'y/N first (--yes skips it); off a terminal, one that would set off an Auto Billing Reset needs --yes (exit 9). A ' +
    'chain that starts its target\'s runs by itself (autostart) is held to the same cap and question before it is ' +
    'written, as `sq squids chain set` holds it. The squid\'s other changes are applied either way.\n\n' +
    FILE_HELP,
  options: [FILE_OPTION, MAX_CREDITS_OPTION],
  examples: ['SFTP_PASSWORD=... sq apply -f sq.yaml --yes', 'sq apply -f sq.yaml --dry-run', 'sq apply -f sq.yaml --json --yes | jq .summary'],
  async run(ctx, _args, opts) {
    const policy = await spendPolicy(ctx, opts.maxCredits);
    const { plan, steps } = await planOfFile(ctx, opts);
    await runApply(ctx, await ctx.http(), plan, steps, policy);
  },
});
