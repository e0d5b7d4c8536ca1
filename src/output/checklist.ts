// A list of checks as `sq doctor` prints them on a terminal: one line each, ✓ or ✗, the name, what was found, and
// under a failed one the fix.
import type { Style } from './ansi.js';
import { terminalSafe } from './cells.js';

/** One of `sq doctor`'s checks (doctor/checks.ts makes them). */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** What to do about it; null when it passes. */
  fix: string | null;
}

export function checklist(checks: readonly Check[], style: Style): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  const lines: string[] = [];
  for (const c of checks) {
    const mark = c.ok ? style.green('✓') : style.red('✗');
    lines.push(`${mark} ${c.name.padEnd(width)}  ${terminalSafe(c.detail)}`);
    if (!c.ok && c.fix) lines.push(`  ${' '.repeat(width)}  ${style.dim('fix:')} ${terminalSafe(c.fix)}`);
  }
  const failed = checks.filter((c) => !c.ok).length;
  lines.push('', failed === 0 ? 'All checks passed.' : `${failed} of ${checks.length} checks failed.`);
  return `${lines.join('\n')}\n`;
}
