// --dry-run: show the request a write would send, secrets masked, and send nothing.
import type { Ctx } from './context.js';
import type { PlannedRequest } from '../errors.js';
import { MASK, maskSecrets } from '../lib/secrets.js';

function dryRunRecord(ctx: Ctx, req: PlannedRequest): Record<string, unknown> {
  return {
    method: req.method,
    path: req.path,
    body: maskSecrets(maskCookies(req.body ?? null), ctx.globals.showSecrets, ctx.secrets()),
  };
}

/** Session cookies (accounts sync) are masked even with --show-secrets: a plan shows their names only. */
function maskCookies(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !('cookies' in body) || !body.cookies || typeof body.cookies !== 'object')
    return body;
  return { ...body, cookies: Object.fromEntries(Object.keys(body.cookies).map((k) => [k, MASK])) };
}

/**
 * One or more planned requests: JSON/NDJSON for scripts, readable text otherwise. Always on stdout. The JSON shape does
 * not depend on how many requests there are: always `{dry_run: true, requests: [{method, path, body}, …]}`; NDJSON is
 * one request per line, each saying `dry_run: true` itself (a line is read alone).
 */
export async function printPlanned(ctx: Ctx, reqs: PlannedRequest[]): Promise<void> {
  const { json } = ctx.out.spec;
  const recs = reqs.map((r) => dryRunRecord(ctx, r));
  if (json === 'document') {
    await ctx.out.json({ dry_run: true, requests: recs });
  } else if (json === 'lines') {
    ctx.out.text(recs.map((r) => JSON.stringify({ dry_run: true, ...r })).join('\n') + '\n');
  } else {
    for (const r of recs) {
      ctx.out.text(`${r.method} ${r.path}\n${r.body === null ? '' : `${JSON.stringify(r.body, null, 2)}\n`}`);
    }
  }
  ctx.out.info('Dry run: nothing was sent.');
}

/** --dry-run on a change to the local profile file: what would change, on stderr; nothing is written. */
export function dryRunLocal(ctx: Ctx, change: string): void {
  ctx.out.info(`Dry run: would ${change}; nothing was changed.`);
}
