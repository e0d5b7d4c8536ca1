// Output files appear whole or not at all: data goes to a 0600 temp file next to the target, fsynced, then renamed over
// the target; an error or Ctrl-C removes it. A resumable export (io/checkpoint.ts) names its temp file and keep()s it.
// Only a regular file (or nothing) is ever replaced, checked before any request (checkOutputTarget) and again at the
// rename. A replaced file keeps its permission bits; a new one stays 0600 (results are often personal data).
import {
  createWriteStream,
  open as openCb,
  write as writeCb,
  writev as writevCb,
  fsync as fsyncCb,
  close as closeCb,
  fchmod as fchmodCb,
  fchown as fchownCb,
  ftruncate as ftruncateCb,
  fstat as fstatCb,
  constants,
  type Stats,
  type WriteStream,
} from 'node:fs';
import { link, lstat, open, readlink, realpath, rename, unlink, stat, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageError } from '../errors.js';

interface AtomicFileOptions {
  /** Registers the removal of the temp file with the command's cleanup (runs on success, error and Ctrl-C). */
  onCleanup?: (fn: () => Promise<void>) => void;
  mode?: number;
  /** false: an existing file at the target is refused at commit (a name the server chose, without --force). */
  replace?: boolean;
  /** A fixed temp path instead of a random one: a resumable export keeps its partial data there. */
  tempPath?: string;
  /** Continue the existing temp file from this byte offset (cut there first) instead of creating a new one. */
  resumeAt?: number;
}

export class AtomicFile {
  readonly stream: WriteStream;
  private state: 'open' | 'committed' | 'aborted' = 'open';
  private error: Error | null = null;
  private closed = false;
  private kept = false;

  private constructor(
    readonly target: string,
    readonly tempPath: string,
    private readonly fd: number,
    private readonly replace: boolean,
    start?: number,
  ) {
    // A numeric fd with autoClose off: it must stay open after 'finish' to be fsynced before the rename. The stream's
    // close is a no-op (STREAM_FS): this class closes it, once; a second close(2) could close another file.
    this.stream = createWriteStream('', { fd, autoClose: false, highWaterMark: 256 * 1024, start, fs: STREAM_FS });
    this.stream.on('error', (err) => {
      this.error ??= err;
    });
  }

  /** Open a temp file in the target's directory. The target itself is not touched until commit(). */
  static async create(target: string, opts: AtomicFileOptions = {}): Promise<AtomicFile> {
    const full = resolve(target);
    const dir = await checkTargetDir(target);
    const temp = opts.tempPath ?? join(dir, `.${basename(full)}.${randomBytes(6).toString('hex')}.sq-tmp`);
    let fd: number;
    try {
      if (opts.resumeAt === undefined) fd = await openFd(temp, 'wx', opts.mode ?? 0o600);
      else {
        // Read-write, never through a symlink, and an explicit start: whatever lies past the offset (a page cut
        // mid-write) is cut off, then rewritten.
        fd = await openFd(temp, constants.O_RDWR | constants.O_NOFOLLOW);
        if (!(await fstatFd(fd)).isFile()) {
          await closeFd(fd);
          throw new UsageError(`cannot continue "${temp}": it is not a regular file`);
        }
        await ftruncateFd(fd, opts.resumeAt);
      }
    } catch (err) {
      if (err instanceof UsageError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new UsageError(`cannot continue "${temp}": it is a symbolic link`);
      if (code === 'EEXIST') throw new UsageError(`cannot write "${target}": "${temp}" already exists`);
      throw new UsageError(
        `cannot write in "${dir}": ${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? String(err))}`,
      );
    }
    const f = new AtomicFile(full, temp, fd, opts.replace ?? true, opts.resumeAt);
    opts.onCleanup?.(() => f.abort());
    return f;
  }

  /** Flush, fsync, close and rename over the target; then fsync the directory so the rename survives a crash. */
  async commit(): Promise<string> {
    if (this.state !== 'open') throw new Error(`atomic file already ${this.state}`);
    try {
      await new Promise<void>((res, rej) => {
        if (this.error) return rej(this.error);
        this.stream.once('error', rej);
        this.stream.end(() => res());
      });
      if (this.error) throw this.error;
      await fsyncFd(this.fd);
      const existing = await this.checkTarget();
      if (existing) {
        await fchmodFd(this.fd, existing.mode & 0o777);
        await fchownFd(this.fd, -1, existing.gid).catch(() => undefined); // the group the mode was meant for, if we may
      }
      this.closed = true;
      await closeFd(this.fd);
      await this.place(existing !== null);
      this.state = 'committed';
    } catch (err) {
      await this.abort();
      throw err;
    }
    await syncDir(dirname(this.target));
    return this.target;
  }

  /** The regular file the rename would replace, or null when there is none; a UsageError for anything else. */
  private async checkTarget(): Promise<Stats | null> {
    const st = await lstat(this.target).catch(() => null);
    if (st && !st.isFile()) {
      throw new UsageError(
        `${this.target} became ${kindOf(st)} while sq was writing it: sq only replaces regular files, so nothing was written`,
      );
    }
    if (st && !this.replace) throw existsError(this.target);
    return st;
  }

  /** A new name is linked rather than renamed into place: link(2) fails when something appeared at the target since
   * checkTarget(), where rename would replace it. Filesystems without hard links get rename. */
  private async place(existed: boolean): Promise<void> {
    if (!existed) {
      try {
        await link(this.tempPath, this.target);
        await unlink(this.tempPath).catch(() => undefined);
        return;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') {
          const st = await lstat(this.target).catch(() => null);
          if (!st?.isFile())
            throw new UsageError(
              `${this.target} appeared while sq was writing it${st ? ` (${kindOf(st)})` : ''}: nothing was written`,
            );
          if (!this.replace) throw existsError(this.target);
        } else if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
      }
    }
    await rename(this.tempPath, this.target);
  }

  /** Drop everything written so far. Safe to call more than once, and after commit (then it does nothing). */
  async abort(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    // Its 'close' comes after any write in flight has ended: only then may the descriptor be closed.
    if (!this.stream.closed) await new Promise<void>((done) => this.stream.once('close', () => done()).destroy());
    if (!this.closed) {
      this.closed = true;
      await closeFd(this.fd).catch(() => undefined);
    }
    if (!this.kept) await unlink(this.tempPath).catch(() => undefined);
  }

  /** From now on abort() closes the temp file but leaves it on disk (a checkpoint says how much of it is whole). */
  keep(): void {
    this.kept = true;
  }

  /** Write one chunk and wait until it has reached the file descriptor (not just the stream's buffer). */
  async writeThrough(chunk: string | Uint8Array): Promise<void> {
    if (this.error) throw this.error;
    await new Promise<void>((res, rej) => this.stream.write(chunk, (err) => (err ? rej(err) : res())));
  }

  /** fsync what has reached the descriptor, so a checkpoint written after it never points past the data. */
  async sync(): Promise<void> {
    await fsyncFd(this.fd);
  }

  /** Write respecting backpressure; throws the stream's error (a full disk) instead of hanging. */
  async write(chunk: string | Uint8Array): Promise<void> {
    if (this.error) throw this.error;
    if (this.stream.write(chunk)) return;
    await new Promise<void>((res, rej) => {
      const done = (err?: Error) => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        if (err) rej(err);
        else res();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
    });
  }
}

/** The directory a target would be written in; a UsageError when it does not exist (checked before any request). */
export async function checkTargetDir(target: string): Promise<string> {
  const dir = dirname(resolve(target));
  const st = await stat(dir).catch(() => null);
  if (!st?.isDirectory()) throw new UsageError(`cannot write "${target}": directory "${dir}" does not exist`);
  return dir;
}

/** Refuses an output path that is anything but a regular file or nothing (UsageError naming `flag`, before any
 * request); returns the directory it would be written in. */
export async function checkOutputTarget(flag: string, target: string): Promise<string> {
  const st = await lstat(target).catch(() => null);
  if (st && !st.isFile()) throw new UsageError(await refusal(flag, target, st));
  return checkTargetDir(target);
}

async function refusal(flag: string, target: string, st: Stats): Promise<string> {
  const what = `${flag} ${target} is ${kindOf(st)}`;
  // Only -o has a `-` for stdout; --checkpoint is a file sq must be able to read back.
  const regularOnly = `sq only writes regular files${flag === '-o' ? ' (use -o - for stdout, or redirect)' : ''}`;
  if (!st.isSymbolicLink()) return `${what}: ${regularOnly}`;
  const to = await readlink(target).catch(() => null);
  const real = (await realpath(target).catch(() => null)) ?? (to === null ? null : resolve(dirname(target), to));
  const realSt = real === null ? null : await stat(real).catch(() => null);
  // A link to a regular file, or a dangling one: the user most likely meant the file itself. Not /dev/stdout and
  // the like, which resolve to whatever the shell connected (a file, a pipe): that is what -o - is for.
  const special = /^\/(dev|proc)\//.test(resolve(target)) || /^\/(dev|proc)\//.test(to ?? '');
  const file = !special && real !== null && (realSt === null || realSt.isFile());
  return `${what}${to === null ? '' : ` to ${to}`}: ${file ? `sq does not write through links (use ${flag} ${real})` : regularOnly}`;
}

function kindOf(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** An existing file the user did not ask to replace: `-o FILE` or runs download's default name, without --force. */
export function existsError(target: string): UsageError {
  return new UsageError(`${target} already exists: pass --force to replace it, or -o FILE to choose another name`);
}

/** The rule of every command that writes a file: an existing file is replaced only with --force, checked before any
 * request (and again at the rename). */
export async function refuseExisting(target: string, force: boolean): Promise<void> {
  if (!force && (await lstat(target).catch(() => null))) throw existsError(target);
}

/** Both checks of an -o FILE before any request: a regular file or nothing (checkOutputTarget), kept unless --force. */
export async function checkNewOutput(flag: string, target: string, force: boolean): Promise<void> {
  await checkOutputTarget(flag, target);
  await refuseExisting(target, force);
}

/** The text of one of sq's own small files (a checkpoint, sq go's record); null when there is none. Anything but a
 * regular file (a symlink, a FIFO) is a UsageError naming it as `what`. */
export async function readRegularFile(path: string, what: string): Promise<string | null> {
  try {
    const fh = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    try {
      if (!(await fh.stat()).isFile()) throw new UsageError(`the ${what} "${path}" is not a regular file`);
      return await fh.readFile('utf8');
    } finally {
      await fh.close();
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP')
      throw new UsageError(`the ${what} "${path}" is a symbolic link: sq reads only a regular file there`);
    throw new UsageError(`cannot read the ${what} "${path}": ${code ?? String(err)}`);
  }
}

/** Replaces such a file: a new 0600 temp file (O_EXCL) renamed over it, so a crash leaves the old text or the new. */
export async function replaceFile(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600, flag: 'wx' });
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

/** The stream's file system: Node's, except that closing the descriptor is left to AtomicFile. */
const STREAM_FS = {
  open: openCb,
  write: writeCb,
  writev: writevCb,
  close: (_fd: number, done: (err: null) => void) => done(null),
};
const openFd = promisify(openCb);
const fchmodFd = promisify(fchmodCb);
const fchownFd = promisify(fchownCb);
const fsyncFd = promisify(fsyncCb);
const closeFd = promisify(closeCb);
const ftruncateFd = promisify(ftruncateCb);
const fstatFd = promisify(fstatCb);

async function syncDir(dir: string): Promise<void> {
  const h = await open(dir, 'r').catch(() => null);
  if (!h) return;
  await h.sync().catch(() => undefined);
  await h.close().catch(() => undefined);
}
