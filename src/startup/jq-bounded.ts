// Which --jq expressions cannot run away: read by the launcher's pre-scan (src/startup/argv.ts, built into dist/launcher.cjs)
// and by src/output/jq.ts.

// jq's keywords: `.if` and the like are not plain field names in every jq version.
const JQ_KEYWORDS = new Set([
  'if',
  'then',
  'elif',
  'else',
  'end',
  'as',
  'def',
  'reduce',
  'foreach',
  'try',
  'catch',
  'label',
  'import',
  'include',
  'and',
  'or',
  'not',
  '__loc__',
]);
const JQ_STEP = /^(?:\.([A-Za-z_][A-Za-z0-9_]*)|\.?\[\d{0,9}\])/;

/** A --jq expression bounded by its input: `.`, or paths of field names, `[]` and `[N]` steps, piped (`.[] | .id`).
 * Nothing in it can run away, so jq runs it on the main thread and bin/sq.js starts no worker for it. */
export function boundedJq(expr: string): boolean {
  const parts = expr.split('|').map((p) => p.trim());
  return parts.every((part) => {
    if (part === '.') return true;
    // The first step starts with its dot (`.a`, `.[0]`); the next ones are `.a`, `[]` or `[N]`.
    if (!/^\.[A-Za-z_[]/.test(part)) return false;
    for (let rest = part, first = true; rest !== ''; first = false) {
      const m = JQ_STEP.exec(rest);
      if (!m || (!first && m[0].startsWith('.['))) return false;
      if (m[1] !== undefined && JQ_KEYWORDS.has(m[1])) return false;
      rest = rest.slice(m[0].length);
    }
    return true;
  });
}
