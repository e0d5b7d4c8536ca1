import { defineVerb } from '../../cli/command.js';
import type { HttpClient } from '../../api/http.js';
import { AmbiguousWriteError, InterruptedWriteError } from '../../api/http.js';
import { listRunPages, runStatus, startRun } from '../../api/runs.js';
import type { Run } from '../../api/records.js';
import { startRunWithKey, type RunOnce } from '../../run/once.js';
import { idempotencyPath } from '../../io/go-record.js';
import { cacheDir } from '../../lib/cache-dir.js';
import { resolveSquid } from '../../api/resolve.js';
import { ApiError, UsageError } from '../../errors.js';
import { required, nonEmpty } from '../../validate/index.js';
import { WAIT_OPTIONS, waitAndShow, waitSettings } from '../../run/wait.js';
import { guardSpend, MAX_CREDITS_OPTION, prefetchSpend, spendPolicy } from '../../billing/guard.js';

export default defineVerb({
  name: 'start',
  writes: true,
  summary: 'Start a run of a squid; --wait follows it to the end',
  description:
    'Start a run (POST /v1/runs). The request is never retried once it may have reached the server (it would start a second ' +
    "run): after such a failure, or Ctrl-C while it is in flight (exit 130), sq lists the squid's most recent runs so you " +
    'can see whether one started (the server may still start one that is not listed yet). With --wait, ' +
    'follow the run like `sq runs watch` and print it as it ended (exit 6 on error/aborted, 7 on --timeout, the run printed either way). ' +
    'With --idempotency-key KEY, a rerun of the same command (after Ctrl-C, a kill, a CI retry) never starts a second run: sq records ' +
    "KEY before the POST and the run's id after it, and a rerun shows (or with --wait, waits for) that run; when the answer to the " +
    "POST was lost, it looks for the squid's runs created since, before starting one.\n\n" +
    'More: sq help spending (the estimate every start prints, --max-credits, the y/N, a card charge).',
  options: [
    { flags: '--squid <squid>', description: 'squid id, id prefix or exact name (required)', complete: 'squid' },
    { flags: '--wait', description: 'wait until the run is done and its export is ready' },
    {
      flags: '--idempotency-key <key>',
      description:
        'start at most one run for KEY: the run KEY started in the last 24 h (kept per profile in ' +
        'the cache directory) is shown, or waited for, instead of a new one, whatever state it is in',
    },
    ...WAIT_OPTIONS,
    MAX_CREDITS_OPTION,
  ],
  examples: [
    'sq runs start --squid "Paris restaurants"',
    'sq runs start --squid "Paris restaurants" --wait --timeout 1h',
    'sq runs start --squid "Paris restaurants" --max-credits 500',
    'sq runs start --squid "Paris restaurants" --wait --idempotency-key "nightly-$(date +%F)"',
  ],
  async run(ctx, _args, opts) {
    const ref = required('--squid', opts.squid, 'the squid to run');
    const wait = opts.wait === true;
    // As in tasks upload and accounts sync: a waiting flag without --wait would be checked and then ignored.
    for (const f of ['timeout', 'interval'] as const)
      if (opts[f] !== undefined && !wait) throw new UsageError(`--${f} only applies with --wait`);
    const settings = wait ? await waitSettings(ctx, opts) : null;
    const spend = await spendPolicy(ctx, opts.maxCredits);
    const key = opts.idempotencyKey === undefined ? undefined : idempotencyKey(opts.idempotencyKey);
    const http = await ctx.http();
    const keyFile = key === undefined ? undefined : idempotencyPath(cacheDir(ctx.env), http.keyId);
    if (key !== undefined && keyFile === undefined) {
      throw new UsageError(
        '--idempotency-key needs the cache directory, where the keys are kept (SQ_CACHE_DIR is empty, or there is no home directory): set SQ_CACHE_DIR',
      );
    }
    // The balance and the auto-reset settings are read beside the squid's lookup (a rerun under a key may start
    // nothing); the estimate goes once the lookup has given the id.
    const pre = key === undefined ? prefetchSpend(ctx, http, spend) : undefined;
    const squid = await resolveSquid(http, ref);
    const beforeStart = () => guardSpend(ctx, http, squid.id, spend, ref, pre);
    let run: Run;
    let how: RunOnce['how'] = 'started';
    try {
      if (key !== undefined)
        ({ run, how } = await startRunWithKey(http, squid.id, { key, file: keyFile!, now: Date.now(), beforeStart }));
      else {
        await beforeStart();
        run = await startRun(http, squid.id);
      }
    } catch (err) {
      if (err instanceof AmbiguousWriteError) throw await explainAmbiguous(http, squid.id, err);
      if (err instanceof ApiError && err.status === 400 && /SquidNotReady|not ready/i.test(err.message)) {
        err.details.push(
          `The squid's parameters are not set yet (the service wants them set before the first run, even when all are ` +
            `optional): \`sq squids get ${squid.id}\` shows its crawler, \`sq crawlers params <crawler>\` lists the ` +
            'parameters, and `sq squids update ' +
            squid.id +
            ' --param name=value` sets them.',
        );
      }
      throw err;
    }
    const id = String(run.id ?? '');
    // Under a key already used: the run it started, not a new one.
    const again =
      how === 'started'
        ? null
        : `Run ${id} was started with --idempotency-key ${key} (${runStatus(run) || 'status unknown'}); no new run started`;
    if (!wait || !settings) {
      await ctx.out.record(run, { title: `Run ${id}` });
      ctx.out.success(`${again ?? `Started run ${id}`}; follow it with \`sq runs watch ${id}\``);
      return;
    }
    ctx.out.info(again ?? `Started run ${id} of squid ${squid.name || squid.id}`);
    await waitAndShow(ctx, http, id, settings);
  },
});

/** A key of 1–200 printable characters (it names the run in the per-profile file). */
function idempotencyKey(v: string): string {
  const key = nonEmpty('--idempotency-key', v);
  if (key.length > 200 || /[\x00-\x1f\x7f-\x9f]/.test(key))
    throw new UsageError(`--idempotency-key must be 1 to 200 printable characters (got ${key.length} characters)`);
  return key;
}

/**
 * The POST may have started a run: show the newest runs so the user can tell, instead of guessing or retrying. The
 * error keeps its class and exit code (1, or 130 when Ctrl-C cut the POST short).
 */
async function explainAmbiguous(
  http: HttpClient,
  squidId: string,
  err: AmbiguousWriteError,
): Promise<AmbiguousWriteError> {
  // After Ctrl-C the client is stopped; one short read still goes out (a second Ctrl-C ends sq at once).
  const reader = err instanceof InterruptedWriteError ? http.afterStop() : http;
  const details: string[] = [];
  try {
    const first = await listRunPages(reader, squidId, { pageSize: 5, maxItems: 5 }).next();
    const runs = first.done ? [] : first.value.data;
    // The server may still be working on the POST: an empty list now proves nothing.
    if (runs.length === 0)
      details.push(`No run of squid ${squidId} is listed yet, but the server may still start one.`);
    else {
      details.push(`Most recent runs of squid ${squidId} (a new one here means the run did start):`);
      for (const r of runs)
        details.push(`  ${String(r.id)}  ${String(r.status ?? '')}  created ${String(r.created_at ?? '')}`);
    }
  } catch (e) {
    details.push(
      `Could not list the squid's runs to check (${(e as Error).message}); run: sq runs list --squid ${squidId}`,
    );
  } finally {
    if (reader !== http) await reader.close();
  }
  details.push(`Check again with \`sq runs list --squid ${squidId}\` before starting another.`);
  err.message = `starting the run failed and it may have started anyway: ${err.message}`;
  err.details.push(...details);
  return err;
}
