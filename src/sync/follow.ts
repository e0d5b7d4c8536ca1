// `sq results sync --follow`: after the first pass, waits for the next done run (a poll of the squid's runs every
// interval, or sooner when a run.done event arrives at --from-webhook PORT) and syncs it, until a stop signal.
import type { Ctx } from '../cli/context.js';
import { InterruptedError } from '../errors.js';
import { syncOnce, type Prepared, type SyncPlan, type SyncSummary } from './engine.js';

export interface FollowOptions {
  intervalMs: number;
  webhookPort?: number;
  /** Told when the receiver listens, and of each event that woke the loop. */
  onListening?: (url: string) => void;
  onWaiting?: () => void;
}

/**
 * Resolves when a stop signal arrives while nothing is being written (exit 0: every done run so far is in the table);
 * rejects with the InterruptedError when it arrives during a run's sync (after the page's commit: exit 130/143).
 */
export async function followSync(
  ctx: Ctx,
  p: Prepared,
  plan: SyncPlan,
  summary: SyncSummary,
  o: FollowOptions,
): Promise<void> {
  let wake: (() => void) | null = null;
  let woken = false;
  const listener =
    o.webhookPort === undefined ? null : await listen(ctx, p.squidId, o.webhookPort, () => ((woken = true), wake?.()));
  if (listener) {
    ctx.onCleanup(() => listener.close());
    o.onListening?.(listener.url);
  }
  for (;;) {
    await syncOnce(ctx, p, plan, summary);
    o.onWaiting?.();
    try {
      if (!woken) await Promise.race([ctx.sleep(o.intervalMs), new Promise<void>((res) => (wake = res))]);
    } catch (err) {
      if (err instanceof InterruptedError || ctx.signal.aborted) return;
      throw err;
    } finally {
      wake = null;
      woken = false;
    }
    if (ctx.signal.aborted) return;
  }
}

async function listen(ctx: Ctx, squidId: string, port: number, onDone: () => void) {
  const { startListener } = await import('../webhook/server.js');
  return startListener({
    host: '127.0.0.1',
    port,
    path: '/',
    events: new Set(['run.done']),
    onEvent: (e) => {
      if (e.squid?.id === squidId) onDone();
    },
    onInvalid: (reason, from) => ctx.out.warn(`--from-webhook: refused a request from ${from}: ${reason}`),
    onForwardError: () => {},
  });
}
