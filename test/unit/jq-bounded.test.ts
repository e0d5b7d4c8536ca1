// boundedJq (src/startup/argv.ts): which --jq expressions may run on the main thread. Only paths bounded by their input; any
// generator, recursion, function or constant goes to the worker thread, where a stop signal can end it.
import { describe, expect, it } from 'vitest';
import { boundedJq } from '../../src/startup/argv.js';

describe('boundedJq', () => {
  it.each(['.', '.[].name', '.email', '.data[0].id', '.[] | .id', '.a[][]', '.[]|.x|.y[2]', ' .[].name '])(
    '%j is bounded',
    (e) => {
      expect(boundedJq(e)).toBe(true);
    },
  );
  it.each([
    '',
    '..',
    '.a.[0]',
    '.if',
    '.a.end',
    '.[]?',
    '.a,.b',
    '.a | length',
    'range(1e12)',
    'until(false; .)',
    'def f: f; f',
    '"x"*1e9',
    '.[-1]',
    '.["a"]',
    '.[1e3]',
    '.a |',
    '| .a',
    'repeat(.)',
    '.[] as $x | $x',
    '[.[]]',
    '{a: .a}',
    '.a // 0',
    '.[]|.[]|(.,.)',
  ])('%j is not', (e) => {
    expect(boundedJq(e)).toBe(false);
  });
});
