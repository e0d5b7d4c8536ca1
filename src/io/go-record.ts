// What a run-starting command is doing, kept on disk before each paid or half-done step, so that a rerun after an
// interruption continues it instead of starting, and paying for, a second run.
// - `sq go` keeps a record beside its -o file (.FILE.sq-go; for stdout, in the cache directory): the squid, whether its
//   params step finished, and the run ("starting" with the time it was about to be started, then its id).
// - `sq runs start --idempotency-key KEY` keeps KEY → run per key and API in the cache directory.
// Files are written and read as the export checkpoints are (lib/atomic-file.ts).
import { mkdirSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { fnv1a64 } from '../lib/cache-file.js';
import { readRegularFile, replaceFile } from '../lib/atomic-file.js';
import { withFileLock } from '../lib/lock.js';

export const GO_RECORD_VERSION = 1;

/** A run about to be started (id null: the POST went out or was about to) or started (its id). */
export interface RunMark {
  /** The API's clock (ISO) just before the POST: a rerun looks for the squid's runs created after it. */
  since: string;
  id: string | null;
}

export interface GoRecord {
  version: number;
  command: 'go';
  /** Which key and API (a hash of both, never the key): a record of another profile is not continued. */
  key_id: string;
  squid_name: string;
  squid: string | null;
  /** False from before the squid is created (or its --param values are sent) until the params step answered. */
  params_done: boolean;
  run: RunMark | null;
  output: string | null;
  updated_at: string;
}

/** Where `sq go` keeps its record: beside the -o file, or (stdout) in the cache directory, named by a hash of the key,
 * API, crawler and tasks; undefined for stdout without a cache directory. */
export function goRecordPath(o: {
  output: string | undefined;
  cacheDir: string | undefined;
  keyId: string;
  job: string;
}): string | undefined {
  if (o.output !== undefined) {
    const full = resolve(o.output);
    return join(dirname(full), `.${basename(full)}.sq-go`);
  }
  return o.cacheDir === undefined ? undefined : join(o.cacheDir, 'go', `${o.keyId}-${fnv1a64(o.job)}.json`);
}

/** The record at `path`; null when there is none. A damaged one (edited by hand, not ours) is a UsageError naming it. */
export async function readGoRecord(path: string): Promise<GoRecord | null> {
  const text = await readRegularFile(path, 'record');
  if (text === null) return null;
  let r: Record<string, unknown> | null = null;
  try {
    r = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // reported below
  }
  const startOver = `check \`sq runs list\` for a run it started, then delete "${path}" to start over`;
  if (r === null || typeof r !== 'object' || Array.isArray(r) || r.command !== 'go')
    throw new UsageError(`"${path}" is not a record written by sq go; ${startOver}`);
  if (r.version !== GO_RECORD_VERSION)
    throw new UsageError(
      `the record "${path}" has version ${String(r.version)}; this sq reads version ${GO_RECORD_VERSION}`,
    );
  const problem = goRecordProblem(r);
  if (problem) throw new UsageError(`the record "${path}" is damaged: ${problem}; ${startOver}`);
  return r as unknown as GoRecord;
}

function goRecordProblem(r: Record<string, unknown>): string | null {
  const text = (v: unknown): v is string => typeof v === 'string' && v !== '';
  if (!text(r.key_id)) return 'key_id must be a non-empty string';
  if (!text(r.squid_name)) return 'squid_name must be a non-empty string';
  if (r.squid !== null && !text(r.squid)) return 'squid must be null or an id';
  if (typeof r.params_done !== 'boolean') return 'params_done must be true or false';
  if (r.run !== null && runMarkProblem(r.run)) return `run ${runMarkProblem(r.run)}`;
  if (r.output !== null && !text(r.output)) return 'output must be null or a path';
  return null;
}

function runMarkProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return 'must be null or {"since": time, "id": id or null}';
  const m = v as Record<string, unknown>;
  if (typeof m.since !== 'string' || !Number.isFinite(Date.parse(m.since))) return 'since must be an ISO time';
  if (m.id !== null && (typeof m.id !== 'string' || m.id === '')) return 'id must be null or a run id';
  return null;
}

/** Replace the record atomically (its directory made when it is the cache's). */
export async function writeGoRecord(path: string, rec: GoRecord): Promise<void> {
  if (rec.output === null) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  await replaceFile(path, JSON.stringify({ ...rec, updated_at: new Date().toISOString() }, null, 2) + '\n');
}

export async function removeGoRecord(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/** Run ids kept for an --idempotency-key: 24 hours after the key was first used. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

export interface IdempotencyEntry extends RunMark {
  squid: string;
  /** When the key was first used (local clock), for the 24 h. */
  at: string;
}

/** The per key-and-API file of `runs start --idempotency-key`; undefined without a cache directory. */
export function idempotencyPath(cacheDir: string | undefined, keyId: string): string | undefined {
  return cacheDir === undefined ? undefined : join(cacheDir, `idempotency-${keyId}.json`);
}

/** The entries of the file younger than 24 h; a file that is not ours is a UsageError naming it. */
export async function readIdempotency(path: string, now: number): Promise<Record<string, IdempotencyEntry>> {
  const text = await readRegularFile(path, 'idempotency file');
  if (text === null) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new UsageError(
      `"${path}" is not an idempotency file written by sq; delete it (the keys in it are forgotten)`,
    );
  const out: Record<string, IdempotencyEntry> = {};
  for (const [k, e] of Object.entries(v as Record<string, unknown>)) {
    const x = e as Record<string, unknown>;
    const at = typeof x?.at === 'string' ? Date.parse(x.at) : NaN;
    if (
      !Number.isFinite(at) ||
      now - at > IDEMPOTENCY_TTL_MS ||
      typeof x.squid !== 'string' ||
      runMarkProblem(x) !== null
    )
      continue;
    out[k] = x as unknown as IdempotencyEntry;
  }
  return out;
}

/** Sets (or with null, forgets) one key, under a short lock: two sq processes never lose each other's keys. */
export async function saveIdempotency(
  path: string,
  key: string,
  entry: IdempotencyEntry | null,
  now: number,
): Promise<void> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  await withFileLock(
    `${path}.lock`,
    async () => {
      const all = await readIdempotency(path, now).catch(() => ({}) as Record<string, IdempotencyEntry>);
      if (entry === null) delete all[key];
      else all[key] = entry;
      await replaceFile(path, JSON.stringify(all, null, 2) + '\n');
    },
    { staleMs: 10_000, waitMs: 10_000 },
  );
}

/** One `sq go` and its record: opened (and locked) before any request; each step saves what it is about to do.
 * Without a place for the record it records nothing. */
export class GoJob {
  private constructor(
    readonly path: string | undefined,
    private rec: GoRecord | null,
    private readonly base: Pick<GoRecord, 'key_id' | 'output'>,
  ) {}

  static async open(o: {
    output: string | undefined;
    cacheDir: string | undefined;
    keyId: string;
    /** The crawler and tasks as typed: names the record of an export to stdout. */
    job: string;
    lock: (path: string) => Promise<void>;
  }): Promise<GoJob> {
    const path = goRecordPath(o);
    const base = { key_id: o.keyId, output: o.output === undefined ? null : resolve(o.output) };
    if (path === undefined) return new GoJob(undefined, null, base);
    if (o.output === undefined) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    await o.lock(path);
    const rec = await readGoRecord(path);
    if (rec && rec.key_id !== o.keyId) {
      throw new UsageError(
        `"${path}" records an interrupted sq go of another profile or API: run it again with that profile to finish it, or delete the record to start over`,
      );
    }
    return new GoJob(path, rec, base);
  }

  /** The run the record names or was starting; null when none. */
  get run(): RunMark | null {
    return this.rec?.run ?? null;
  }

  /** A run with an id is recorded: the rerun continues it (and its export), never starts another. */
  get hasRun(): boolean {
    return !!this.rec?.run?.id;
  }

  /** The record says the params step was begun and never answered (E8: the squid is not ready without it). */
  get paramsPending(): boolean {
    return this.rec !== null && !this.rec.params_done;
  }

  get recorded(): boolean {
    return this.path !== undefined;
  }

  /** The squid the record is for must be this one (same crawler and tasks); a stale record is started over. */
  checkSquid(name: string, id: string | null): void {
    if (!this.rec) return;
    if (this.rec.squid_name !== name) {
      throw new UsageError(
        `"${this.path}" records an interrupted sq go of squid "${this.rec.squid_name}" into this file: ` +
          `run that command again to finish it, or delete the record to start over`,
      );
    }
    // The recorded squid is gone (deleted, another made under its name): nothing recorded of it applies.
    if (id !== null && this.rec.squid !== null && this.rec.squid !== id) this.rec = null;
  }

  async save(squidName: string, patch: Partial<Pick<GoRecord, 'squid' | 'params_done' | 'run'>>): Promise<void> {
    const prev = this.rec ?? {
      version: GO_RECORD_VERSION,
      command: 'go' as const,
      squid: null,
      params_done: true,
      run: null,
      updated_at: '',
    };
    this.rec = { ...prev, ...this.base, squid_name: squidName, ...patch };
    if (this.path !== undefined) await writeGoRecord(this.path, this.rec);
  }

  /** The run is exported (or ended without results to wait for): the job is over; a rerun is a new job. */
  async finish(): Promise<void> {
    this.rec = null;
    if (this.path !== undefined) await removeGoRecord(this.path);
  }
}
