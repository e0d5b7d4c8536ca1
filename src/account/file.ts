// Reading an account file: YAML or JSON, checked against the zod schema as a whole (every problem named by its path,
// exit 2 before any request), then each delivery channel through the same checker as `sq delivery apply`
// (defaults, ${ENV} expansion, literal secrets refused), so a delivery file means the same thing in both commands.
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import * as z from 'zod/mini';
import { UsageError, refuseProblems } from '../errors.js';
import type { Ctx } from '../cli/context.js';
import { readInput } from '../cli/stdin.js';
import { parseTaskFile } from '../api/tasks.js';
import { parseDelimited } from '../io/csv.js';
import { checkApplyDocument, kindOf, MCP_DOC, mcpAllowedEnv, parseApplyTextAt, type Locate } from './delivery-file.js';
import { channelOf, type Channel, type DeliveryBody } from '../api/delivery.js';
import { accountSchema, type SquidSpec, type TaskValue } from './schema.js';
import type { Rec } from '../lib/guards.js';

interface DesiredChannel {
  channel: Channel;
  body: DeliveryBody;
  /** Secrets and URLs whose variable is not set: not compared by `plan`, and `apply` refuses to send the channel. */
  missing: { path: string; name: string }[];
  /** Its URL as the file writes it, when it takes a \${NAME} (see deliveryChanges). */
  written?: string;
}

export interface DesiredSquid {
  /** The key in the file: a name (or, for an existing squid, a hash or unique hash prefix). */
  ref: string;
  spec: SquidSpec;
  tasks?: Rec[];
  channels: DesiredChannel[];
}

export interface Desired {
  prune: boolean;
  /** Whether the file has a squids key at all: without one, squids are not managed (and never pruned). */
  managesSquids: boolean;
  squids: DesiredSquid[];
  billing?: { enabled?: boolean; threshold?: number; max_resets?: number };
  /** `file:line:col` of a path of the file, for messages about it. */
  locate: Locate;
}

const CHANNEL_KEYS = ['sftp', 'webhook', 'email', 'sheet', 's3'] as const;

export function pathOf(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else {
      const k = String(s);
      out += /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? `${out ? '.' : ''}${k}` : `${out ? '.' : ''}${JSON.stringify(k)}`;
    }
  }
  return out || '(top level)';
}

interface Issue {
  code: string;
  path: PropertyKey[];
  expected?: string;
  keys?: string[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  values?: unknown[];
  origin?: string;
  format?: string;
  /** invalid_union: the issues of each branch, with paths relative to the union's. */
  errors?: Issue[][];
}

/**
 * A union that one branch got into (a list of tasks, one of them wrong) is reported where that branch failed
 * (tasks[3].country), not as the whole list; a union no branch got into is reported as it is.
 */
function innermost(i: Issue): Issue {
  if (i.code !== 'invalid_union') return i;
  for (const branch of i.errors ?? []) {
    const inner = branch.find((e) => e.path.length > 0);
    if (inner) return innermost({ ...inner, path: [...i.path, ...inner.path] });
  }
  return i;
}

/** What a union of plain types takes, from its branches: "a string, a number, a boolean or null". */
function unionOfTypes(i: Issue): string | undefined {
  const types = (i.errors ?? []).map((b) =>
    b.length === 1 && b[0].code === 'invalid_type' && b[0].path.length === 0 ? b[0].expected : undefined,
  );
  if (types.length === 0 || types.some((t) => t === undefined)) return undefined;
  const named = types.map((t) =>
    t === 'null' ? 'null' : t === 'object' || t === 'record' ? 'a mapping' : t === 'array' ? 'a list' : `a ${t}`,
  );
  return named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} or ${named[named.length - 1]}`;
}

/** zod/mini carries no message texts: each issue is worded here, naming what is allowed, and the kind of what was found. */
function describeIssue(i: Issue, got: unknown): string {
  // A union has no one expected type to name: what the schema says the field takes (the JSON Schema's text too).
  const takes = i.code === 'invalid_union' ? (describedAt(i.path) ?? unionOfTypes(i)) : undefined;
  if (takes) {
    return got === undefined ? `is required: ${takes}` : `must be ${takes} (got ${kindOf(got)})`;
  }
  switch (i.code) {
    case 'unrecognized_keys':
      // The key is content of the file: it is located (file:line:col), not quoted.
      return `unknown field${i.keys!.length > 1 ? `s (${i.keys!.length})` : ''}`;
    case 'invalid_type':
      return got === undefined
        ? `is required (${i.expected})`
        : `must be ${i.expected === 'record' || i.expected === 'object' ? 'a mapping' : `a ${i.expected}`} (got ${kindOf(got)})`;
    case 'too_small':
      return i.origin === 'string' ? 'must not be empty' : `must be at least ${i.minimum} (got ${kindOf(got)})`;
    case 'too_big':
      return `must be at most ${i.maximum} (got ${kindOf(got)})`;
    case 'invalid_value':
      return `must be one of ${i.values!.map((v) => JSON.stringify(v)).join(', ')} (got ${kindOf(got)})`;
    case 'invalid_format':
      return 'must be an environment reference like ${SFTP_PASSWORD}: secrets are not accepted in the file';
    case 'invalid_union':
      return `has the wrong shape (got ${kindOf(got)})`;
    case 'custom': {
      // A refine (a schedule's cron or zone): what the field takes, from its description.
      const wants = describedAt(i.path);
      if (wants) return `is not valid: expected ${wants}`;
      return `is not valid (${i.code})`;
    }
    default:
      return `is not valid (${i.code})`;
  }
}

/** The description the account schema gives the field at `path` (z.describe), if any. */
function describedAt(path: readonly PropertyKey[]): string | undefined {
  type Def = {
    type: string;
    shape?: Record<string, z.ZodMiniType>;
    valueType?: z.ZodMiniType;
    element?: z.ZodMiniType;
    options?: z.ZodMiniType[];
  };
  const step = (s: z.ZodMiniType, key: PropertyKey): z.ZodMiniType | undefined => {
    const def = unwrap(s)._zod.def as Def;
    if (def.type === 'union') {
      // tasks: a list or {file}: the branch a number (a list index) or a name leads into.
      for (const o of def.options ?? []) {
        const t = (unwrap(o)._zod.def as Def).type;
        if (typeof key === 'number' ? t === 'array' : t === 'object' || t === 'record') return step(o, key);
      }
      return undefined;
    }
    if (def.type === 'array') return typeof key === 'number' ? def.element : undefined;
    return def.type === 'object' ? def.shape?.[String(key)] : def.type === 'record' ? def.valueType : undefined;
  };
  let schema: z.ZodMiniType | undefined = accountSchema;
  for (const key of path) {
    schema = step(schema!, key);
    if (!schema) return undefined;
  }
  return (z.globalRegistry.get(schema!) as { description?: string } | undefined)?.description;
}

function unwrap(schema: z.ZodMiniType): z.ZodMiniType {
  let s = schema;
  for (
    let def = s._zod.def as { type: string; innerType?: z.ZodMiniType };
    def.innerType && ['optional', 'nullable', 'default'].includes(def.type);
    def = s._zod.def as typeof def
  )
    s = def.innerType;
  return s;
}

function at(doc: unknown, path: readonly PropertyKey[]): unknown {
  let v = doc;
  for (const k of path) v = v && typeof v === 'object' ? (v as Rec)[k as string] : undefined;
  return v;
}

/** A problem of the file, prefixed with where it stands (`sq.yaml:12:7: …`) when that is known. */
export function located(where: string | undefined, problem: string): string {
  return where ? `${where}: ${problem}` : problem;
}

function fail(problems: string[]): never {
  refuseProblems(problems, 'invalid account file: ');
  throw new UsageError('invalid account file');
}

/** Reads and validates the whole file before anything is sent; every value it takes from the environment is registered as a secret. */
export async function loadAccountFile(
  ctx: Ctx,
  file: string,
  opts: { allowMissingSecrets: boolean },
): Promise<Desired> {
  const text = await readInput(ctx, '--file', file);
  // A document sq mcp read under its --root comes on stdin, named by its path.
  const mcpDoc = file === '-' ? ctx.env[MCP_DOC] || undefined : undefined;
  const { value: doc, locate } = await parseApplyTextAt(
    text,
    file === '-' ? (mcpDoc ?? '<stdin>') : file,
    'account file',
  );
  const r = accountSchema.safeParse(doc);
  if (!r.success) {
    fail(
      r.error.issues.map((i) => {
        const issue = innermost(i as unknown as Issue);
        // Only the kind of the value is named, never the value (kindOf).
        const got = at(doc, issue.path);
        // An unknown key is located at its own line; anything else where its value stands (or its parent, if missing).
        const where =
          issue.code === 'unrecognized_keys' && issue.keys?.length ? [...issue.path, issue.keys[0]] : issue.path;
        return located(
          locate(where) ?? locate(issue.path.slice(0, -1)),
          `${pathOf(issue.path)}: ${describeIssue(issue, got)}`,
        );
      }),
    );
  }
  const parsed = r.data;
  // A document `sq mcp` got inline (stdin) names its tasks files inside the server's --root, or none: the server sets
  // SQ_MCP_ROOT for its tool calls ('' without --root), so an agent cannot make plan read files of the working directory.
  const mcpRoot = file === '-' ? ctx.env.SQ_MCP_ROOT : undefined;
  const base = file === '-' ? (mcpDoc ? dirname(mcpDoc) : resolve(mcpRoot || '.')) : dirname(resolve(file));
  const allowedEnv = mcpAllowedEnv(ctx.env);
  const squids: DesiredSquid[] = [];
  const problems: string[] = [];
  const where: SquidSources = { opts, allowedEnv, base, mcpRoot };
  for (const [ref, spec] of Object.entries(parsed.squids ?? {}))
    squids.push(await desiredSquid(ctx, ref, spec, where, problems));
  if (problems.length) fail(problems);
  const ar = parsed.billing?.auto_reset;
  return { prune: parsed.prune === true, managesSquids: parsed.squids !== undefined, squids, billing: ar, locate };
}

interface SquidSources {
  opts: { allowMissingSecrets: boolean };
  allowedEnv: ReturnType<typeof mcpAllowedEnv>;
  /** The directory tasks files are read from. */
  base: string;
  /** SQ_MCP_ROOT for a document sq mcp sent inline ('' = the server reads no file), else undefined. */
  mcpRoot: string | undefined;
}

/** One squid of the file, its delivery channels checked and its tasks read; what is wrong goes to `problems`. */
async function desiredSquid(
  ctx: Ctx,
  ref: string,
  spec: SquidSpec,
  w: SquidSources,
  problems: string[],
): Promise<DesiredSquid> {
  const { opts, allowedEnv, base, mcpRoot } = w;
  const path = pathOf(['squids', ref]);
  if (ref.trim() === '') problems.push(`${path}: the squid name must not be empty`);
  const channels: DesiredChannel[] = [];
  for (const ch of CHANNEL_KEYS) {
    if (spec[ch] === undefined) continue;
    try {
      const checked = checkApplyDocument({ squids: { [ref]: { [ch]: spec[ch] } } }, ctx.env, {
        ...opts,
        onSecret: (s) => ctx.addSecret(s),
        allowedEnv,
      });
      const body = checked.squids[0].bodies[0];
      const channel = channelOf(body);
      channels.push({ channel, body, missing: checked.missing, written: checked.squids[0].written[channel] });
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      problems.push(
        err.message.replace(/^invalid delivery file: /, ''),
        ...err.details.map((d) => d.replace(/^\s*also: /, '')),
      );
    }
  }
  let tasks: Rec[] | undefined;
  if (spec.tasks !== undefined) {
    try {
      if (!Array.isArray(spec.tasks) && mcpRoot === '')
        throw new UsageError(
          `${path}.tasks.file: sq mcp reads no file unless it runs with --root DIR; list the tasks in the document`,
        );
      tasks = Array.isArray(spec.tasks)
        ? spec.tasks.map(taskObject)
        : await tasksFromFile(base, spec.tasks.file, `${path}.tasks.file`);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      problems.push(err.message);
    }
  }
  return { ref, spec, tasks, channels };
}

function taskObject(v: TaskValue): Rec {
  return typeof v === 'string' ? { url: v } : { ...v };
}

/** The largest tasks file an account file may name (10 MiB): a CSV of 100,000 tasks is well under it. */
export const TASK_FILE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The text of a tasks file, which must be a regular file inside the account file's directory `base`: a relative path
 * without "..", not a symbolic link leading out of it, at most TASK_FILE_MAX_BYTES. So a file from a pull request cannot
 * make `sq plan` print (or `sq apply` send) /proc/self/environ, /etc/passwd or a CI job's secrets. Opened without
 * blocking (a FIFO is refused, never waited on).
 */
async function readTaskFile(base: string, name: string, path: string): Promise<string> {
  const refuse = (why: string): never => {
    throw new UsageError(
      `${path}: ${JSON.stringify(name)} ${why}; a tasks file must be a regular file in the account file's directory (${base}), named by a relative path`,
    );
  };
  if (isAbsolute(name) || /^[a-z]:/i.test(name)) refuse('is an absolute path');
  if (name.split(/[\\/]/).includes('..')) refuse('leads out of the directory ("..")');
  const cannot = (err: NodeJS.ErrnoException): never => {
    throw new UsageError(`${path}: cannot read ${JSON.stringify(name)} (${err.code ?? err.message})`);
  };
  const [realBase, real] = await Promise.all([
    realpath(base).catch(cannot),
    realpath(resolve(base, name)).catch(cannot),
  ]);
  const rel = relative(realBase, real);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    refuse(`is a symbolic link to ${JSON.stringify(real)}, outside the directory`);
  const fh = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)).catch(
    cannot,
  );
  try {
    const st = await fh.stat();
    if (!st.isFile()) refuse('is not a regular file');
    if (st.size > TASK_FILE_MAX_BYTES) refuse(`is ${st.size} bytes, over the ${TASK_FILE_MAX_BYTES}-byte (10 MiB) cap`);
    // Read until one byte over the cap at most: a file that grows while read (or says size 0, as /proc does) is capped too.
    const chunks: Buffer[] = [];
    let n = 0;
    for (
      let r;
      n <= TASK_FILE_MAX_BYTES && (r = await fh.read(Buffer.alloc(65536), 0, 65536, n)).bytesRead > 0;
      n += r.bytesRead
    )
      chunks.push(r.buffer.subarray(0, r.bytesRead));
    if (n > TASK_FILE_MAX_BYTES) refuse(`is over the ${TASK_FILE_MAX_BYTES}-byte (10 MiB) cap`);
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    await fh.close();
  }
}

/** A CSV/TSV with a header row of task parameters (what `sq tasks upload` sends), else one URL per line or a JSON array. */
async function tasksFromFile(base: string, file: string, path: string): Promise<Rec[]> {
  const text = await readTaskFile(base, file, path);
  if (!/\.(csv|tsv)$/i.test(file)) return parseTaskFile(text, 'url', path);
  const [header, ...rows] = parseDelimited(text, /\.tsv$/i.test(file) ? '\t' : ',');
  if (!header)
    throw new UsageError(
      `${path}: ${JSON.stringify(file)} is empty; it needs a header row naming the task parameters (e.g. url)`,
    );
  const names = header.map((h) => h.trim());
  return rows.map((row) => Object.fromEntries(names.map((n, i) => [n, row[i] ?? '']).filter(([, v]) => v !== '')));
}
