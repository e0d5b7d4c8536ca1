// "Did you mean": the candidates within a typo or two of a word (Levenshtein distance), closest first.

export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** The candidates at most max(1, ⌊length/3⌋) edits from `word` (case-insensitive), closest first. */
export function closest(word: string, candidates: readonly string[], most = 3): string[] {
  const w = word.toLowerCase();
  const allowed = Math.max(1, Math.floor(w.length / 3));
  return candidates
    .map((c) => ({ c, d: editDistance(w, c.toLowerCase()) }))
    .filter((x) => x.d <= allowed)
    .sort((a, b) => a.d - b.d)
    .slice(0, most)
    .map((x) => x.c);
}
