import { defineVerb } from '../cli/command.js';
import { SqError, UsageError } from '../errors.js';
import { enumFlag } from '../validate/index.js';
import { apiPath } from '../api/path.js';
import { readInput } from '../cli/stdin.js';
import { isSecretKey, MASK, maskSecrets, secretValues } from '../lib/secrets.js';
import type { Ctx } from '../cli/context.js';
import { importPackage } from '../import-package.js';
import { MAX_CREDITS_OPTION } from '../billing/cap-option.js';
import { creditsValue } from '../config/settings.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

export default defineVerb({
  name: 'api',
  summary: 'Make an authenticated API request (same auth, pacing and retries)',
  description:
    'Sends a request to <path> on the API (a leading /v1 is added when missing) and prints the JSON response. ' +
    '-f key=value adds a string field, -F key=value a typed one (JSON when the value is valid JSON; a number JSON ' +
    'cannot carry exactly, like a 20-digit id, is refused: send it with -f); on GET they ' +
    'become query parameters, otherwise a JSON body. The method defaults to GET, or POST when a body or fields are given (always GET with --paginate). ' +
    '--paginate follows every page of a list endpoint and prints all records as one JSON array (or NDJSON lines ' +
    'with --format ndjson). -H adds a request header (not Authorization: the key comes from SQ_TOKEN or the profile, ' +
    'never from the command line); header values named like secrets are masked in --verbose traces. -i prints the ' +
    'HTTP status line and the response headers before the body (secret-looking ones masked unless --show-secrets), ' +
    'also for a 4xx answer, which still exits with its error code. --jq/--template filter the body like any --json output.\n\n' +
    'A request that spends is guarded as the verb that sends it is: POST /v1/runs (sq runs start), POST /v1/squids/{id} turning a ' +
    'schedule on (squids update --schedule), POST or PATCH /v1/squids/{id}/chain (squids chain set): the estimate on ' +
    "stderr, the cap (--max-credits, SQ_MAX_CREDITS or the profile's; exit 9, nothing sent), --yes off a terminal for " +
    'a card charge. A POST to /v1/plans/auto-reset that can charge more asks as sq billing auto-reset does.',
  args: ['<path>'],
  options: [
    { flags: '-X, --method <method>', description: 'HTTP method', choices: METHODS },
    { flags: '-f, --raw-field <key=value>', description: 'string field (repeatable)', repeatable: true },
    {
      flags: '-F, --field <key=value>',
      description: 'typed field: JSON if it parses, else a string (repeatable)',
      repeatable: true,
    },
    { flags: '--input <file>', description: 'request body from a file ("-" for stdin)' },
    { flags: '--paginate', description: 'follow every page of a list endpoint' },
    { flags: '-H, --header <key:value>', description: 'add a request header (repeatable)', repeatable: true },
    { flags: '-i, --include', description: 'print the HTTP status line and response headers before the body' },
    MAX_CREDITS_OPTION,
  ],
  examples: [
    'sq api /v1/me',
    'sq api squids -f name=Paris',
    'sq api /v1/results -f squid=<hash> --paginate --format ndjson',
    'sq api /v1/squids/<hash> -X POST -F concurrency=2',
    'sq api /v1/plans/auto-reset --input body.json',
    "sq api squids --jq '.data[].name'",
    "sq api -i -H 'Accept-Language: fr' /v1/me",
    'sq api /v1/runs -f squid=<hash> --max-credits 500',
  ],
  async run(ctx, [rawPath], opts) {
    const path = apiPath(rawPath);
    const fields: Record<string, unknown> = {};
    for (const kv of opts.rawField ?? []) Object.assign(fields, splitKv(kv, '-f', false));
    for (const kv of opts.field ?? []) Object.assign(fields, splitKv(kv, '-F', true));
    let body = opts.input === undefined ? undefined : await readJsonInput(ctx, String(opts.input));
    const headers = parseHeaders(ctx, opts.header ?? []);
    if (opts.include && opts.paginate)
      throw new UsageError('-i/--include shows one response; it cannot be combined with --paginate');
    const hasFields = Object.keys(fields).length > 0;
    // Like gh api: fields make a POST unless told otherwise; --paginate only makes sense as a GET.
    const method = opts.method
      ? enumFlag('--method', String(opts.method).toUpperCase(), METHODS)
      : opts.paginate || (body === undefined && !hasFields)
        ? 'GET'
        : 'POST';
    if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
    if (opts.maxCredits !== undefined) await checkMaxCredits(method, apiEndpoint(path), String(opts.maxCredits));
    const query = method === 'GET' || method === 'HEAD' ? (fields as Record<string, string>) : undefined;
    if (method !== 'GET' && method !== 'HEAD' && hasFields) body = { ...(body as object), ...fields };
    // A password sent in the body is scrubbed from every message too (a server's error may quote the body back).
    for (const s of secretValues(body)) ctx.addSecret(s);

    const http = await ctx.http();
    if (opts.paginate) {
      const { items } = await import('../api/pages.js');
      await ctx.out.list(items(http, path, { query, headers, onWarning: (w) => ctx.out.warn(w) }), {
        defaultFormat: 'json',
      });
      return;
    }
    // With -i a 4xx answer is shown like a 2xx one (head and body), then fails with its usual code. 429 stays with the
    // client's pacing, and 5xx with its retries.
    // Fields made the request a POST (no -X, no --input): a 405 then says so, and how to send them as a query.
    const madePost = !opts.method && body !== undefined && opts.input === undefined;
    if (method === 'POST' || method === 'PATCH') {
      const { guardRawWrite } = await import('./_shared/raw-spend.js');
      await guardRawWrite(ctx, http, method, apiEndpoint(path), body, opts.maxCredits);
    }
    try {
      const res = await http.request(method, path, {
        query,
        body,
        headers,
        okStatuses: opts.include ? CLIENT_ERRORS : undefined,
        expect: 'any',
      });
      if (opts.include) ctx.out.text(await responseHead(ctx, res.status, res.headers));
      // Pretty JSON unless a format is asked for, like gh api; --fields and masking as for any record.
      await ctx.out.record(res.data, { defaultFormat: 'json' });
      if (res.status >= 400) {
        const { httpError } = await import('../api/http-errors.js');
        throw httpError(
          res.status,
          JSON.stringify(res.data),
          method,
          new URL(res.url),
          res.headers,
          method === 'GET' || method === 'HEAD',
        );
      }
    } catch (err) {
      if (madePost && err instanceof SqError && err.status === 405) err.details.push(postHint(rawPath, fields));
      throw err;
    }
  },
});

/** The body of --input FILE (or - for stdin): JSON, or exit 2. */
async function readJsonInput(ctx: Ctx, input: string): Promise<unknown> {
  const text = await readInput(ctx, '--input', input);
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError('--input must contain JSON');
  }
}

/** --max-credits: a number of credits, on a request that can start runs; exit 2 otherwise, before any request. */
async function checkMaxCredits(method: string, endpoint: string, value: string): Promise<void> {
  creditsValue('--max-credits', value);
  const { spendingEndpoint } = await import('./_shared/raw-spend.js');
  if (!spendingEndpoint(method, endpoint))
    throw new UsageError(
      '--max-credits applies to a request that starts runs (POST /v1/runs; POST /v1/squids/{id} turning a schedule on; POST or PATCH /v1/squids/{id}/chain) only',
    );
}

/** The path without its query or fragment, and without a trailing slash. */
function apiEndpoint(path: string): string {
  return path.split(/[?#]/)[0].replace(/\/+$/, '');
}

/** What a 405 says after -f/-F turned a GET into a POST. */
function postHint(path: string, fields: Record<string, unknown>): string {
  const example = Object.keys(fields)
    .slice(0, 2)
    .map((k) => `-f ${k}=…`)
    .join(' ');
  return (
    `hint: -f/-F made this a POST (fields are a JSON body unless the method is GET), and ${path} ` +
    `does not take POST. To send the fields as query parameters: sq api ${path} -X GET ${example}`
  );
}

const CLIENT_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i).filter((s) => s !== 429);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the HTTP client (undici) owns: it refuses most of them at request time, and the others frame the message. */
const OWN_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/** -H "Name: value" (gh's syntax): lower-cased names, so one cannot sneak past the client's own headers by case. */
function parseHeaders(ctx: Ctx, raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of raw) {
    const i = h.indexOf(':');
    const name = i > 0 ? h.slice(0, i).trim().toLowerCase() : '';
    if (!TOKEN.test(name)) throw new UsageError(`-H/--header takes "Name: value" (got "${h.split(':')[0]}…")`);
    if (name === 'authorization') {
      throw new UsageError(
        '-H Authorization is not accepted: a key on the command line is visible to other users (ps) ' +
          'and stays in your shell history. Use SQ_TOKEN or `sq auth login` (--profile to pick one)',
      );
    }
    if (OWN_HEADERS.has(name)) {
      throw new UsageError(
        `-H/--header ${name}: sq's HTTP client sets this header itself; ${[...OWN_HEADERS].join(', ')} cannot be given`,
      );
    }
    const value = h.slice(i + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new UsageError(`-H/--header ${name}: a value cannot contain a line break or NUL`);
    // What undici sends (else it fails at request time): tabs, printable ASCII and Latin-1. The value is not echoed.
    if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) {
      throw new UsageError(
        `-H/--header ${name}: a value can hold only printable ASCII, tabs and Latin-1 characters (no control characters, no characters beyond U+00FF)`,
      );
    }
    if (isSecretKey(name)) ctx.addSecret(value);
    out[name] = value;
  }
  return out;
}

/** "HTTP/1.1 200 OK" and the headers, sorted, in their usual capitalisation, with a blank line after (like curl -i). */
async function responseHead(
  ctx: Ctx,
  status: number,
  headers: Record<string, string | string[] | undefined>,
): Promise<string> {
  const { STATUS_CODES } = await importPackage<typeof import('node:http')>('node:http');
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()];
  for (const name of Object.keys(headers).sort()) {
    const shown = name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
    for (const v of ([] as (string | undefined)[]).concat(headers[name])) {
      if (v === undefined) continue;
      // A secret-named header whole; any other (Location, Link) as a URL whose secret query values are masked.
      lines.push(
        `${shown}: ${isSecretKey(name) && !ctx.globals.showSecrets && v !== '' ? MASK : maskSecrets(v, ctx.globals.showSecrets)}`,
      );
    }
  }
  return `${lines.join('\n')}\n\n`;
}

function splitKv(kv: string, flag: string, typed: boolean): Record<string, unknown> {
  const i = kv.indexOf('=');
  if (i <= 0) throw new UsageError(`${flag} takes key=value (got "${kv}")`);
  const key = kv.slice(0, i);
  const raw = kv.slice(i + 1);
  if (!typed) return { [key]: raw };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { [key]: raw };
  }
  // A number JSON cannot carry (an id of 20 digits, 1e400) would be sent rounded or as null, silently.
  if (typeof value === 'number' && (!Number.isFinite(value) || decimal(String(value)) !== decimal(raw.trim()))) {
    const became = Number.isFinite(value) ? `it would be sent as ${value}` : 'it is out of range';
    throw new UsageError(
      `${flag} ${key}: ${raw.trim()} cannot be sent exactly as a JSON number (${became}); use -f ${key}=${raw.trim()} to send it as a string`,
    );
  }
  return { [key]: value };
}

/** A JSON number's text as significant digits and exponent ("1.50e2" and "150" are both "15e1"), to compare values. */
function decimal(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return text;
  let digits = (m[2] + (m[3] ?? '')).replace(/^0+/, '');
  if (digits === '') return '0';
  let exp = Number(m[4] ?? 0) - (m[3]?.length ?? 0);
  const zeros = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - zeros);
  exp += zeros;
  return `${m[1]}${digits}e${exp}`;
}
