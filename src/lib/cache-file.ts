// Small files in sq's per-user cache directory (cache-dir.ts): completion answers, jq expressions known to compile.
// A cache is only ever a shortcut: any failure to read or write one is the same as having none.
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { makeDirSync, openRegularSync, SMALL_FILE_MAX_BYTES } from './regular-file.js';

/** The file's text, if it is a regular file of yours that nobody else can write, of at most `max` bytes (never
 * through a symlink, never blocking on a FIFO put in its place); else undefined. */
export function readCacheFile(file: string, max = SMALL_FILE_MAX_BYTES): string | undefined {
  let fd: number | undefined;
  try {
    let st;
    ({ fd, st } = openRegularSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)));
    if (process.getuid && (st.uid !== process.getuid() || (st.mode & 0o022) !== 0)) return undefined;
    if (st.size > max) return undefined;
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
    makeDirSync(dir);
    const st = lstatSync(dir);
    if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) return;
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
  } catch {
    // The cleanup is best effort too: under a "directory" that is a file, even rm fails (ENOTDIR).
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was made
    }
  }
}

/** 64 bits of FNV-1a, as 16 hex digits: names a cache entry (a key and service, a jq expression) without storing
 * what it names, and without loading node:crypto. */
export function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) h = BigInt.asUintN(64, (h ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

/** How long a cache file nobody has rewritten is kept: pacing state and completion answers are stale long before. */
export const CACHE_FILE_MAX_AGE_MS = 86_400_000;

/** Removes the regular files of yours in `dir` whose names match `names` and that nobody has written for
 * CACHE_FILE_MAX_AGE_MS; only when `fresh` (a file about to be created) does not exist yet, not on every call. */
export function pruneCacheDir(dir: string, names: RegExp, fresh: string, now: number = Date.now()): void {
  if (existsSync(fresh)) return;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (!names.test(name)) continue;
    try {
      const st = lstatSync(`${dir}/${name}`);
      if (st.isFile() && (!process.getuid || st.uid === process.getuid()) && now - st.mtimeMs > CACHE_FILE_MAX_AGE_MS)
        unlinkSync(`${dir}/${name}`);
    } catch {
      // gone already, or not ours to remove
    }
  }
}
