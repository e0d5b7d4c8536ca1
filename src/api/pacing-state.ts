// The pacing buckets of every sq process on the machine that uses one key against one service, in one small file
// of the cache directory, so that parallel calls (8 `sq results list --all` in a CI job) draw on one rate budget
// instead of each assuming the whole of it. A 429 pause or a server's "Remaining: 0" seen by one process holds all.
//
// The file is named after a hash of the key and the service's origin (never the key itself) and holds only token
// counts and times. Each decision is a few synchronous system calls under a lock (a file created with O_EXCL); the
// waiting happens outside it. A lock older than STALE_MS belongs to a process that died while holding it and is
// taken over. The state is rewritten in place (a temporary file and a rename cost ~10 times more): a process killed
// in the middle of that write leaves a file that does not parse, which reads as a fresh bucket. When the directory
// or file cannot be used safely (not ours, open to others, a read-only disk), this process paces alone, in memory,
// as if the cache were off.
//
// Why not proper-lockfile: loading it (graceful-fs, signal-exit, retry) costs 10-35 ms on every call that makes a
// request, and its mkdir lock and mtime refresh timers are for long critical sections; this one never awaits.
import { closeSync, constants, ftruncateSync, lstatSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { MAX_PAUSE_MS, MemoryStore, freshState, type BucketSpec, type BucketState, type BucketStore } from './pacing.js';
import { sleep } from './sleep.js';
import { fnv1a64, pruneCacheDir } from '../io/cache-file.js';
import { openRegularSync } from '../io/regular-file.js';

/** A lock this old was left by a process that died holding it (holding it takes microseconds). */
const STALE_MS = 2000;
/** Give up on the shared state (and pace alone) rather than wait longer than this for the lock. */
const LOCK_WAIT_MS = 10_000;

interface SharedStoreOptions {
  dir: string;
  token: string | null;
  origin: string;
  now: () => number;
  trace?: (line: string) => void;
}

/** The file that holds the buckets of one key against one service, named by a 64-bit FNV-1a hash of both. */
export function stateFile(dir: string, token: string | null, origin: string): string {
  return `${dir}/pacing-${fnv1a64(`${token ?? ''}\n${origin}`)}.json`;
}

export class SharedStore implements BucketStore {
  private chain: Promise<unknown> = Promise.resolve();
  private file: string | undefined;
  private fallback: MemoryStore | undefined;

  constructor(private readonly opts: SharedStoreOptions) {}

  update<T>(name: string, spec: BucketSpec, fn: (s: BucketState, now: number) => T): Promise<T> {
    // One decision at a time within the process too: its own lock would otherwise look held by someone else.
    const p = this.chain.then(async () => {
      if (!this.fallback) {
        try {
          const file = (this.file ??= this.open());
          return await withLock(`${file}.lock`, () => this.decide(file, name, spec, fn));
        } catch (err) {
          this.opts.trace?.(`* pacing: shared state in ${this.opts.dir} unusable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); pacing this process alone`);
          this.fallback = new MemoryStore(this.opts.now);
        }
      }
      return this.fallback.update(name, spec, fn);
    });
    this.chain = p.catch(() => undefined);
    return p;
  }

  async idle(): Promise<void> {
    await this.chain;
  }

  /** The state file's path, once the directory is known to be ours and private. */
  private open(): string {
    mkdirSync(this.opts.dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(this.opts.dir);
    if (!st.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    if (process.getuid && (st.uid !== process.getuid() || (st.mode & 0o022) !== 0)) {
      throw Object.assign(new Error('not a private directory of this user'), { code: 'EUNTRUSTED' });
    }
    const file = stateFile(this.opts.dir, this.opts.token, this.opts.origin);
    // A first call with another key or service: the state files of keys and services unused for a day go.
    pruneCacheDir(this.opts.dir, /^pacing-[0-9a-f]{16}\.json(\.lock)?$/, file, this.opts.now());
    return file;
  }

  private decide<T>(file: string, name: string, spec: BucketSpec, fn: (s: BucketState, now: number) => T): T {
    const fd = openState(file);
    try {
      const now = this.opts.now();
      const all = readState(fd);
      const s = sane(all[name], spec, now);
      const result = fn(s, now);
      all[name] = s;
      const text = Buffer.from(JSON.stringify({ v: 1, buckets: all }));
      writeSync(fd, text, 0, text.length, 0);
      ftruncateSync(fd, text.length);
      return result;
    } finally {
      closeSync(fd);
    }
  }
}

/** The state file, opened for reading and writing; one that is not ours or is open to others is replaced. */
function openState(file: string): number {
  const flags = constants.O_RDWR | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);
  // Not a FIFO or device put in its place: reading one would block this process, signals and all.
  const { fd, st } = openRegularSync(file, flags, 0o600);
  if (!process.getuid || (st.uid === process.getuid() && (st.mode & 0o077) === 0)) return fd;
  closeSync(fd);
  unlinkSync(file);
  return openSync(file, flags | constants.O_EXCL, 0o600);
}

/** The buckets in the file; nothing when it is empty or does not parse. */
function readState(fd: number): Record<string, unknown> {
  try {
    const b = (JSON.parse(readFileSync(fd, 'utf8')) as { buckets?: unknown } | null)?.buckets;
    return b && typeof b === 'object' && !Array.isArray(b) ? { ...(b as Record<string, unknown>) } : {};
  } catch {
    return {};
  }
}

/** A bucket read from the file, within bounds whatever the file says (another sq version, a clock that jumped). */
function sane(raw: unknown, spec: BucketSpec, now: number): BucketState {
  const r = (raw ?? {}) as Partial<Record<keyof BucketState, unknown>>;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const tokens = n(r.tokens);
  const last = n(r.last);
  const pausedUntil = n(r.pausedUntil);
  if (tokens === null || last === null || pausedUntil === null) return freshState(spec, now);
  return {
    tokens: Math.min(spec.burst, Math.max(0, tokens)),
    last: Math.min(now, last),
    pausedUntil: Math.min(now + MAX_PAUSE_MS, pausedUntil),
  };
}

/** Runs `fn` (synchronous: it cannot hold the lock across a wait) while holding the lock file. */
async function withLock<T>(lock: string, fn: () => T): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_MS) {
        unlinkSync(lock);
        continue;
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    if (Date.now() > deadline) throw Object.assign(new Error('lock held too long'), { code: 'ELOCKED' });
    // Real time, not an injected clock: the holder is another process.
    await sleep(1 + Math.random() * 4);
  }
  try {
    return fn();
  } finally {
    try {
      unlinkSync(lock);
    } catch {}
  }
}
