import { expect, it } from 'vitest';
import { counted } from '../../src/output/plural.js';

it('a count takes its noun in the right number, never "(s)"', () => {
  expect(counted(1, 'task')).toBe('1 task');
  expect(counted(0, 'task')).toBe('0 tasks');
  expect(counted(2, 'url task')).toBe('2 url tasks');
  expect(counted(3, 'entry', 'entries')).toBe('3 entries');
});
