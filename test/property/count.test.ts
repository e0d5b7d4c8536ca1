// Property: count() groups a safe integer by hand (src/io/count.ts: ICU's number formatting costs 30-80 ms of CPU on
// its first use in a process) and gives exactly what toLocaleString('en-US') gives, for any number.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amount, count } from '../../src/io/count.js';

describe('count(n) is n.toLocaleString("en-US")', () => {
  it('for the edges: zero, -0, each number of digits, the safe-integer bounds and past them, fractions, NaN, Infinity', () => {
    const edges = [0, -0, 1, -1, 12, 123, 999, 1000, -1000, 9999, 12345, 123456, 999999, 1000000, -1234567];
    edges.push(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, -(2 ** 53), 1e21, 1.5, -0.25, 1234.5678);
    edges.push(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MIN_VALUE);
    for (const n of edges) expect(count(n), String(n)).toBe(n.toLocaleString('en-US'));
  });

  it('for any safe integer, and any double', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => count(n) === n.toLocaleString('en-US')),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(fc.double(), (n) => count(n) === n.toLocaleString('en-US')));
  });
});

describe('amount(n) is n.toLocaleString("en-US", { maximumFractionDigits: 4 })', () => {
  const same = (n: number) => amount(n) === n.toLocaleString('en-US', { maximumFractionDigits: 4 });

  it('for the edges: credits with fractions, -0, the safe-integer bounds and past them, NaN, Infinity', () => {
    const edges = [0, -0, 1, 999, 1000, 1234.5, 0.00005, 0.12345, 12.3456789, -1234.5678, 1e21, 2 ** 53];
    edges.push(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, Number.NaN, Number.POSITIVE_INFINITY);
    for (const n of edges) expect(same(n), String(n)).toBe(true);
  });

  it('for any safe integer, and any double', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), same), { numRuns: 2000 });
    fc.assert(fc.property(fc.double(), same));
  });
});
