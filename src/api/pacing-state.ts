// The pacing state of every sq process on the machine that uses one key against one service, in one small file of the
// cache directory, so that parallel calls and a script's loop of calls draw on one rate budget.
//
// The file is named after a hash of the key and the service's origin and holds only counts and times. Each decision
// is a few synchronous system calls under lib/lock.ts's withFileLock; the waiting happens outside it. The state is
// rewritten in place (cheaper than a rename): a torn write, or a file that is not ours, open to others or not a regular
// file, reads as a fresh state. When the directory cannot be used safely, this process paces alone, in memory.
import {
  closeSync,
  constants,
  ftruncateSync,
  lstatSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import {
  MAX_PAUSE_MS,
  MAX_RESET_WAIT_MS,
  MemoryStore,
  emptyState,
  isIdle,
  type BucketStore,
  type PaceState,
  type ServerBudget,
} from './pacing.js';
import { withFileLock } from '../lib/lock.js';
import { fnv1a64, pruneCacheDir } from '../lib/cache-file.js';
import { makeDirSync, openRegularSync } from '../lib/regular-file.js';
import { finiteNumber } from '../lib/guards.js';
import { mark } from '../startup/trace.js';

/** A lock this old was left by a process that died holding it (holding it takes microseconds). */
const STALE_MS = 2000;
/** Give up on the shared state (and pace alone) rather than wait longer than this for the lock. */
const LOCK_WAIT_MS = 10_000;
/** The file's format; a file of another (an older sq's token buckets) reads as a fresh state. */
const VERSION = 2;
/** More entries than any state of sq holds: a file that says otherwise is not believed. */
const MAX_ENTRIES = 1000;
/** More than any X-RateLimit-Limit a service sends per window: a state file saying more is not believed. */
const MAX_LIMIT = 1_000_000;

interface SharedStoreOptions {
  dir: string;
  token: string | null;
  origin: string;
  now: () => number;
  trace?: (line: string) => void;
  /** Said on stderr: the directory cannot be used (this process then runs without shared state), a long lock wait. */
  warn?: (line: string) => void;
  /** A stop signal ends a wait for the lock at once. */
  signal?: AbortSignal;
}

/** The file that holds the buckets of one key against one service, named by a 64-bit FNV-1a hash of both. */
export function stateFile(dir: string, token: string | null, origin: string): string {
  return `${dir}/pacing-${fnv1a64(`${token ?? ''}\n${origin}`)}.json`;
}

export class SharedStore implements BucketStore {
  private chain: Promise<unknown> = Promise.resolve();
  /** Updates of this process not written yet: while there are any, the file does not say all this process knows. */
  private pending = 0;
  private file: string | undefined;
  private fallback: MemoryStore | undefined;

  constructor(private readonly opts: SharedStoreOptions) {}

  update<T>(name: string, fn: (s: PaceState, now: number) => T): Promise<T> {
    // One decision at a time within the process too: its own lock would otherwise look held by someone else.
    this.pending++;
    const p = this.chain.then(async () => {
      if (!this.fallback) {
        let file: string | undefined;
        try {
          file = this.file ??= this.open();
        } catch (err) {
          // A cache directory that cannot be made or used (a read-only or pseudo filesystem: SQ_CACHE_DIR=/proc/x):
          // said once, then this process paces alone.
          this.opts.warn?.(
            `the cache directory ${this.opts.dir} cannot be used (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): running without a cache`,
          );
        }
        try {
          if (file === undefined) throw Object.assign(new Error('no cache directory'), { code: 'ENOCACHE' });
          const lock = `${file}.lock`;
          return await withFileLock(lock, () => this.decide(file, name, fn), {
            staleMs: STALE_MS,
            waitMs: LOCK_WAIT_MS,
            signal: this.opts.signal,
            onLongWait: () =>
              this.opts.warn?.(
                `waiting for the pacing state's lock ${lock}, held by another sq process (at most ${LOCK_WAIT_MS / 1000} s, then this process paces alone)`,
              ),
          });
        } catch (err) {
          if (this.opts.signal?.aborted) throw err;
          this.opts.trace?.(
            `* pacing: shared state in ${this.opts.dir} unusable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); pacing this process alone`,
          );
          this.fallback = new MemoryStore(this.opts.now);
        }
      }
      return this.fallback.update(name, fn);
    });
    this.chain = p.catch(() => undefined).finally(() => this.pending--);
    return p;
  }

  async idle(): Promise<void> {
    await this.chain;
  }

  /**
   * The prefix's state as the file has it now, read without the lock (Bucket.take's first look). Undefined when the
   * file is missing, not ours, or does not parse, or when this process has an update not written yet.
   */
  peek(name: string): { state: PaceState; now: number } | undefined {
    if (this.fallback || this.pending > 0) return undefined;
    let fd: number | undefined;
    try {
      const file = (this.file ??= this.open());
      let st: Stats;
      ({ fd, st } = openRegularSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)));
      const all = privateFile(st) ? readState(fd, st.size) : undefined;
      if (!all) return undefined;
      const now = this.opts.now();
      mark('pacing state');
      return { state: sane(Object.hasOwn(all, name) ? all[name] : undefined, now), now };
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** The state file's path, once the directory is known to be ours and private. */
  private open(): string {
    // One lstat, and mkdir (which throws EEXIST, a costly exception) only when the directory is missing.
    let st = lstatSync(this.opts.dir, { throwIfNoEntry: false });
    if (!st) {
      makeDirSync(this.opts.dir);
      st = lstatSync(this.opts.dir);
    }
    if (!st.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    if (process.getuid && (st.uid !== process.getuid() || (st.mode & 0o022) !== 0)) {
      throw Object.assign(new Error('not a private directory of this user'), { code: 'EUNTRUSTED' });
    }
    const file = stateFile(this.opts.dir, this.opts.token, this.opts.origin);
    // A first call with another key or service: the state files of keys and services unused for a day go.
    pruneCacheDir(this.opts.dir, /^pacing-[0-9a-f]{16}\.json(\.lock)?$/, file, this.opts.now());
    return file;
  }

  private decide<T>(file: string, name: string, fn: (s: PaceState, now: number) => T): T {
    const state = openState(file);
    const fd = state.fd;
    try {
      const now = this.opts.now();
      // A file that does not say anything sq can read is a fresh state, rewritten below.
      const all = readState(fd, state.size) ?? {};
      const s = sane(all[name], now);
      const result = fn(s, now);
      // A prefix with nothing to remember takes no room (`sq api` can name any number of them).
      if (isIdle(s, now)) delete all[name];
      else all[name] = s;
      const text = Buffer.from(JSON.stringify({ v: VERSION, buckets: all }));
      writeSync(fd, text, 0, text.length, 0);
      ftruncateSync(fd, text.length);
      mark('pacing state');
      return result;
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * The state file, opened for reading and writing; one that is not ours, open to others, or a FIFO, socket or device
 * (opened without blocking, never read) is replaced by a fresh state, so parallel processes still share one budget. A
 * directory in its place is an error: this process then paces alone.
 */
function openState(file: string): { fd: number; size: number } {
  const flags = constants.O_RDWR | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);
  let opened: ReturnType<typeof openRegularSync>;
  try {
    opened = openRegularSync(file, flags, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOTREG') throw err;
    return replaceState(file, flags);
  }
  if (privateFile(opened.st)) return { fd: opened.fd, size: opened.st.size };
  closeSync(opened.fd);
  return replaceState(file, flags);
}
function replaceState(file: string, flags: number): { fd: number; size: number } {
  unlinkSync(file);
  return { fd: openSync(file, flags | constants.O_EXCL, 0o600), size: 0 };
}

/** More than any state sq writes: a bigger file is not read but rewritten. */
export const MAX_STATE_BYTES = 1024 * 1024;

/** The prefixes' states in the file; undefined when it is empty, too big, does not parse, or is of another format. */
function readState(fd: number, size: number): Record<string, unknown> | undefined {
  if (size > MAX_STATE_BYTES) return undefined;
  try {
    const doc = JSON.parse(readFileSync(fd, 'utf8')) as { v?: unknown; buckets?: unknown } | null;
    const b = doc?.v === VERSION ? doc.buckets : undefined;
    return b && typeof b === 'object' && !Array.isArray(b) ? { ...(b as Record<string, unknown>) } : undefined;
  } catch {
    return undefined;
  }
}

/** A state file only this user can read and write: anything else is not believed (and, under the lock, replaced). */
function privateFile(st: Stats): boolean {
  return !process.getuid || (st.uid === process.getuid() && (st.mode & 0o077) === 0);
}

/** A prefix's state read from the file, within bounds whatever the file says (a clock that jumped, a bad write). */
export function sane(raw: unknown, now: number): PaceState {
  const r = (raw ?? {}) as Partial<Record<keyof PaceState, unknown>>;
  const seq = finiteNumber(r.seq);
  const pausedUntil = finiteNumber(r.pausedUntil);
  const sent = Array.isArray(r.sent) && r.sent.length <= MAX_ENTRIES ? r.sent.map(finiteNumber) : null;
  const inflight =
    Array.isArray(r.inflight) && r.inflight.length <= MAX_ENTRIES
      ? r.inflight.map((e) =>
          Array.isArray(e) && e.length === 2 && finiteNumber(e[0]) !== null && finiteNumber(e[1]) !== null
            ? ([e[0], Math.min(now, e[1])] as [number, number])
            : null,
        )
      : null;
  const server = r.server === null ? null : saneServer(r.server, now);
  if (
    seq === null ||
    seq < 0 ||
    !Number.isInteger(seq) ||
    pausedUntil === null ||
    !sent ||
    sent.includes(null) ||
    !inflight ||
    inflight.includes(null) ||
    server === undefined
  )
    return emptyState();
  return {
    seq,
    sent: (sent as number[]).map((t) => Math.min(now, t)).sort((a, b) => a - b),
    inflight: inflight as [number, number][],
    server: server && { ...server, seq: Math.min(seq, server.seq) },
    pausedUntil: Math.min(now + MAX_PAUSE_MS, pausedUntil),
  };
}

/** The server's budget as the file has it; undefined when it does not parse. A reset is never further than sq waits. */
function saneServer(raw: unknown, now: number): ServerBudget | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Partial<Record<keyof ServerBudget, unknown>>;
  const [limit, remaining, seq, resetAt, until] = [
    finiteNumber(r.limit),
    finiteNumber(r.remaining),
    finiteNumber(r.seq),
    finiteNumber(r.resetAt),
    finiteNumber(r.until),
  ];
  if (
    (limit === null && r.limit !== null) ||
    remaining === null ||
    seq === null ||
    (resetAt === null && r.resetAt !== null) ||
    until === null
  )
    return undefined;
  // Within what a server can have said: a Limit of at least 1 (a negative one made every request wait for a window
  // that never came), a Remaining no lower than the requests sq can have in flight and no higher than the Limit.
  if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)) return undefined;
  if (!Number.isInteger(remaining) || remaining < -MAX_ENTRIES || remaining > (limit ?? MAX_LIMIT)) return undefined;
  if (!Number.isInteger(seq) || seq < 0) return undefined;
  const latest = now + MAX_RESET_WAIT_MS + 1000;
  return {
    limit,
    remaining,
    seq,
    resetAt: resetAt === null ? null : Math.min(latest, resetAt),
    until: Math.min(latest, until),
  };
}
