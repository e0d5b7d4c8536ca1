import { defineVerb } from '../../cli/command.js';
import { idOf, PREFIX_NOTE, RUN_SQUID_OPTION } from '../_shared/ref.js';
import { WAIT_OPTIONS, waitAndShow, waitSettings } from '../../run/wait.js';
import { openWeb, WEB_OPTION } from '../../cli/browser.js';
import { pickRunInProgress } from './_shared/latest.js';

export default defineVerb({
  name: 'watch',
  summary: 'Wait for a run to finish and its export to be ready, showing progress',
  description:
    'Poll a run until it ends and its export is ready, showing a progress bar on a terminal (a plain line per change otherwise) ' +
    'with, while paused or after an error, the reason right after the state (done_reason: done_reason_desc), then the ' +
    'percentage and the ETA once the API knows them; then print ' +
    'the final run, whatever the outcome (with --json, one document a script can read the status and done_reason from). ' +
    'Exit 6 if the run ends in error or aborted, 7 on --timeout (the run as it then stood is printed); Ctrl-C stops watching, not the run. ' +
    'Without <run>: the run in progress (pending, running, paused or uploading) of --squid, or of the account; when ' +
    'several are, a choice on a terminal, and in a script exit 2 listing them; none is exit 3. ' +
    `<run> ${PREFIX_NOTE}. --web opens the run's page in the dashboard instead of watching here.`,
  args: ['[run]'],
  options: [RUN_SQUID_OPTION, ...WAIT_OPTIONS, WEB_OPTION],
  examples: [
    'sq runs watch <run>',
    'sq runs watch --squid "Paris restaurants"',
    'sq runs watch <run> --timeout 30m --json',
  ],
  async run(ctx, [ref], opts) {
    const settings = await waitSettings(ctx, opts);
    const id =
      ref === undefined
        ? await pickRunInProgress(ctx, await ctx.http(), opts.squid)
        : await idOf(ctx, 'run', ref, opts);
    if (opts.web) return void (await openWeb(ctx, { kind: 'run', id }));
    const http = await ctx.http();
    await waitAndShow(ctx, http, id, settings);
  },
});
