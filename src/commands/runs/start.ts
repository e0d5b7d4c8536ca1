import { defineVerb } from '../../cli/command.js';
import type { HttpClient } from '../../api/http.js';
import { AmbiguousWriteError, InterruptedWriteError } from '../../api/http.js';
import { listRunPages, startRun, type Run } from '../../api/runs.js';
import { resolveSquid } from '../../api/resolve.js';
import { ApiError, UsageError } from '../../errors.js';
import { required } from '../../validate/index.js';
import { WAIT_OPTIONS, waitAndShow, waitSettings } from '../_shared/wait.js';

export default defineVerb({
  name: 'start',
  writes: true,
  summary: 'Start a run of a squid; --wait follows it to the end',
  description:
    'Start a run (POST /v1/runs). The request is never retried once it may have reached the server (it would start a second ' +
    'run): after such a failure, or Ctrl-C while it is in flight (exit 130), sq lists the squid\'s most recent runs so you ' +
    'can see whether one started (the server may still start one that is not listed yet). With --wait, ' +
    'follow the run like `sq runs watch` and print it as it ended (exit 6 on error/aborted, 7 on --timeout, the run printed either way).',
  options: [
    { flags: '--squid <squid>', description: 'squid id, id prefix or exact name (required)', complete: 'squid' },
    { flags: '--wait', description: 'wait until the run is done and its export is ready' },
    ...WAIT_OPTIONS,
  ],
  examples: ['sq runs start --squid "Paris restaurants"', 'sq runs start --squid "Paris restaurants" --wait --timeout 1h'],
  async run(ctx, _args, opts) {
    const ref = required('--squid', opts.squid, 'the squid to run');
    const wait = opts.wait === true;
    // As in tasks upload and accounts sync: a waiting flag without --wait would be checked and then ignored.
    for (const f of ['timeout', 'interval'] as const) if (opts[f] !== undefined && !wait) throw new UsageError(`--${f} only applies with --wait`);
    const settings = wait ? await waitSettings(ctx, opts) : null;
    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    let run: Run;
    try {
      run = await startRun(http, squid.id);
    } catch (err) {
      if (err instanceof AmbiguousWriteError) throw await explainAmbiguous(http, squid.id, err);
      if (err instanceof ApiError && err.status === 400 && /SquidNotReady|not ready/i.test(err.message)) {
        err.details.push(
          `The squid's parameters are not set yet (the service wants them set before the first run, even when all are ` +
            `optional): \`sq squids get ${squid.id}\` shows its crawler, \`sq crawlers params <crawler>\` lists the ` +
            'parameters, and `sq squids update ' + squid.id + ' --param name=value` sets them.',
        );
      }
      throw err;
    }
    const id = String(run.id ?? '');
    if (!wait || !settings) {
      await ctx.out.record(run, { title: `Run ${id}` });
      ctx.out.success(`Started run ${id}; follow it with \`sq runs watch ${id}\``);
      return;
    }
    ctx.out.info(`Started run ${id} of squid ${squid.name || squid.id}`);
    await waitAndShow(ctx, http, id, settings);
  },
});

/**
 * The POST may have started a run: show the newest runs so the user can tell, instead of guessing or retrying. The
 * error keeps its class and exit code (1, or 130 when Ctrl-C cut the POST short).
 */
async function explainAmbiguous(http: HttpClient, squidId: string, err: AmbiguousWriteError): Promise<AmbiguousWriteError> {
  // After Ctrl-C the client is stopped; one short read still goes out (a second Ctrl-C ends sq at once).
  const reader = err instanceof InterruptedWriteError ? http.afterStop() : http;
  const details: string[] = [];
  try {
    const first = await listRunPages(reader, squidId, { pageSize: 5, maxItems: 5 }).next();
    const runs = first.done ? [] : first.value.data;
    // The server may still be working on the POST: an empty list now proves nothing.
    if (runs.length === 0) details.push(`No run of squid ${squidId} is listed yet, but the server may still start one.`);
    else {
      details.push(`Most recent runs of squid ${squidId} (a new one here means the run did start):`);
      for (const r of runs) details.push(`  ${String(r.id)}  ${String(r.status ?? '')}  created ${String(r.created_at ?? '')}`);
    }
  } catch (e) {
    details.push(`Could not list the squid's runs to check (${(e as Error).message}); run: sq runs list --squid ${squidId}`);
  } finally {
    if (reader !== http) await reader.close();
  }
  details.push(`Check again with \`sq runs list --squid ${squidId}\` before starting another.`);
  err.message = `starting the run failed and it may have started anyway: ${err.message}`;
  err.details.push(...details);
  return err;
}
