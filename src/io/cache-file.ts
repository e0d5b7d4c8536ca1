// Small files in sq's per-user cache directory (cache-dir.ts): completion answers, jq expressions known to compile.
// A cache is only ever a shortcut: any failure to read or write one is the same as having none.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/** The file's text, if it is a regular file of yours that nobody else can write (never through a symlink, never
 * blocking on a FIFO put in its place); else undefined. */
export function readCacheFile(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || (process.getuid && (st.uid !== process.getuid() || (st.mode & 0o022) !== 0))) return undefined;
    return readFileSync(fd, 'utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes a new file (0600, never through a link) and renames it over the old one: a reader sees the old text or the
 * new, whole. Nothing is written unless the file's directory is yours. */
export function writeCacheFile(file: string, text: string): void {
  const tmp = `${file}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    const dir = file.slice(0, file.lastIndexOf('/'));
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) return;
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}
