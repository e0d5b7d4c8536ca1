// The tools `sq mcp` serves. Each one runs sq's verbs in-process with --json (src/mcp/server.ts: `t.verb`), so it has
// the verbs' requests, pacing, retries, checks, error mapping and masking; this file says, per tool, which verbs, how
// its arguments become their command lines, what its answer looks like (outputSchema) and who may call it.
//
// Answers are made for an agent that pays for every byte: empty fields, icons and `object` tags dropped (compact),
// lists of 20 rows unless asked, one paging scheme (`cursor` in, `next_cursor` out), `fields` to keep only some.
import { readFile } from 'node:fs/promises';
import type { ZodType } from 'zod';
import { pickFields } from '../output/fields.js';
import type { PageSeen } from '../cli/context.js';
import type { KeyFile } from './keys.js';

type Z = (typeof import('./sdk.js'))['z'];
type Shape = Record<string, ZodType>;
export type ToolArgs = Record<string, unknown>;
type Rec = Record<string, unknown>;

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
  verb(argv: string[], opts?: { stdin?: string; write?: boolean; ok?: number[]; env?: Record<string, string> }): Promise<{ code: number; data: unknown; page?: PageSeen | null }>;
  /** The run's signed results URL (the user's own, short-lived), unmasked; null when its export is not ready. */
  downloadUrl(runId: string): Promise<string | null>;
  /** A path argument, resolved inside --root (refused without one, or outside it). */
  path(arg: string, name: string): Promise<string>;
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

/** The longest a tool waits for a run: an MCP client gives up on a request after 60 s by default. */
export const MAX_WAIT_S = 50;
/** Rows a list returns unless `limit` says otherwise. */
export const DEFAULT_ROWS = 20;

/** `--name=value` for each given value (the = form: a value starting with "-" stays a value). */
function flags(pairs: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [flag, v] of Object.entries(pairs)) {
    if (v === undefined || v === null || v === false) continue;
    out.push(v === true ? flag : `${flag}=${String(v)}`);
  }
  return out;
}
const str = (a: ToolArgs, k: string) => (typeof a[k] === 'string' ? (a[k] as string) : undefined);

/** Drops what carries nothing: null, '', [], {}, and icons and `object` tags (an agent pays for every byte). */
export function compact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(compact);
  if (v === null || typeof v !== 'object') return v;
  const out: Rec = {};
  for (const [k, x] of Object.entries(v as Rec)) {
    if (k === 'icon' || k === 'object') continue;
    const c = compact(x);
    if (c === null || c === undefined || c === '' || (Array.isArray(c) && c.length === 0) || (typeof c === 'object' && c !== null && !Array.isArray(c) && Object.keys(c).length === 0)) continue;
    out[k] = c;
  }
  return out;
}
const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (compact(v) as Rec) : {});

// ---- paging: one opaque cursor for every list

export function encodeCursor(page: number, size: number): string {
  return Buffer.from(JSON.stringify({ p: page, s: size })).toString('base64url');
}
function decodeCursor(cursor: string, tool: string): { page: number; size: number } {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p?: unknown; s?: unknown };
    if (Number.isInteger(c.p) && Number.isInteger(c.s) && (c.p as number) >= 1 && (c.s as number) >= 1 && (c.s as number) <= 100) return { page: c.p as number, size: c.s as number };
  } catch {
    // reported below
  }
  throw new ToolError(2, `${tool}: "cursor" is not one that ${tool} returned (pass next_cursor as it came)`);
}
function pageOf(a: ToolArgs, tool: string): { page: number; size: number } {
  if (typeof a.cursor === 'string') return decodeCursor(a.cursor, tool);
  return { page: 1, size: typeof a.limit === 'number' ? a.limit : DEFAULT_ROWS };
}
function fieldsOf(a: ToolArgs): string[] | undefined {
  const f = a.fields;
  if (Array.isArray(f) && f.length) return f.map(String);
  return undefined;
}
/**
 * Whether the API says another page follows `seen` (page `page` of `size`): its next link, else total_pages, else
 * total_results. A page's length says nothing (a server may answer a short page before the end); only an envelope
 * that says nothing at all falls back to it (a full page may have more).
 */
export function moreFollow(seen: PageSeen | null | undefined, page: number, size: number, rows: number): boolean {
  if (seen) {
    if (typeof seen.next === 'string' && seen.next !== '') return true;
    if ('next' in seen && seen.next === null) return false;
    const at = typeof seen.page === 'number' && seen.page >= 1 ? seen.page : page;
    if (typeof seen.total_pages === 'number') return at < seen.total_pages;
    const per = typeof seen.limit === 'number' && seen.limit >= 1 ? seen.limit : size;
    if (typeof seen.total_results === 'number') return at * per < seen.total_results;
  }
  return rows === size;
}

/** A page of a list verb as { items, next_cursor?, warning? }, rows compact and cut to `fields`. */
async function listPage(t: ToolEnv, a: ToolArgs, tool: string, argv: string[], row: (r: Rec) => Rec = (r) => r, paged = true): Promise<Rec> {
  const { page, size } = pageOf(a, tool);
  const { data, page: seen } = await t.verb([...argv, `--limit=${size}`, ...(paged ? [`--page=${page}`] : [])]);
  // Anything but a list is no page (never an empty one that reads as the end).
  if (!Array.isArray(data)) throw new ToolError(1, `${tool}: \`sq ${argv.join(' ')}\` answered something that is not a list`);
  const rows = data;
  const fields = fieldsOf(a);
  const items = rows.map((r) => rec(fields ? pickFields(row(rec(r)), fields) : row(rec(r))));
  // The next page is the one after the page the API answered (its own number, when it gives one).
  const at = typeof seen?.page === 'number' && seen.page >= 1 ? seen.page : page;
  const more = paged && moreFollow(seen, page, size, rows.length);
  return { items, ...(more ? { next_cursor: encodeCursor(at + 1, size) } : {}), ...(seen?.warning ? { warning: seen.warning } : {}) };
}

function listInput(z: Z, rowsOf = 'rows'): Shape {
  return {
    limit: z.number().int().min(1).max(100).optional().describe(`${rowsOf} per page, at most 100 (default ${DEFAULT_ROWS})`),
    cursor: z.string().optional().describe('next_cursor of the previous call (the next page)'),
    fields: z.array(z.string().min(1)).optional().describe('keep only these fields of each row (dotted paths reach into objects)'),
  };
}
const listOutput = (z: Z): Shape => ({
  items: z.array(z.record(z.string(), z.unknown())),
  next_cursor: z.string().optional().describe('pass as cursor for the next page; absent on the last page (as the API says: a short page may still have one)'),
  warning: z.string().optional().describe('the API\'s own warning, e.g. the free plan\'s cap on listed records'),
});
const objOutput = (z: Z, keys: string[] = []): Shape => Object.fromEntries(keys.map((k) => [k, z.unknown()]));
const idOutput = (z: Z): Shape => ({ id: z.string() });
const squidArg = (z: Z) => z.string().min(1).describe('squid id, unique id prefix or exact name');
const runArg = (z: Z) => z.string().min(1).describe('run id or unique id prefix (4+ hex characters)');
const prefixSquid = (z: Z) => z.string().min(1).optional().describe('look a run/task id prefix up in this squid only');
const dryRun = (z: Z) => z.boolean().optional().describe('return the planned request(s), send nothing');
const activeArg = (z: Z) => z.boolean().optional().describe('false keeps the configuration but disables it (default true)');
const active = (a: ToolArgs) => (a.active === false ? ['--inactive'] : a.active === true ? ['--active'] : []);
const waitArg = (z: Z) => z.number().int().min(1).max(MAX_WAIT_S).optional().describe(`wait at most this many seconds (at most ${MAX_WAIT_S}); past it the answer is the run as it stands with still_running: true: call runs_wait again`);
const paramsArg = (z: Z) =>
  z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional().describe('squid-level inputs, e.g. {"max_results": 100, "functions.extract_emails_from_website": false}');
const paramFlags = (a: ToolArgs) =>
  Object.entries((a.params ?? {}) as Rec).map(([k, v]) => `--param=${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);

// ---- documents (plan, apply, delivery_apply): inline, or a file under --root

function docInput(z: Z): Shape {
  return {
    document: z.string().min(1).optional().describe('the account (or delivery) file\'s text: YAML or JSON'),
    file: z.string().min(1).optional().describe('only when the server runs with --root DIR: a path inside DIR (regular file, at most 1 MiB)'),
  };
}
const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** `--file` for the verb, and its stdin: the document inline, or a file under --root; ${VAR}s only from --secret-env. */
async function docFlags(t: ToolEnv, a: ToolArgs, tool: string): Promise<{ argv: string[]; stdin?: string }> {
  const doc = str(a, 'document');
  const file = str(a, 'file');
  if ((doc === undefined) === (file === undefined)) throw new ToolError(2, `${tool}: give exactly one of "document" (the YAML or JSON text) and "file" (a path, only with sq mcp --root DIR)`);
  if (doc !== undefined) {
    checkEnvRefs(t, doc, tool);
    return { argv: ['--file=-'], stdin: doc };
  }
  const path = await t.path(file as string, 'file');
  checkEnvRefs(t, await readFile(path, 'utf8'), tool);
  return { argv: [`--file=${path}`] };
}
function checkEnvRefs(t: ToolEnv, text: string, tool: string): void {
  const names = [...new Set([...text.matchAll(ENV_REF)].map((m) => m[1]))].filter((n) => !t.secretEnv.has(n));
  if (names.length) throw refusedEnv(tool, names[0]);
}
function refusedEnv(tool: string, name: string): ToolError {
  return new ToolError(2, `${tool}: environment variable ${name} is not one this server may read secrets from; start it with \`sq mcp --secret-env ${name}\` (the allow-list of --secret-env; default none)`);
}
function secretEnv(t: ToolEnv, a: ToolArgs, tool: string, keys: string[]): void {
  for (const k of keys) {
    const v = str(a, k);
    if (v !== undefined && !t.secretEnv.has(v)) throw refusedEnv(tool, v);
  }
}
/** Where a delivery sends the account's results, shown in the answer: an agent's call cannot redirect them unseen. */
function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

// ---- runs: estimates, confirmation, waiting

/** The estimate of a squid's next run (`sq squids estimate --json`), or null when this sq cannot estimate. */
async function estimate(t: ToolEnv, squid: string): Promise<Rec | null> {
  try {
    const { data } = await t.verb(['squids', 'estimate', '--', squid]);
    return rec(data);
  } catch (e) {
    // A CLI without the verb (an unknown command, exit 2 naming it): no estimate to give.
    if (e instanceof ToolError && e.code === 2 && /unknown command|too many arguments/.test(e.message)) return null;
    throw e;
  }
}
const creditsOf = (e: Rec | null) => (e && typeof e.total_credits === 'number' ? e.total_credits : null);

/** Above --confirm-above, without confirm: true, the answer is the estimate and nothing starts. */
async function confirmation(t: ToolEnv, a: ToolArgs, squid: string, again: string): Promise<Rec | null> {
  if (a.confirm === true) return null;
  const est = await estimate(t, squid);
  const credits = creditsOf(est);
  // A card charge asks whatever the credits, as the CLI's guard does; no estimate at all asks too (a cost unknown is
  // no cost below the threshold).
  // Not a number (null, dropped by compact): the API's auto-reset settings left it unknown (auto_reset_unknown names
  // the fields). An unknown card charge asks, never reads as none.
  const unknownResets = est !== null && credits !== null && typeof est.auto_reset_charges !== 'number';
  const resets = Math.max(0, Number(est?.auto_reset_charges) || 0);
  if (credits !== null && credits <= t.confirmAbove && resets === 0 && !unknownResets) return null;
  const why =
    credits === null
      ? 'no estimate could be had for this run'
      : unknownResets
        ? `the run is estimated at ${credits} credits, and whether it sets off an Auto Billing Reset (a card charge) is unknown: the API's settings left out ${Array.isArray(est?.auto_reset_unknown) ? est.auto_reset_unknown.join(', ') : 'some fields'}`
      : resets > 0
        ? `the run is estimated at ${credits} credits and would set off ${resets} Auto Billing Reset${resets === 1 ? '' : 's'} (a card charge each)`
        : `the run is estimated at ${credits} credits, above this server's --confirm-above ${t.confirmAbove}`;
  return {
    needs_confirmation: true,
    squid,
    ...(est ? { estimate: est } : {}),
    message: `${why}: nothing was started. Ask the user; to run it, call ${again} with confirm: true`,
  };
}

/**
 * `runs start` (and wait, capped): the run, with still_running when the wait ended first. `runKey`: the verb's
 * --idempotency-key, which keeps the run in the cache directory, so a restarted server's retry gets the same run.
 */
async function startRun(t: ToolEnv, a: ToolArgs, squid: string, runKey?: string): Promise<Rec> {
  const wait = typeof a.wait_seconds === 'number' ? a.wait_seconds : undefined;
  const keyFlag = runKey !== undefined ? [`--idempotency-key=${runKey}`] : [];
  const { code, data } = await t.verb(['runs', 'start', `--squid=${squid}`, ...keyFlag, ...(wait ? ['--wait', `--timeout=${wait}s`] : [])], { write: true, ok: [6, 7] });
  return runAnswer(data, code);
}
function runAnswer(data: unknown, code: number): Rec {
  const run = rec(data);
  // exit 7: the wait gave up, the run goes on; 6: it ended in error or was aborted (the run says so).
  return code === 7 ? { ...run, still_running: true } : run;
}
const runOutput = (z: Z): Shape => ({
  id: z.string().optional(),
  status: z.string().optional(),
  still_running: z.boolean().optional().describe('the wait ended before the run: call runs_wait again'),
  needs_confirmation: z.boolean().optional().describe('nothing was started: the estimate is above --confirm-above'),
  estimate: z.record(z.string(), z.unknown()).optional(),
  dry_run: z.boolean().optional(),
});

/** Whether the squid exists (a 404 is exit 3); any other failure is the tool's error. */
async function squidExists(t: ToolEnv, id: string): Promise<boolean> {
  try {
    await t.verb(['squids', 'get', '--', id]);
    return true;
  } catch (e) {
    if (e instanceof ToolError && e.code === 3) return false;
    throw e;
  }
}

/** An idempotency_key's run: the first call's answer for every retry while this server runs. */
async function once(t: ToolEnv, a: ToolArgs, tool: string, work: () => Promise<Rec>): Promise<Rec> {
  const key = str(a, 'idempotency_key');
  if (!key || t.dryRun) return work();
  const k = `${tool}\u0000${key}`;
  const seen = t.keys.get(k);
  if (seen) return { ...(await seen), replayed: true };
  const p = work();
  t.keys.set(k, p);
  try {
    const r = await p;
    // An answer that started nothing is not kept: the confirmed call must still run.
    if (r.needs_confirmation || r.dry_run) t.keys.delete(k);
    return r;
  } catch (e) {
    // A write that certainly was not sent may be tried again under the same key; an unknown one may not.
    if (!(e instanceof ToolError && e.requestState === 'unknown')) t.keys.delete(k);
    throw e;
  }
}

// ---- crawlers

interface Crawler extends Rec {
  id?: string;
  name?: string;
  slug?: string;
  description?: string;
  account?: { type?: string } | null;
}
const crawlerRow = (c: Crawler): Rec =>
  rec({ id: c.id, name: c.name, slug: c.slug, credits_per_row: c.credits_per_row, is_premium: c.is_premium || undefined, has_issues: c.has_issues || undefined, account_type: c.account?.type });

/** Words → the crawlers matching all of them; else up to 5 matching most of them, with the words each matched. */
export function searchCrawlers(all: Crawler[], query: string): { exact: boolean; items: Rec[] } {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const text = (c: Crawler) => `${c.name ?? ''} ${c.slug ?? ''} ${c.description ?? ''}`.toLowerCase();
  const scored = all.map((c) => ({ c, matched: words.filter((w) => text(c).includes(w)) }));
  const exact = scored.filter((s) => words.length && s.matched.length === words.length);
  if (exact.length) return { exact: true, items: exact.map((s) => crawlerRow(s.c)) };
  const near = scored.filter((s) => s.matched.length).sort((x, y) => y.matched.length - x.matched.length).slice(0, 5);
  return { exact: false, items: near.map((s) => ({ ...crawlerRow(s.c), matched: s.matched })) };
}

export function toolDefs(): ToolDef[] {
  return [
    // ---- read
    {
      name: 'crawlers_search', title: 'Search crawlers', access: 'read',
      description:
        'Find the crawler for a job by words (e.g. "google maps", "linkedin profile"): the crawlers whose name, slug or ' +
        'description hold every word; else up to 5 near ones with the words they matched (exact: false). Start here, then crawlers_get.',
      input: (z) => ({ query: z.string().min(1).describe('words to look for') }),
      output: (z) => ({ exact: z.boolean(), items: z.array(z.record(z.string(), z.unknown())) }),
      run: async (t, a) => {
        const { data } = await t.verb(['crawlers', 'list', '--all']);
        return searchCrawlers((Array.isArray(data) ? data : []) as Crawler[], String(a.query));
      },
    },
    {
      name: 'crawlers_get', title: 'A crawler: inputs, outputs, price', access: 'read',
      description:
        'What a crawler needs and gives: inputs with their level (task: one value per task, added with tasks_add or go\'s ' +
        'tasks; squid: set once on the squid as params; function: a paid add-on, some ON BY DEFAULT and billed per row), the ' +
        'output columns, credits per row, and the account type it needs (attach one with squids_attach_account).',
      input: (z) => ({ crawler: z.string().min(1).describe('crawler id, name or slug') }),
      output: (z) => ({ ...idOutput(z), inputs: z.array(z.record(z.string(), z.unknown())).optional(), outputs: z.array(z.string()).optional() }),
      run: async (t, a) => {
        const { data } = await t.verb(['crawlers', 'get', '--', String(a.crawler)]);
        const c = (data ?? {}) as Crawler & { input?: Rec[]; result?: string[] };
        // A paid function is a squid-level input with a `function`: its level is "function", with its price per row.
        const inputs = (c.input ?? []).map((i) =>
          rec({
            name: i.name,
            level: i.function !== undefined || i.credits_per_function !== undefined ? 'function' : i.level,
            type: i.type === 'string' ? undefined : i.type,
            required: i.required || undefined,
            default: i.default,
            credits_per_row: i.credits_per_function ?? i.credits_per_row,
            // A task-level input of a parameter task (instead of a URL task).
            params_task: i.is_params || undefined,
            description: firstSentence(i.description),
          }),
        );
        return rec({ ...crawlerRow(c), inputs, outputs: c.result });
      },
    },
    {
      name: 'crawlers_params', title: 'A crawler\'s parameters', access: 'read',
      description: 'The squid-level parameters and paid functions of a crawler, with defaults: `sq crawlers params <crawler> --json`.',
      input: (z) => ({ crawler: z.string().min(1).describe('crawler id, name or slug') }),
      output: (z) => objOutput(z),
      run: async (t, a) => rec((await t.verb(['crawlers', 'params', '--', String(a.crawler)])).data),
    },
    {
      name: 'squids_list', title: 'List squids', access: 'read',
      description: 'The account\'s squids (a crawler + its settings + its tasks), newest first.',
      input: (z) => ({ name: z.string().optional().describe('only squids whose name contains this text'), ...listInput(z, 'squids') }),
      output: listOutput,
      run: (t, a) => listPage(t, a, 'squids_list', ['squids', 'list', ...flags({ '--name': a.name })], squidRow),
    },
    {
      name: 'squids_get', title: 'Show a squid', access: 'read',
      description: 'One squid: crawler, params, accounts, delivery, last run. For its results file use results_url.',
      input: (z) => ({ squid: squidArg(z), fields: z.array(z.string().min(1)).optional().describe('keep only these fields') }),
      output: idOutput,
      run: async (t, a) => {
        const s = squidRow(rec((await t.verb(['squids', 'get', '--', String(a.squid)])).data));
        const f = fieldsOf(a);
        return f ? rec({ id: s.id, ...pickFields(s, f) }) : s;
      },
    },
    {
      name: 'squids_estimate', title: 'Estimate a run', access: 'read',
      description:
        'What the squid\'s next run will cost before it starts: credits per service (the base scrape, then each paid function ' +
        'that is on), total, time range, balance after. Call it before runs_start or go.',
      input: (z) => ({ squid: squidArg(z) }),
      output: (z) => ({ total_credits: z.number().optional() }),
      run: async (t, a) => {
        const est = await estimate(t, String(a.squid));
        if (!est) throw new ToolError(1, 'squids_estimate: this sq has no `sq squids estimate`');
        return est;
      },
    },
    {
      name: 'runs_list', title: 'List runs', access: 'read',
      description: 'Runs of a squid (paged), or the most recent runs across squids (one page).',
      input: (z) => ({ squid: squidArg(z).optional(), ...listInput(z, 'runs') }),
      output: listOutput,
      run: async (t, a) => {
        if (a.squid !== undefined) return listPage(t, a, 'runs_list', ['runs', 'list', `--squid=${String(a.squid)}`]);
        // Across squids the API has no pages: the most recent runs, one page only; a cursor would give page 1 again.
        if (a.cursor !== undefined) throw new ToolError(2, 'runs_list: "cursor" pages the runs of one squid: give "squid" with it');
        const { items } = await listPage(t, { ...a, cursor: undefined }, 'runs_list', ['runs', 'list'], (r) => r, false);
        return { items };
      },
    },
    {
      name: 'runs_get', title: 'Show a run', access: 'read',
      description: 'One run: status, results, credits used, export state.',
      input: (z) => ({ run: runArg(z), squid: prefixSquid(z) }),
      output: (z) => ({ ...idOutput(z), status: z.string().optional() }),
      run: async (t, a) => rec((await t.verb(['runs', 'get', ...flags({ '--squid': a.squid }), '--', String(a.run)])).data),
    },
    {
      name: 'runs_wait', title: 'Wait for a run', access: 'read',
      description: `Wait until a run is done, at most ${MAX_WAIT_S} s a call: past it the answer is the run as it stands with still_running: true; call again.`,
      input: (z) => ({ run: runArg(z), squid: prefixSquid(z), wait_seconds: waitArg(z) }),
      output: runOutput,
      run: async (t, a) => {
        const s = typeof a.wait_seconds === 'number' ? a.wait_seconds : MAX_WAIT_S;
        const { code, data } = await t.verb(['runs', 'watch', ...flags({ '--squid': a.squid }), `--timeout=${s}s`, '--', String(a.run)], { ok: [6, 7] });
        return runAnswer(data, code);
      },
    },
    ...(['stats', 'credits'] as const).map(
      (verb): ToolDef => ({
        name: `runs_${verb}`,
        title: { stats: 'A run\'s progress', credits: 'What a run cost' }[verb],
        access: 'read',
        description: { stats: 'A run\'s progress: percent done, tasks done/left, results, ETA.', credits: 'A run\'s credits per function, total credits and results, rates.' }[verb],
        input: (z) => ({ run: runArg(z), squid: prefixSquid(z) }),
        output: (z) => objOutput(z),
        run: async (t, a) => rec((await t.verb(['runs', verb, ...flags({ '--squid': a.squid }), '--', String(a.run)])).data),
      }),
    ),
    {
      name: 'tasks_list', title: 'List tasks', access: 'read',
      description: 'The tasks (URLs or parameter sets) of a squid.',
      input: (z) => ({ squid: squidArg(z), type: z.enum(['url', 'params']).optional().describe('task type (default url)'), ...listInput(z, 'tasks') }),
      output: listOutput,
      run: (t, a) => listPage(t, a, 'tasks_list', ['tasks', 'list', ...flags({ '--squid': a.squid, '--type': a.type })]),
    },
    {
      name: 'results_list', title: 'List results', access: 'read',
      description:
        `Results of a squid, a run or a task, ${DEFAULT_ROWS} rows a call unless limit says (at most 100); fields keeps only the ` +
        'columns you need; pass next_cursor back as cursor for the next page. For a whole file, results_url.',
      input: (z) => ({
        squid: squidArg(z).optional().describe('results of every run of this squid'),
        run: runArg(z).optional().describe('results of this run only'),
        task: z.string().min(1).optional().describe('only the results of this task (id or id prefix)'),
        ...listInput(z, 'results'),
      }),
      output: listOutput,
      run: (t, a) => listPage(t, a, 'results_list', ['results', 'list', ...flags({ '--squid': a.squid, '--run': a.run, '--task': a.task })]),
    },
    {
      name: 'results_url', title: 'Results download URL', access: 'read',
      description: 'The signed URL of a finished run\'s results file (CSV), the user\'s own and short-lived: give it to the user or fetch it.',
      input: (z) => ({ run: runArg(z), squid: prefixSquid(z) }),
      output: (z) => ({ run: z.string(), url: z.string() }),
      run: async (t, a) => {
        const run = rec((await t.verb(['runs', 'get', ...flags({ '--squid': a.squid }), '--', String(a.run)])).data);
        const id = String(run.id);
        const url = await t.downloadUrl(id);
        if (!url) throw new ToolError(3, `results_url: run ${id} has no export yet (status ${String(run.status ?? 'unknown')}); wait with runs_wait, then ask again`);
        return { run: id, url };
      },
    },
    {
      name: 'accounts_list', title: 'List accounts', access: 'read',
      description: 'The platform accounts (logins some crawlers need), metadata only: never cookies or credentials.',
      input: (z) => listInput(z, 'accounts'),
      output: listOutput,
      run: (t, a) => listPage(t, a, 'accounts_list', ['accounts', 'list'], accountRow),
    },
    {
      name: 'accounts_get', title: 'Show an account', access: 'read',
      description: 'One account\'s metadata and health (status "200" = usable; lock_time, resets_in): never cookies or credentials.',
      input: (z) => ({ account: z.string().min(1).describe('account id, id prefix or username') }),
      output: idOutput,
      run: async (t, a) => accountRow(rec((await t.verb(['accounts', 'get', '--', String(a.account)])).data)),
    },
    {
      name: 'delivery_show', title: 'Show delivery', access: 'read',
      description: 'Where a squid\'s results go (SFTP, webhook, e-mail, sheet, S3), secrets masked.',
      input: (z) => ({ squid: squidArg(z) }),
      output: (z) => objOutput(z),
      run: async (t, a) => rec((await t.verb(['delivery', 'show', `--squid=${String(a.squid)}`])).data),
    },
    {
      name: 'billing_auto_reset_get', title: 'Automatic billing reset', access: 'read',
      description: 'The automatic billing reset settings and window (each reset charges the card on file).',
      input: () => ({}),
      output: (z) => objOutput(z),
      run: async (t) => rec((await t.verb(['billing', 'auto-reset'])).data),
    },
    {
      name: 'balance', title: 'Credit balance', access: 'read',
      description: 'The credit balance; remaining = available - consumed.',
      input: () => ({}),
      output: (z) => objOutput(z),
      run: async (t) => rec((await t.verb(['balance'])).data),
    },
    {
      name: 'whoami', title: 'Who am I', access: 'read',
      description: 'The user this server acts as: name, e-mail, plan.',
      input: () => ({}),
      output: (z) => objOutput(z),
      run: async (t) => {
        const me = rec((await t.verb(['me'])).data);
        return rec({ first_name: me.first_name, last_name: me.last_name, email: me.email, plan: me.plan, credit_interval: me.credit_interval });
      },
    },
    {
      name: 'status', title: 'Account status', access: 'read',
      description: 'The account at a glance: plan, credits, auto-reset, runs in progress, failures.',
      input: () => ({}),
      output: (z) => objOutput(z),
      run: async (t) => rec((await t.verb(['status'])).data),
    },
    {
      name: 'plan', title: 'Plan an account file', access: 'read',
      description: 'What would change to make the account match a document (squids, tasks, delivery, billing); sends nothing.',
      input: docInput,
      output: (z) => ({ summary: z.record(z.string(), z.unknown()).optional() }),
      run: async (t, a) => {
        const d = await docFlags(t, a, 'plan');
        return rec((await t.verb(['plan', ...d.argv], { stdin: d.stdin })).data);
      },
    },
    // ---- write (--allow-writes)
    {
      name: 'squids_create', title: 'Create a squid', access: 'write',
      description: 'Create a squid on a crawler, without running it; params sets its squid-level inputs. Then tasks_add, squids_estimate, runs_start.',
      input: (z) => ({ crawler: z.string().min(1).describe('crawler id, name or slug (crawlers_search)'), name: z.string().min(1).max(255).optional(), params: paramsArg(z), dry_run: dryRun(z) }),
      output: idOutput,
      run: async (t, a) => {
        const made = rec((await t.verb(['squids', 'create', ...flags({ '--crawler': a.crawler, '--name': a.name })], { write: true })).data);
        if (made.dry_run || !a.params || !Object.keys(a.params as Rec).length) return squidRow(made);
        return squidRow(rec((await t.verb(['squids', 'update', ...paramFlags(a), '--', String(made.id)], { write: true })).data));
      },
    },
    {
      name: 'tasks_add', title: 'Add tasks', access: 'write',
      description: 'Add tasks to a squid: one per value, sent as the task-level input `key` (default url).',
      input: (z) => ({
        squid: squidArg(z),
        values: z.array(z.string().min(1)).min(1).describe('one task per value'),
        key: z.string().optional().describe('task-level input each value is sent as (default url)'),
        dry_run: dryRun(z),
      }),
      output: (z) => objOutput(z),
      run: async (t, a) => rec((await t.verb(['tasks', 'add', ...flags({ '--squid': a.squid, '--key': a.key }), '--', ...(a.values as string[])], { write: true })).data),
    },
    {
      name: 'squids_update', title: 'Update a squid', access: 'write',
      idempotent: true,
      description: 'Change a squid\'s name, concurrency or squid-level params (paid functions are params: "functions.NAME": false turns one off).',
      input: (z) => ({ squid: squidArg(z), name: z.string().min(1).optional(), concurrency: z.number().int().min(1).max(20).optional(), params: paramsArg(z), dry_run: dryRun(z) }),
      output: idOutput,
      run: async (t, a) =>
        squidRow(rec((await t.verb(['squids', 'update', ...flags({ '--name': a.name, '--concurrency': a.concurrency }), ...paramFlags(a), '--', String(a.squid)], { write: true })).data)),
    },
    {
      name: 'squids_attach_account', title: 'Attach an account', access: 'write',
      idempotent: true,
      description: 'Link an account to a squid, keeping the ones already linked (the API replaces the whole list: this sends the union).',
      input: (z) => ({ squid: squidArg(z), account: z.string().min(1).describe('account id, id prefix or username'), dry_run: dryRun(z) }),
      output: idOutput,
      run: async (t, a) => {
        const s = rec((await t.verb(['squids', 'get', '--', String(a.squid)])).data);
        // The squid's own `accounts` ([{id, status}]) when the API gives it; else each account's `squids`.
        let linked = (Array.isArray(s.accounts) ? s.accounts : []).map((x) => String(typeof x === 'string' ? x : rec(x).id));
        if (!Array.isArray(s.accounts)) {
          const all = (await t.verb(['accounts', 'list', '--all'])).data;
          linked = (Array.isArray(all) ? all : []).filter((x) => (rec(x).squids as Rec[] | undefined)?.some((q) => q.hash_value === s.id || q.id === s.id)).map((x) => String(rec(x).id));
        }
        const acc = rec((await t.verb(['accounts', 'get', '--', String(a.account)])).data);
        const ids = [...new Set([...linked, String(acc.id)])];
        const r = rec((await t.verb(['squids', 'update', ...ids.map((i) => `--account=${i}`), '--', String(s.id)], { write: true })).data);
        return r.dry_run ? r : rec({ id: s.id, accounts: r.accounts ?? ids });
      },
    },
    {
      name: 'squids_empty', title: 'Empty a squid', access: 'write', destructive: true, idempotent: true,
      description: 'Delete every task of a squid (URL and parameter tasks, or the type given), keeping the squid and its settings.',
      input: (z) => ({ squid: squidArg(z), type: z.enum(['url', 'params']).optional().describe('only this task type (default both)'), dry_run: dryRun(z) }),
      output: (z) => objOutput(z),
      run: async (t, a) => {
        const out: Rec = {};
        for (const type of a.type ? [String(a.type)] : ['url', 'params']) out[type] = (await t.verb(['squids', 'empty', `--type=${type}`, '--', String(a.squid)], { write: true })).data;
        return rec(out);
      },
    },
    {
      name: 'squids_deactivate', title: 'Deactivate a squid', access: 'write', idempotent: true,
      description: 'Stop a squid from running (a run in progress is stopped; its slot is freed). squids_update does not reactivate it; the CLI does.',
      input: (z) => ({ squid: squidArg(z), dry_run: dryRun(z) }),
      output: (z) => objOutput(z),
      run: async (t, a) => {
        const s = rec((await t.verb(['squids', 'get', '--', String(a.squid)])).data);
        const r = rec((await t.verb(['api', `--method=POST`, `--field=is_active=false`, '--', `/v1/squids/${String(s.id)}`], { write: true })).data);
        return r.dry_run ? r : rec({ id: s.id, name: s.name, is_active: r.is_active ?? false });
      },
    },
    {
      name: 'runs_start', title: 'Start a run', access: 'write', destructive: true,
      description:
        'Start a run of a squid: IT SPENDS CREDITS (paid functions that are on are billed per row). Above the server\'s ' +
        '--confirm-above the answer is needs_confirmation with the estimate: ask the user, then call again with confirm: true. ' +
        `wait_seconds (at most ${MAX_WAIT_S}) waits for the end; idempotency_key makes a retry return the same run.`,
      input: (z) => ({
        squid: squidArg(z),
        confirm: z.boolean().optional().describe('the user accepted the estimate'),
        wait_seconds: waitArg(z),
        idempotency_key: z.string().min(1).max(200).optional().describe('a retry with the same key returns the first call\'s run, never a second run (kept in the cache directory for 24 h: a restarted server too)'),
        dry_run: dryRun(z),
      }),
      output: runOutput,
      run: (t, a) =>
        once(t, a, 'runs_start', async () => {
          if (t.dryRun) return startRun(t, a, String(a.squid));
          const s = rec((await t.verb(['squids', 'get', '--', String(a.squid)])).data);
          const ask = await confirmation(t, a, String(s.id), 'runs_start');
          const key = str(a, 'idempotency_key');
          return ask ?? startRun(t, a, String(s.id), key !== undefined && t.keyFile ? `mcp-runs_start:${key}` : undefined);
        }),
    },
    {
      name: 'go', title: 'Run a crawler on inputs', access: 'write', destructive: true,
      description:
        'One call for a whole job: creates a squid on the crawler, sets its params, adds one task per value and starts a ' +
        'run. IT SPENDS CREDITS. Above --confirm-above the answer is needs_confirmation (the squid and tasks are made, ' +
        'nothing started): call again with the same idempotency_key and confirm: true. A retry with the same ' +
        `idempotency_key returns the same squid and run. wait_seconds (at most ${MAX_WAIT_S}) waits for the end.`,
      input: (z) => ({
        crawler: z.string().min(1).describe('crawler id, name or slug (crawlers_search)'),
        tasks: z.array(z.string().min(1)).min(1).describe('one task per value (task-level input `key`)'),
        key: z.string().optional().describe('task-level input each value is sent as (default url)'),
        params: paramsArg(z),
        name: z.string().min(1).max(255).optional().describe('squid name (default: the crawler and the time)'),
        confirm: z.boolean().optional().describe('the user accepted the estimate'),
        wait_seconds: waitArg(z),
        idempotency_key: z.string().min(1).max(200).optional().describe('retries with the same key return the same squid and run (kept in the cache directory for 24 h: a restarted server too)'),
        dry_run: dryRun(z),
      }),
      output: (z) => ({ ...runOutput(z), squid: z.string().optional(), idempotency_key: z.string().optional() }),
      run: async (t, a) => {
        const given = str(a, 'idempotency_key');
        const key = given ?? `go-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
        const made = t.keys.get(`go-squid\u0000${key}`);
        const withKey = { ...a, idempotency_key: key };
        // A key the agent gave outlives this server (the cache directory, as runs start --idempotency-key keeps its
        // runs): the squid under `mcp-go-squid:KEY`, the run under `mcp-go:KEY`.
        const file = given !== undefined && !t.dryRun ? (t.keyFile ?? null) : null;
        return once(t, withKey, 'go', async () => {
          let squid: string;
          if (made) squid = String((await made).id);
          else {
            const p = (async () => {
              let kept = file ? await file.get(`mcp-go-squid:${key}`) : null;
              if (kept && file && !(await squidExists(t, kept.squid))) {
                // Deleted since: its runs went with it, so a new squid and run under the key are no second ones.
                await file.forget(`mcp-go-squid:${key}`);
                await file.forget(`mcp-go:${key}`);
                kept = null;
              }
              let s: Rec;
              if (kept) s = { id: kept.squid };
              else {
                const name = str(a, 'name') ?? `${String(a.crawler)} ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
                s = rec((await t.verb(['squids', 'create', ...flags({ '--crawler': a.crawler, '--name': name })], { write: true })).data);
                if (s.dry_run) return s;
                const at = new Date().toISOString();
                if (file) await file.set(`mcp-go-squid:${key}`, { squid: String(s.id), at, since: at, id: null });
              }
              if (kept?.ready) return s;
              // Again after a restart that came before they were all sent: params are a replace, and tasks the squid
              // has already are skipped by the API.
              if (a.params && Object.keys(a.params as Rec).length) await t.verb(['squids', 'update', ...paramFlags(a), '--', String(s.id)], { write: true });
              await t.verb(['tasks', 'add', ...flags({ '--squid': s.id, '--key': a.key }), '--', ...(a.tasks as string[])], { write: true });
              if (file) await file.set(`mcp-go-squid:${key}`, { squid: String(s.id), at: kept?.at ?? new Date().toISOString(), since: kept?.since ?? new Date().toISOString(), id: null, ready: true });
              return s;
            })();
            if (!t.dryRun) t.keys.set(`go-squid\u0000${key}`, p);
            const s = await p.catch((e: unknown) => {
              t.keys.delete(`go-squid\u0000${key}`);
              throw e;
            });
            if (s.dry_run) return { dry_run: true, steps: ['squids create', ...(a.params ? ['squids update (params)'] : []), 'tasks add', 'squids estimate', 'runs start'], first: s };
            squid = String(s.id);
          }
          const ask = await confirmation(t, a, squid, 'go');
          if (ask) return { ...ask, idempotency_key: key };
          return { squid, idempotency_key: key, run: await startRun(t, a, squid, file ? `mcp-go:${key}` : undefined) };
        });
      },
    },
    {
      name: 'runs_abort', title: 'Abort a run', access: 'write', idempotent: true,
      description: 'Stop a running run (credits spent stay spent).',
      input: (z) => ({ run: runArg(z), squid: prefixSquid(z), dry_run: dryRun(z) }),
      output: (z) => objOutput(z),
      run: async (t, a) => rec((await t.verb(['runs', 'abort', ...flags({ '--squid': a.squid }), '--', String(a.run)], { write: true })).data),
    },
    {
      name: 'delivery_webhook', title: 'Set the webhook delivery', access: 'write', idempotent: true,
      description: 'Send a squid\'s run events to a URL. The answer names the host that will receive them (delivery_host).',
      input: (z) => ({
        squid: squidArg(z),
        url: z.string().min(1).describe('http(s) endpoint'),
        events: z.string().optional().describe('comma-separated: run.running, run.paused, run.done, run.error, or "all" (default run.done,run.error)'),
        retry: z.boolean().optional().describe('retry failed deliveries (default true)'),
        active: activeArg(z),
        dry_run: dryRun(z),
      }),
      output: (z) => ({ delivery_host: z.string().optional() }),
      run: async (t, a) => {
        const { data } = await t.verb(['delivery', 'webhook', ...flags({ '--squid': a.squid, '--url': a.url, '--events': a.events }), ...(a.retry === false ? ['--no-retry'] : []), ...active(a)], { write: true });
        return rec({ delivery_host: hostOf(str(a, 'url')), ...rec(data) });
      },
    },
    {
      name: 'delivery_email', title: 'Set the e-mail delivery', access: 'write', idempotent: true,
      description: 'E-mail a squid\'s results when a run completes. The answer names the address (delivery_host).',
      input: (z) => ({ squid: squidArg(z), email: z.string().min(1), notifications: z.boolean().optional().describe('false keeps the address, sends nothing'), dry_run: dryRun(z) }),
      output: (z) => ({ delivery_host: z.string().optional() }),
      run: async (t, a) => {
        const { data } = await t.verb(['delivery', 'email', ...flags({ '--squid': a.squid, '--email': a.email }), ...(a.notifications === false ? ['--no-notifications'] : [])], { write: true });
        return rec({ delivery_host: str(a, 'email')?.split('@').pop(), ...rec(data) });
      },
    },
    {
      name: 'delivery_sheet', title: 'Set the Google Sheet delivery', access: 'write', idempotent: true,
      description: 'Write a squid\'s results to a Google Sheet.',
      input: (z) => ({ squid: squidArg(z), url: z.string().min(1), mode: z.enum(['append', 'overwrite']).optional().describe('default overwrite'), active: activeArg(z), dry_run: dryRun(z) }),
      output: (z) => ({ delivery_host: z.string().optional() }),
      run: async (t, a) => {
        const { data } = await t.verb(['delivery', 'sheet', ...flags({ '--squid': a.squid, '--url': a.url }), ...(a.mode ? [`--${String(a.mode)}`] : []), ...active(a)], { write: true });
        return rec({ delivery_host: hostOf(str(a, 'url')), ...rec(data) });
      },
    },
    {
      name: 'delivery_sftp', title: 'Set the SFTP delivery', access: 'write', idempotent: true,
      description:
        'Upload a squid\'s results over SFTP. The password never travels in the call: password_env names an environment ' +
        'variable of the server, one of those its --secret-env allows. The answer names the host (delivery_host).',
      input: (z) => ({
        squid: squidArg(z), host: z.string().min(1), port: z.number().int().min(1).max(65535).optional(), username: z.string().min(1),
        directory: z.string().min(1), password_env: z.string().min(1).describe('environment variable of the server that holds the password (allowed by --secret-env)'),
        active: activeArg(z), dry_run: dryRun(z),
      }),
      output: (z) => ({ delivery_host: z.string() }),
      run: async (t, a) => {
        secretEnv(t, a, 'delivery_sftp', ['password_env']);
        const { data } = await t.verb(['delivery', 'sftp', ...flags({ '--squid': a.squid, '--host': a.host, '--port': a.port, '--username': a.username, '--directory': a.directory, '--password-env': a.password_env }), ...active(a)], { write: true });
        return rec({ delivery_host: `${String(a.host)}:${String(a.port ?? 22)}`, ...rec(data) });
      },
    },
    {
      name: 'delivery_s3', title: 'Set the S3 delivery', access: 'write', idempotent: true,
      description: 'Upload a squid\'s results to S3; the keys come from environment variables of the server that its --secret-env allows.',
      input: (z) => ({
        squid: squidArg(z), bucket: z.string().min(1), target_path: z.string().optional(),
        access_key_env: z.string().min(1), secret_key_env: z.string().min(1), active: activeArg(z), dry_run: dryRun(z),
      }),
      output: (z) => ({ delivery_host: z.string() }),
      run: async (t, a) => {
        secretEnv(t, a, 'delivery_s3', ['access_key_env', 'secret_key_env']);
        const { data } = await t.verb(['delivery', 's3', ...flags({ '--squid': a.squid, '--bucket': a.bucket, '--target-path': a.target_path, '--access-key-env': a.access_key_env, '--secret-key-env': a.secret_key_env }), ...active(a)], { write: true });
        return rec({ delivery_host: `s3://${String(a.bucket)}`, ...rec(data) });
      },
    },
    {
      name: 'delivery_test', title: 'Test a delivery channel', access: 'write', idempotent: true,
      description: 'Ask the service to try a webhook or e-mail channel (it sends a test event/e-mail).',
      input: (z) => ({ kind: z.enum(['webhook', 'email']), squid: squidArg(z).optional().describe('reuse this squid\'s stored configuration'), url: z.string().optional(), email: z.string().optional(), dry_run: dryRun(z) }),
      output: (z) => ({ delivery_host: z.string().optional() }),
      run: async (t, a) => {
        const { data } = await t.verb(['delivery', 'test', ...flags({ '--squid': a.squid, '--url': a.url, '--email': a.email }), '--', String(a.kind)], { write: true });
        return rec({ delivery_host: hostOf(str(a, 'url')) ?? str(a, 'email')?.split('@').pop(), ...rec(data) });
      },
    },
    {
      name: 'delivery_apply', title: 'Apply a delivery document', access: 'write', idempotent: true,
      description: 'Make delivery match a document (YAML or JSON text); sends only what differs. ${VAR} secrets only from --secret-env.',
      input: (z) => ({ ...docInput(z), dry_run: dryRun(z) }),
      output: (z) => objOutput(z),
      run: async (t, a) => {
        const d = await docFlags(t, a, 'delivery_apply');
        return rec((await t.verb(['delivery', 'apply', ...d.argv], { stdin: d.stdin, write: true })).data);
      },
    },
    {
      name: 'apply', title: 'Apply an account document', access: 'write', idempotent: true, destructive: true,
      description:
        'Make the account match a document (plan first). Deletions (prune) and a billing change that can charge more are ' +
        'refused unless the server runs with --allow-writes=all. ${VAR} secrets only from --secret-env.',
      input: (z) => ({ ...docInput(z), dry_run: dryRun(z) }),
      output: (z) => objOutput(z),
      run: async (t, a) => {
        const d = await docFlags(t, a, 'apply');
        return rec((await t.verb(['apply', ...d.argv], { stdin: d.stdin, write: true })).data);
      },
    },
    // ---- deletes and the billing reset (--allow-writes=all, or named)
    {
      name: 'tasks_delete', title: 'Delete a task', access: 'all', destructive: true, idempotent: true,
      description: 'Delete a task of a squid.',
      input: (z) => ({ task: z.string().min(1).describe('task id or unique id prefix'), squid: prefixSquid(z), dry_run: dryRun(z) }),
      output: (z) => objOutput(z),
      run: async (t, a) => rec((await t.verb(['tasks', 'delete', ...flags({ '--squid': a.squid }), '--', String(a.task)], { write: true })).data),
    },
    {
      name: 'squids_delete', title: 'Delete a squid', access: 'all', destructive: true, idempotent: true,
      description: 'Delete a squid with its tasks and runs.',
      input: (z) => ({ squid: squidArg(z), dry_run: dryRun(z) }),
      output: (z) => objOutput(z),
      run: async (t, a) => rec((await t.verb(['squids', 'delete', '--', String(a.squid)], { write: true })).data),
    },
    {
      name: 'billing_auto_reset_set', title: 'Set the automatic billing reset', access: 'all', destructive: true, idempotent: true,
      description: 'Turn the automatic billing reset on or off, or change its threshold and daily maximum; each reset charges the card on file.',
      input: (z) => ({
        enabled: z.boolean().optional().describe('true turns resets on, false off'),
        threshold: z.number().int().min(1).max(100).optional().describe('usage percentage that triggers a reset'),
        max_resets: z.number().int().min(1).max(10).optional().describe('most resets in any rolling 24 hours'),
        dry_run: dryRun(z),
      }),
      output: (z) => objOutput(z),
      run: async (t, a) =>
        rec((await t.verb(['billing', 'auto-reset', ...(a.enabled === true ? ['--enable'] : a.enabled === false ? ['--disable'] : []), ...flags({ '--threshold': a.threshold, '--max-resets': a.max_resets })], { write: true })).data),
    },
  ];
}

/** The first sentence of a description, at most 100 characters: what an agent needs to choose, in few bytes. */
function firstSentence(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.split(/(?<=[.!?])\s/)[0].trim();
  return s.length > 100 ? `${s.slice(0, 99)}…` : s;
}

/** A squid as an agent needs it: no masked download_url (results_url gives a usable one), nothing empty. */
function squidRow(s: Rec): Rec {
  const { download_url: _url, ...rest } = s;
  return rec(rest);
}
/** An account's metadata: never its cookies, credentials or parameter tables. */
function accountRow(a: Rec): Rec {
  return rec({
    id: a.id, username: a.username, type: a.type, status: a.status, status_code_info: a.status_code_info, created_at: a.created_at,
    last_synchronization_time: a.last_synchronization_time, resets_in: a.resets_in, lock_time: a.lock_time, squids: a.squids,
  });
}
