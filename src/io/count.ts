// Counts as people read them: 12,345. Apart from progress.ts so that what only says a count (the list commands'
// paging hint, cli/paging.ts) does not load the display-width tables that progress bars need.

/**
 * `n.toLocaleString('en-US')`. A safe integer (every count sq shows) is grouped here by hand: toLocaleString's first
 * call in a process loads ICU's number formatting, 30-80 ms of CPU on Node 20 (measured on two loaded cores), more
 * than the rest of a short command. test/property/count.test.ts holds the two equal.
 */
export function count(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(n < 0 ? -n : n);
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/**
 * "1,234.5": an amount that may have a fraction (credits: fractional rates exist), to 4 decimals without float noise,
 * as `n.toLocaleString('en-US', { maximumFractionDigits: 4 })`; a safe integer by count()'s grouping, without ICU.
 */
export function amount(n: number): string {
  return Number.isSafeInteger(n) ? count(n) : n.toLocaleString('en-US', { maximumFractionDigits: 4 });
}
