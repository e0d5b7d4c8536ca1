import { defineVerb } from '../command.js';
import { UsageError } from '../errors.js';
import { enumFlag } from '../validate/index.js';
import { readInput } from '../io/stdin.js';
import { printDryRun } from '../io/dry-run.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

export default defineVerb({
  name: 'api',
  summary: 'Make an authenticated API request (same auth, pacing and retries as every command)',
  description:
    'Sends a request to <path> on the API (a leading /v1 is added when missing) and prints the JSON response. ' +
    '-f key=value adds a string field, -F key=value a typed one (JSON when the value is valid JSON); on GET they ' +
    'become query parameters, otherwise a JSON body. The method defaults to GET, or POST when a body or fields are given (always GET with --paginate). ' +
    '--paginate follows every page of a list endpoint and prints all records as one JSON array (or NDJSON lines ' +
    'with --format ndjson).',
  args: ['<path>'],
  options: [
    { flags: '-X, --method <method>', description: 'HTTP method', choices: METHODS },
    { flags: '-f, --raw-field <key=value>', description: 'string field (repeatable)', repeatable: true },
    { flags: '-F, --field <key=value>', description: 'typed field: JSON if it parses, else a string (repeatable)', repeatable: true },
    { flags: '--input <file>', description: 'request body from a file ("-" for stdin)' },
    { flags: '--paginate', description: 'follow every page of a list endpoint' },
  ],
  examples: [
    'sq api /v1/me',
    'sq api squids -f name=Paris',
    'sq api /v1/results -f squid=<hash> --paginate --format ndjson',
    'sq api /v1/squids/<hash> -X POST -F concurrency=2',
    'sq api /v1/plans/auto-reset --input body.json',
  ],
  async run(ctx, [rawPath], opts) {
    const path = normalisePath(rawPath);
    const fields: Record<string, unknown> = {};
    for (const kv of (opts.rawField as string[] | undefined) ?? []) Object.assign(fields, splitKv(kv, '-f', false));
    for (const kv of (opts.field as string[] | undefined) ?? []) Object.assign(fields, splitKv(kv, '-F', true));
    let body: unknown;
    if (opts.input !== undefined) {
      const text = await readInput(ctx, '--input', String(opts.input));
      try {
        body = JSON.parse(text);
      } catch {
        throw new UsageError('--input must contain JSON');
      }
    }
    const hasFields = Object.keys(fields).length > 0;
    // Like gh api: fields make a POST unless told otherwise; --paginate only makes sense as a GET.
    const method = opts.method
      ? enumFlag('--method', String(opts.method).toUpperCase(), METHODS)
      : opts.paginate || (body === undefined && !hasFields)
        ? 'GET'
        : 'POST';
    if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
    const query = method === 'GET' || method === 'HEAD' ? (fields as Record<string, string>) : undefined;
    if (method !== 'GET' && method !== 'HEAD' && hasFields) body = { ...(body as object), ...fields };

    if (ctx.globals.dryRun && method !== 'GET' && method !== 'HEAD') {
      const http = await ctx.http();
      printDryRun(ctx, method, http.url(path, query).toString(), body);
      return;
    }
    const http = await ctx.http();
    if (opts.paginate) {
      const { items } = await import('../api/pages.js');
      await ctx.out.list(items(http, path, { query, onWarning: (w) => ctx.out.warn(w) }), { maskSecrets: !ctx.globals.showSecrets });
      return;
    }
    const res = await http.request(method, path, { query, body });
    const settings = ctx.outputSettings();
    // An asked-for format (--json included) goes through the output module, with --fields and masking; by default
    // the body is printed as pretty JSON, like gh api.
    if (settings.explicitFormat) await ctx.out.record(res.data);
    else ctx.out.text(`${JSON.stringify(ctx.globals.showSecrets ? res.data : (await import('../output/secrets.js')).maskSecrets(res.data, false), null, 2)}\n`);
  },
});

function normalisePath(p: string): string {
  if (/^https?:\/\//i.test(p)) throw new UsageError('<path> is a path on the API (e.g. /v1/squids), not a full URL; use --base-url to pick the server');
  const withSlash = p.startsWith('/') ? p : `/${p}`;
  return withSlash.startsWith('/v1/') || withSlash === '/v1' ? withSlash : `/v1${withSlash}`;
}

function splitKv(kv: string, flag: string, typed: boolean): Record<string, unknown> {
  const i = kv.indexOf('=');
  if (i <= 0) throw new UsageError(`${flag} takes key=value (got "${kv}")`);
  const key = kv.slice(0, i);
  const raw = kv.slice(i + 1);
  if (!typed) return { [key]: raw };
  try {
    return { [key]: JSON.parse(raw) };
  } catch {
    return { [key]: raw };
  }
}
