// Whether a file descriptor is a terminal. Most calls of sq write to a pipe, a file or /dev/null: fstat tells those
// apart before node:tty, which costs every call that loads it.
import { fstatSync, statSync } from 'node:fs';

/** True if `fd` is a terminal; node:tty is loaded only for a character device other than /dev/null. */
export function isTerminal(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice() || st.rdev === nullDevice()) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

function nullDevice(): number | undefined {
  try {
    return statSync('/dev/null').rdev;
  } catch {
    return undefined;
  }
}
