/** A word a POSIX shell reads back as `s`: as it is when it is plainly safe, else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
