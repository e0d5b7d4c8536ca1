import { defineVerb } from '../command.js';
import { interruptedBatch, PartialFailureError } from '../errors.js';
import { planText } from '../account/render.js';
import { maskSecrets } from '../output/secrets.js';
import { applySteps, NOT_SENT_INTERRUPTED, preflight, printPlannedSteps } from '../account/apply.js';
import { FILE_HELP, FILE_OPTION, planOfFile } from './plan.js';

export default defineVerb({
  name: 'apply',
  summary: 'Make the account match a file: squids, tasks, delivery, billing (idempotent, for CI)',
  description:
    'Computes the plan (see `sq plan`), then sends it in a safe order: squids are created and updated first, then ' +
    'tasks, then delivery channels, then deletions (prune), and the automatic billing reset last. A second apply ' +
    'sends nothing. --dry-run prints the requests and sends nothing.\n\n' +
    'Before the first write: every ${ENV} secret that a changed delivery channel needs must be set (else exit 2). ' +
    'Deleting (prune: true in the file) and a billing change that can charge more than before (turning it on, a ' +
    'lower threshold, more resets; each reset charges the card on file) ask for confirmation on a terminal; scripts ' +
    'pass --yes (without a terminal and without --yes nothing is sent, exit 2).\n\n' +
    'Report: one line per item on stderr (applied / failed / skipped); with --json, {applied, failed, skipped, items} ' +
    'on stdout. A failed item does not stop the others, except those that need a squid that could not be created. ' +
    'Exit 0 when every item was applied, 8 when some failed (the others are listed), the error\'s own code when the ' +
    'only item failed; a stop signal sends nothing more and exits 130 (Ctrl-C), 143 (SIGTERM) or 129 (SIGHUP) with the ' +
    'same report.\n\n' +
    FILE_HELP,
  options: [FILE_OPTION],
  examples: ['SFTP_PASSWORD=... sq apply -f sq.yaml --yes', 'sq apply -f sq.yaml --dry-run', 'sq apply -f sq.yaml --json --yes'],
  async run(ctx, _args, opts) {
    const { plan, steps } = await planOfFile(ctx, opts);
    const json = ctx.outputSettings().format === 'json';
    if (steps.length === 0) {
      if (json) await ctx.out.json({ applied: 0, failed: 0, skipped: 0, items: [] });
      // Secrets that could not be compared are said, as sq plan says them: a channel left as it is is not a match.
      if (plan.not_compared.length) ctx.out.info(`${planText(maskSecrets(plan, ctx.globals.showSecrets, ctx.secrets()))}Nothing was sent.`);
      else ctx.out.info('No changes: the account matches the file; nothing was sent.');
      return;
    }
    const http = await ctx.http();
    await preflight(ctx, steps, http.sendsWrites);
    if (!http.sendsWrites) {
      ctx.out.info(planText(maskSecrets(plan, ctx.globals.showSecrets, ctx.secrets())).trimEnd());
      await printPlannedSteps(ctx, steps);
      return;
    }
    const reports = await applySteps(ctx, http, steps);
    const n = (st: string) => reports.filter((r) => r.status === st).length;
    if (json) await ctx.out.json(maskSecrets({ applied: n('applied'), failed: n('failed'), skipped: n('skipped'), items: reports }, ctx.globals.showSecrets, ctx.secrets()));
    const bad = reports.filter((r) => r.status !== 'applied');
    if (bad.length === 0) {
      ctx.out.success(`Applied ${reports.length} change${reports.length === 1 ? '' : 's'}`);
      return;
    }
    const details = bad.map((r) => `  ${r.status}: ${r.kind}${r.channel ? ` ${r.channel}` : ''}${r.squid ? ` of "${r.squid}"` : ''}: ${r.error}`);
    if (ctx.signal.aborted) {
      const unsent = reports.filter((r) => r.error === NOT_SENT_INTERRUPTED).length;
      const summary = `${n('applied')} of ${reports.length} changes applied, ${n('failed')} failed, ${unsent} not sent${n('skipped') > unsent ? `, ${n('skipped') - unsent} skipped` : ''}; running sq apply again sends what is still missing`;
      throw interruptedBatch(ctx.signal.reason, summary, details);
    }
    const only = reports.length === 1 ? bad[0].cause : undefined;
    if (only) {
      only.message = bad[0].error ?? only.message;
      throw only;
    }
    throw new PartialFailureError(`${n('failed')} of ${reports.length} changes failed${n('skipped') ? `, ${n('skipped')} skipped` : ''}; ${n('applied')} applied`, { details });
  },
});
