// A list of checks as `sq doctor` prints them on a terminal: one line each, ✓ or ✗, the name, what was found, and
// under a failed one the fix.
import type { Style } from './ansi.js';
import { terminalSafe } from './cells.js';

/** ok: nothing to do; warn: sq works, but something should be fixed; fail: sq cannot work here. */
export type CheckLevel = 'ok' | 'warn' | 'fail';

/** One of `sq doctor`'s checks (doctor/checks.ts makes them). */
export interface Check {
  name: string;
  /** level is ok. */
  ok: boolean;
  level: CheckLevel;
  detail: string;
  /** What to do about it; null when it passes. */
  fix: string | null;
}

/** `strict`: warnings count as failures (sq doctor --strict). */
export function checklist(checks: readonly Check[], style: Style, strict = false): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  const lines: string[] = [];
  for (const c of checks) {
    const mark = c.level === 'ok' ? style.green('✓') : c.level === 'warn' ? style.yellow('!') : style.red('✗');
    lines.push(`${mark} ${c.name.padEnd(width)}  ${terminalSafe(c.detail)}`);
    if (c.level !== 'ok' && c.fix) lines.push(`  ${' '.repeat(width)}  ${style.dim('fix:')} ${terminalSafe(c.fix)}`);
  }
  const failed = checks.filter((c) => c.level === 'fail').length;
  const warned = checks.filter((c) => c.level === 'warn').length;
  const warnings = `${warned} warning${warned === 1 ? '' : 's'}`;
  if (failed) lines.push('', `${failed} of ${checks.length} checks failed${warned ? `, ${warnings}` : ''}.`);
  else if (warned)
    lines.push('', strict ? `${warnings}, which --strict counts as failures.` : `sq can work here, with ${warnings}.`);
  else lines.push('', 'All checks passed.');
  return `${lines.join('\n')}\n`;
}
