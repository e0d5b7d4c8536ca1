// sq's own files (profiles, pacing state, caches) are read only when they are regular files, and opened so that a
// FIFO, device or directory put in their place can never block the process: open(2) of a FIFO waits for a writer,
// in a call no stop signal interrupts.
import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';

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
