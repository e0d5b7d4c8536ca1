// Character checks done with a loop rather than a regular expression: they run on every call, and a regular
// expression is compiled on its first use.

/** Non-empty, and every character's code in [lo, hi] (`allIn(s, 0x30, 0x39)`: ASCII digits only). */
export function allIn(s: string, lo: number, hi: number): boolean {
  if (s === '') return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < lo || c > hi) return false;
  }
  return true;
}
