// Whether a file descriptor is a terminal. node:tty's isatty() answers, but loading node:tty costs ~0.3 ms a call
// (Node's tty module and its binding), and most calls of sq write to a pipe or a file: fstat tells those apart first.
import { fstatSync } from 'node:fs';

/** True if `fd` is a terminal; node:tty is loaded only for a character device (a terminal, or /dev/null). */
export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}
