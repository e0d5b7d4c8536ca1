// sq's own files (profiles, pacing state, caches) are read only when they are regular files, and opened so that a
// FIFO, device or directory put in their place can never block the process: open(2) of a FIFO waits for a writer,
// in a call no stop signal interrupts.
import { closeSync, constants, fstatSync, mkdirSync, openSync, type Stats } from 'node:fs';
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

/**
 * `mkdir -p` for sq's own directories (cache, profiles), without Node's `recursive: true`: on a filesystem that
 * refuses every new entry with ENOENT (procfs: SQ_CACHE_DIR=/proc/x) Node's recursive mkdir retries forever at 100%
 * CPU, in a call no signal interrupts. Each missing level is made once; any other failure is thrown.
 */
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
