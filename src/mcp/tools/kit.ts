// What every tool of `sq mcp` is made of: the tool model (ToolDef, ToolEnv, ToolError), verbs' flags from a tool's
// arguments, compact answers, one paging scheme for every list, and the documents plan/apply read.
import type { ZodType } from 'zod';
import { pickFields } from '../../output/fields.js';
import { moreByEnvelope } from '../../api/pages.js';
import type { Page } from '../../api/records.js';
import type { KeyFile } from '../keys.js';
import type { Rec } from '../../lib/guards.js';
import { closest } from '../../lib/suggest.js';
import { MCP_DOC, refusedEnvText } from '../../account/delivery-file.js';

export type Z = typeof import('../sdk.js')['z'];
export type Shape = Record<string, ZodType>;
export type ToolArgs = Record<string, unknown>;

/** read: always served; write: with --allow-writes; all: deletes and the billing reset, --allow-writes=all or named. */
export type Access = 'read' | 'write' | 'all';

/** A tool's failure: the CLI's exit code and message; request_state when a write's fate is unknown. */
export class ToolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly details: string[] = [],
    readonly requestState?: 'not_sent' | 'unknown',
  ) {
    super(message);
  }
}

/** What a tool can do: run verbs, read the signed download URL, and the server's settings. */
export interface ToolEnv {
  /** `sq ARGV --json` in-process: its JSON (exit codes in `ok` are answers too); anything else throws ToolError. */
  verb(
    argv: string[],
    opts?: { stdin?: string; write?: boolean; ok?: number[]; env?: Record<string, string> },
  ): Promise<{ code: number; data: unknown; page?: Page<unknown> | null }>;
  /** The run's signed results URL (the user's own, short-lived), unmasked; null when its export is not ready. */
  downloadUrl(runId: string): Promise<string | null>;
  /** A file argument inside --root (refused without one, or outside it): its text, read once, and its real path. */
  rootFile(arg: string, name: string): Promise<{ text: string; path: string }>;
  /** Environment variables a write may read secrets from (--secret-env). */
  secretEnv: ReadonlySet<string>;
  /** needs_confirmation above this many credits (--confirm-above). */
  confirmAbove: number;
  /** Runs started by an idempotency_key, for this server's life. */
  keys: Map<string, Promise<Rec>>;
  /** Where an idempotency_key's squid and run outlive the server (src/mcp/keys.ts); null without a cache directory. */
  keyFile?: KeyFile | null;
  dryRun: boolean;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  access: Access;
  /** Write tools: it deletes or charges (MCP destructiveHint). */
  destructive?: boolean;
  /** Write tools: sending it twice does what sending it once does (MCP idempotentHint). */
  idempotent?: boolean;
  input(z: Z): Shape;
  /** The answer's keys (the outputSchema is this, open to more keys). */
  output(z: Z): Shape;
  run(t: ToolEnv, a: ToolArgs): Promise<Rec>;
}

/** A tool's input as the server checks it: strict, an unknown argument is an error naming the allowed ones. */
export function inputSchema(z: Z, tool: ToolDef): ZodType {
  const shape = tool.input(z);
  const allowed = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (iss: { code?: string; keys?: string[] }) =>
      iss.code === 'unrecognized_keys'
        ? `${tool.name} does not take ${(iss.keys ?? []).map((k) => JSON.stringify(k)).join(', ')}; its arguments are: ${allowed}`
        : undefined,
  });
}

/** The longest a tool waits for a run: an MCP client gives up on a request after 60 s by default. */
export const MAX_WAIT_S = 50;
/** Rows a list returns unless `limit` says otherwise. */
export const DEFAULT_ROWS = 20;

/** JSON-RPC's "invalid params": a tools/call whose arguments the tool does not take is answered with it. */
export const INVALID_PARAMS = -32602;

/**
 * The first argument of a call that `tool` does not take, as a JSON-RPC error naming it (a typo such as "nmae" was
 * silently ignored: the call then did something other than asked); null when every argument is the tool's.
 */
export function unknownArgument(
  tool: string,
  takes: readonly string[],
  args: unknown,
): (Error & { code: number }) | null {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return null;
  const extra = Object.keys(args).find((k) => !takes.includes(k));
  if (extra === undefined) return null;
  const near = closest(extra, takes, 1);
  const hint = near.length ? `; did you mean "${near[0]}"?` : '';
  const list = takes.length ? `it takes ${takes.map((k) => `"${k}"`).join(', ')}` : 'it takes no argument';
  return Object.assign(
    new Error(`Invalid arguments for tool ${tool}: unknown argument ${JSON.stringify(extra)}${hint} (${list})`),
    { code: INVALID_PARAMS },
  );
}

/** `--name=value` for each given value (the = form: a value starting with "-" stays a value). */
export function flags(pairs: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [flag, v] of Object.entries(pairs)) {
    if (v === undefined || v === null || v === false) continue;
    out.push(v === true ? flag : `${flag}=${String(v)}`);
  }
  return out;
}
export const str = (a: ToolArgs, k: string) => (typeof a[k] === 'string' ? (a[k] as string) : undefined);

/** Drops what carries nothing: null, '', [], {}, and icons and `object` tags (an agent pays for every byte). */
export function compact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(compact);
  if (v === null || typeof v !== 'object') return v;
  const out: Rec = {};
  for (const [k, x] of Object.entries(v as Rec)) {
    if (k === 'icon' || k === 'object') continue;
    const c = compact(x);
    if (c === null || c === undefined || c === '' || (typeof c === 'object' && Object.keys(c).length === 0)) continue;
    out[k] = c;
  }
  return out;
}
export const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (compact(v) as Rec) : {});

/** `sq ARGV --json` in-process, its answer as a compact record. */
export async function verbRec(t: ToolEnv, argv: string[], opts?: Parameters<ToolEnv['verb']>[1]): Promise<Rec> {
  return rec((await t.verb(argv, opts)).data);
}

/** A tool that takes no argument and answers the record `sq <argv…> --json` prints (status, balance…). */
export function verbRecord(argv: string[]): Pick<ToolDef, 'input' | 'output' | 'run'> {
  return { input: () => ({}), output: (z) => objOutput(z), run: (t) => verbRec(t, argv) };
}

// ---- paging: one opaque cursor for every list

export function encodeCursor(page: number, size: number): string {
  return Buffer.from(JSON.stringify({ p: page, s: size })).toString('base64url');
}
function decodeCursor(cursor: string, tool: string): { page: number; size: number } {
  try {
    const { p, s } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p: number; s: number };
    if (Number.isInteger(p) && Number.isInteger(s) && p >= 1 && s >= 1 && s <= 100) return { page: p, size: s };
  } catch {
    // reported below
  }
  throw new ToolError(2, `${tool}: "cursor" is not one that ${tool} returned (pass next_cursor as it came)`);
}
function pageOf(a: ToolArgs, tool: string): { page: number; size: number } {
  if (typeof a.cursor === 'string') return decodeCursor(a.cursor, tool);
  return { page: 1, size: typeof a.limit === 'number' ? a.limit : DEFAULT_ROWS };
}
export function fieldsOf(a: ToolArgs): string[] | undefined {
  const f = a.fields;
  if (Array.isArray(f) && f.length) return f.map(String);
  return undefined;
}
/** A page of a list verb as { items, next_cursor?, warning? }, rows compact and cut to `fields`. */
export async function listPage(
  t: ToolEnv,
  a: ToolArgs,
  tool: string,
  argv: string[],
  row: (r: Rec) => Rec = (r) => r,
  paged = true,
): Promise<Rec> {
  const { page, size } = pageOf(a, tool);
  const { data, page: seen } = await t.verb([...argv, `--limit=${size}`, ...(paged ? [`--page=${page}`] : [])]);
  // Anything but a list is no page (never an empty one that reads as the end).
  if (!Array.isArray(data))
    throw new ToolError(1, `${tool}: \`sq ${argv.join(' ')}\` answered something that is not a list`);
  const rows = data;
  const fields = fieldsOf(a);
  const items = rows.map((r) => rec(fields ? pickFields(row(rec(r)), fields) : row(rec(r))));
  // The next page is the one after the page the API answered (its own number and size, when it gives them).
  const at = typeof seen?.page === 'number' && seen.page >= 1 ? seen.page : page;
  const per = typeof seen?.limit === 'number' && seen.limit >= 1 ? seen.limit : size;
  // Whether one follows is what the API says: its next link, else total_pages, else total_results. A page's length
  // says nothing (a server may answer a short page before the end) unless the envelope says nothing at all.
  const said = paged && seen ? moreByEnvelope(seen, at, at * per) : null;
  const more = paged && (said ? said.more : rows.length === size);
  return {
    items,
    ...(more ? { next_cursor: encodeCursor(at + 1, size) } : {}),
    ...(seen?.warning ? { warning: seen.warning } : {}),
  };
}

export function listInput(z: Z, rowsOf = 'rows'): Shape {
  return {
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe(`${rowsOf} per page, at most 100 (default ${DEFAULT_ROWS})`),
    cursor: z.string().optional().describe('next_cursor of the previous call (the next page)'),
    fields: z
      .array(z.string().min(1))
      .optional()
      .describe('keep only these fields of each row (dotted paths reach into objects)'),
  };
}
export const listOutput = (z: Z): Shape => ({
  items: z.array(z.record(z.string(), z.unknown())),
  next_cursor: z
    .string()
    .optional()
    .describe(
      'pass as cursor for the next page; absent on the last page (as the API says: a short page may still have one)',
    ),
  warning: z.string().optional().describe("the API's own warning, e.g. the free plan's cap on listed records"),
});
export const objOutput = (z: Z, keys: string[] = []): Shape => Object.fromEntries(keys.map((k) => [k, z.unknown()]));
export const idOutput = (z: Z): Shape => ({ id: z.string() });
export const squidArg = (z: Z) => z.string().min(1).describe('squid id, unique id prefix or exact name');
export const runArg = (z: Z) => z.string().min(1).describe('run id or unique id prefix (4+ hex characters)');
export const prefixSquid = (z: Z) =>
  z.string().min(1).optional().describe('look a run/task id prefix up in this squid only');
export const dryRun = (z: Z) => z.boolean().optional().describe('return the planned request(s), send nothing');
export const activeArg = (z: Z) =>
  z.boolean().optional().describe('false keeps the configuration but disables it (default true)');
export const active = (a: ToolArgs) => (a.active === false ? ['--inactive'] : a.active === true ? ['--active'] : []);
/** A retry key (`what` it returns again), kept in the cache directory for 24 h. */
export const idempotencyArg = (z: Z, what: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(`${what} (kept in the cache directory for 24 h: a restarted server too)`);
export const waitArg = (z: Z) =>
  z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      `wait at most this many seconds; more than ${MAX_WAIT_S} is capped at ${MAX_WAIT_S} (a note ` +
        `says so). Past it the answer is the run as it stands with still_running: true: call runs_wait again`,
    );
/** wait_seconds as waited: at most MAX_WAIT_S, and the note that says it was capped. */
export function waitOf(a: ToolArgs): { seconds: number | undefined; note?: string } {
  const asked = typeof a.wait_seconds === 'number' ? a.wait_seconds : undefined;
  if (asked === undefined || asked <= MAX_WAIT_S) return { seconds: asked };
  return {
    seconds: MAX_WAIT_S,
    note: `wait_seconds ${asked} was capped at ${MAX_WAIT_S} (a client gives up on a call after 60 s): if still_running, call runs_wait again`,
  };
}
/** The input of a task: a value (sent as `key`, default url) or an object of the inputs of one task-input group. */
export const taskArg = (z: Z) =>
  z.union([z.string().min(1), z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))]);
/** `tasks add` for values and objects: values as arguments, objects (a multi-field task) as the JSON --file on stdin. */
export function taskVerb(squid: string, tasks: unknown[], key: unknown): { argv: string[]; stdin?: string } {
  if (tasks.every((x) => typeof x === 'string'))
    return { argv: ['tasks', 'add', ...flags({ '--squid': squid, '--key': key }), '--', ...(tasks as string[])] };
  const k = typeof key === 'string' ? key : 'url';
  const objects = tasks.map((x) => (typeof x === 'string' ? { [k]: x } : x));
  return { argv: ['tasks', 'add', `--squid=${squid}`, '--file=-'], stdin: JSON.stringify(objects) };
}
/** What every delivery tool says: it takes effect for runs that end after it is set; a finished run goes by results_url. */
export const LATER_RUNS =
  ' It applies to runs that END AFTER it is set: a run already finished is never sent; to hand one over, give the user its results_url.';
export const paramsArg = (z: Z) =>
  z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
    .optional()
    .describe('squid-level inputs, e.g. {"max_results": 100, "functions.extract_emails_from_website": false}');
export const paramFlags = (a: ToolArgs) =>
  Object.entries((a.params ?? {}) as Rec).map(
    ([k, v]) => `--param=${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`,
  );

// ---- documents (plan, apply, delivery_apply): inline, or a file under --root

export function docInput(z: Z): Shape {
  return {
    document: z.string().min(1).optional().describe("the account (or delivery) file's text: YAML or JSON"),
    file: z
      .string()
      .min(1)
      .optional()
      .describe('only when the server runs with --root DIR: a path inside DIR (regular file, at most 1 MiB)'),
  };
}
/**
 * `--file=-` for the verb and the document as its stdin: inline, or a file under --root read once (the verb never
 * opens it again). Its \${VAR}s are checked against --secret-env where the verb expands them, after parsing.
 */
export async function docFlags(
  t: ToolEnv,
  a: ToolArgs,
  tool: string,
): Promise<{ argv: string[]; stdin: string; env?: Record<string, string> }> {
  const doc = str(a, 'document');
  const file = str(a, 'file');
  if ((doc === undefined) === (file === undefined))
    throw new ToolError(
      2,
      `${tool}: give exactly one of "document" (the YAML or JSON text) and "file" (a path, only with sq mcp --root DIR)`,
    );
  if (doc !== undefined) return { argv: ['--file=-'], stdin: doc };
  const { text, path } = await t.rootFile(file as string, 'file');
  // Named by its path in errors, and a tasks file it names found beside it, as with --file PATH.
  return { argv: ['--file=-'], stdin: text, env: { [MCP_DOC]: path } };
}
function refusedEnv(tool: string, name: string): ToolError {
  return new ToolError(2, `${tool}: ${refusedEnvText(name)}`);
}
export function secretEnv(t: ToolEnv, a: ToolArgs, tool: string, keys: string[]): void {
  for (const k of keys) {
    const v = str(a, k);
    if (v !== undefined && !t.secretEnv.has(v)) throw refusedEnv(tool, v);
  }
}
/** Where a delivery sends the account's results, shown in the answer: an agent's call cannot redirect them unseen. */
export function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
