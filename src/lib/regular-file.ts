// sq's own files are read only when they are regular files, opened so that a FIFO put in their place can never block
// the process (open(2) of a FIFO waits for a writer, in a call no stop signal interrupts).
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/**
 * `file` opened with `flags` plus O_NONBLOCK, and its stats. Anything but a regular file is closed again and thrown as
 * an error whose code is EISDIR (a directory) or ENOTREG (a FIFO, socket or device).
 */
export function openRegularSync(file: string, flags: number, mode?: number): { fd: number; st: Stats } {
  const fd = openSync(file, flags | (constants.O_NONBLOCK ?? 0), mode);
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  if (st.isFile()) return { fd, st };
  closeSync(fd);
  throw Object.assign(new Error(`${file} is not a regular file`), { code: st.isDirectory() ? 'EISDIR' : 'ENOTREG' });
}

/** The most sq reads of a small file of its own or of the user's (a cache, state, a shell's rc file): 1 MiB. */
export const SMALL_FILE_MAX_BYTES = 1024 * 1024;

/** The text of `file` if it is a regular file of at most `max` bytes (else EFBIG), opened without blocking and read
 * from the descriptor it was checked on. `flags`: e.g. O_NOFOLLOW. */
export function readRegularSync(file: string, max = SMALL_FILE_MAX_BYTES, flags = 0): string {
  const { fd, st } = openRegularSync(file, constants.O_RDONLY | flags);
  try {
    const tooBig = () => Object.assign(new Error(`${file} is over ${max} bytes`), { code: 'EFBIG' });
    if (st.size > max) throw tooBig();
    const buf = Buffer.alloc(Math.min(max, st.size + 4096) + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, n);
    if (n > max) throw tooBig();
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** `mkdir -p` for sq's own directories, without Node's `recursive: true`, which retries forever on a filesystem that
 * refuses every new entry with ENOENT (procfs). Each missing level is made once; any other failure is thrown. */
export function makeDirSync(dir: string, mode = 0o700, depth = 0): void {
  try {
    mkdirSync(dir, { mode });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir || depth > 64) throw err;
    makeDirSync(parent, mode, depth + 1);
    // Once only: a filesystem where the parent now exists and the entry still cannot be made throws here.
    try {
      mkdirSync(dir, { mode });
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
    }
  }
}
