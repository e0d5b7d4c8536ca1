// --dry-run: show the request a write would send, secrets masked, and send nothing.
import type { Ctx } from '../context.js';
import { maskSecrets } from '../output/secrets.js';

export interface PlannedRequest {
  method: string;
  /** Path with query, e.g. /v1/delivery?squid=abc */
  path: string;
  body?: unknown;
}

export function dryRunRecord(ctx: Ctx, req: PlannedRequest): Record<string, unknown> {
  return { dry_run: true, method: req.method, path: req.path, body: maskSecrets(req.body ?? null, ctx.globals.showSecrets) };
}

export function printDryRun(ctx: Ctx, method: string, url: string, body?: unknown): void {
  const u = new URL(url);
  printPlanned(ctx, [{ method, path: u.pathname + u.search, body }]);
}

/** One or more planned requests: JSON/NDJSON for scripts, readable text otherwise. Always on stdout. */
export function printPlanned(ctx: Ctx, reqs: PlannedRequest[]): void {
  const fmt = ctx.outputSettings().format;
  const recs = reqs.map((r) => dryRunRecord(ctx, r));
  if (fmt === 'json') {
    ctx.out.json(recs.length === 1 ? recs[0] : recs);
  } else if (fmt === 'ndjson') {
    ctx.out.text(recs.map((r) => JSON.stringify(r)).join('\n') + '\n');
  } else {
    for (const r of recs) {
      ctx.out.text(`${r.method} ${r.path}\n${r.body === null ? '' : `${JSON.stringify(r.body, null, 2)}\n`}`);
    }
  }
  ctx.out.info('Dry run: nothing was sent.');
}
