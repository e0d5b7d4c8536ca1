// The lock files of sq, all in one place. Two kinds:
// - withFileLock: a short critical section (the profile file's read-modify-write, a pacing decision) under a file
//   created with O_EXCL; a lock older than `staleMs` was left by a process that died holding it and is taken over;
//   waiting is bounded by `waitMs`, then ELOCKED.
// - lockExport: an export owned for the whole command (a resumable `results list`), the owner's pid in the file.
import { closeSync, constants, openSync, rmSync, statSync, unlinkSync } from 'node:fs';
// node:fs/promises on first use (loading it is not free): only the export lock uses it, not the pacing lock every call
// takes. process.getBuiltinModule, not import(): the bundle runs through vm.Script, where import() has no loader.
const fsp = () => process.getBuiltinModule('node:fs/promises');
import { UsageError } from '../errors.js';
import { sleep } from './sleep.js';
import { readRegularSync } from './regular-file.js';

/** Whether a lock file written at `mtimeMs` is older than `ms`, or dated more than `ms` ahead of now (a clock set
 * back, a copied file): such a lock was not written by a process running now. */
export function staleAt(mtimeMs: number, ms: number, now: number = Date.now()): boolean {
  return Math.abs(now - mtimeMs) > ms;
}

/** After this long waiting for a lock, `onLongWait` says why (on stderr). */
const LOCK_NOTICE_MS = 2000;

/** Runs `fn` while holding the lock file `lock`; keep it short: the lock is not refreshed. The wait ends as soon as
 * `signal` aborts, and `onLongWait` is called once after LOCK_NOTICE_MS of waiting. */
export async function withFileLock<T>(
  lock: string,
  fn: () => T | Promise<T>,
  opts: { staleMs: number; waitMs: number; signal?: AbortSignal; onLongWait?: () => void },
): Promise<T> {
  const started = Date.now();
  const deadline = started + opts.waitMs;
  let told = false;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    try {
      if (staleAt(statSync(lock).mtimeMs, opts.staleMs)) {
        // recursive: the directory an older sq's lock (proper-lockfile) left is taken over too.
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    if (Date.now() > deadline) throw Object.assign(new Error('lock held too long'), { code: 'ELOCKED' });
    if (!told && Date.now() - started > LOCK_NOTICE_MS) {
      told = true;
      opts.onLongWait?.();
    }
    // Real time, not an injected clock: the holder is another process.
    await sleep(1 + Math.random() * 4, opts.signal);
  }
  try {
    return await fn();
  } finally {
    removeLock(lock);
  }
}

/** unlinkSync, not rmSync, whose first call loads Node's rimraf module; already gone (taken over as stale) is fine. */
function removeLock(lock: string): void {
  try {
    unlinkSync(lock);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * One export at a time per checkpoint: two processes on the same export would write the same partial file and
 * checkpoint at once. The lock is a file created with O_EXCL beside the checkpoint, holding the owner's pid, removed
 * when the command ends. A lock whose process is gone, or whose pid now belongs to another program, is taken over;
 * one whose sq is alive is a usage error naming it (and `flag`, the -o or --checkpoint the user gave).
 */
export async function lockExport(
  checkpoint: string,
  flag: string,
  onCleanup: (fn: () => Promise<void>) => void,
): Promise<void> {
  const lock = `${checkpoint}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      await fsp().writeFile(lock, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      onCleanup(() =>
        fsp()
          .unlink(lock)
          .catch(() => undefined),
      );
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new UsageError(`${flag}: cannot lock the export "${lock}": ${code ?? String(err)}`);
    }
    const { owner, stale } = await lockState(lock);
    // Nobody holds it. Two processes may both see that: only one at a time removes it (the takeover file), after
    // looking again, or the second would remove the lock the first has just taken.
    if (attempt === 0 && stale && (await takeOver(lock))) continue;
    throw new UsageError(
      `${flag}: another sq${owner !== null ? ` (pid ${owner})` : ''} is running this export (lock ` +
        `"${lock}"): wait for it to end, or delete the lock if no sq is running`,
    );
  }
}

async function lockState(lock: string): Promise<{ owner: number | null; stale: boolean }> {
  const st = await fsp()
    .lstat(lock)
    .catch(() => null);
  if (!st?.isFile()) return { owner: null, stale: false };
  // Read without blocking and capped: a FIFO swapped in after the lstat is no wait.
  let text = '';
  try {
    text = readRegularSync(lock, 64, constants.O_NOFOLLOW ?? 0);
  } catch {
    // unreadable: no owner named
  }
  const pid = Number(text.trim());
  const owner = Number.isInteger(pid) && pid > 0 ? pid : null;
  return { owner, stale: owner !== null ? !(await liveSq(owner, st.mtimeMs)) : staleAt(st.mtimeMs, TAKEOVER_STALE_MS) };
}

/** A lock file without a pid, or a takeover file, this old was left by a process that died (they live milliseconds). */
const TAKEOVER_STALE_MS = 10_000;

/** Whether `pid` can still be the sq that wrote a lock at `lockedAt`: alive, and where /proc tells, started before
 * that and running sq (a pid reused by another program does not block an export for ever). */
async function liveSq(pid: number, lockedAt: number): Promise<boolean> {
  if (pid === process.pid) return true;
  if (!alive(pid)) return false;
  const started = await startedAt(pid);
  // 1 s of slack: the boot time /proc gives is in whole seconds.
  if (started !== null && started > lockedAt + 1000) return false;
  const argv = (
    await fsp()
      .readFile(`/proc/${pid}/cmdline`, 'utf8')
      .catch(() => null)
  )?.split('\0');
  return !argv || argv.slice(0, 2).some((a) => /(^|\/)sq(\.c?js)?$/.test(a));
}

/** When process `pid` started (ms since the epoch), from /proc/PID/stat and the boot time; null where there is no /proc. */
async function startedAt(pid: number): Promise<number | null> {
  const [stat, sys] = await Promise.all([
    fsp()
      .readFile(`/proc/${pid}/stat`, 'utf8')
      .catch(() => null),
    fsp()
      .readFile('/proc/stat', 'utf8')
      .catch(() => null),
  ]);
  // Field 22, starttime, in clock ticks after boot (USER_HZ, 100 on Linux).
  const ticks = Number(stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  const boot = Number(/^btime (\d+)$/m.exec(sys ?? '')?.[1]);
  return Number.isFinite(ticks) && Number.isFinite(boot) && stat && sys ? boot * 1000 + ticks * 10 : null;
}

/** Removes a stale lock under the takeover file, if it is still stale then; false when another process is at it. */
async function takeOver(lock: string): Promise<boolean> {
  const guard = `${lock}.takeover`;
  for (let attempt = 0; ; attempt++) {
    try {
      await fsp().writeFile(guard, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch {
      // Left by a process killed in the middle of a takeover (which takes milliseconds): removed, once.
      const st = await fsp()
        .lstat(guard)
        .catch(() => null);
      if (attempt > 0 || !st?.isFile() || !staleAt(st.mtimeMs, TAKEOVER_STALE_MS)) return false;
      await fsp()
        .unlink(guard)
        .catch(() => undefined);
    }
  }
  try {
    if (!(await lockState(lock)).stale) return false;
    await fsp()
      .unlink(lock)
      .catch(() => undefined);
    return true;
  } finally {
    await fsp()
      .unlink(guard)
      .catch(() => undefined);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user's process.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
