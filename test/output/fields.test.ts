import { describe, expect, it } from 'vitest';
import { flatten, getPath, pickFields } from '../../src/output/fields.js';

const rec = {
  id: 'w1',
  squid: { name: 'daily', owner: { email: 'a@b.c' } },
  events: { 'run.done': true, 'run.error': false, run: { done: 'nested' } },
  'a.b': 'literal',
  a: { b: 'nested' },
  list: [1, 2],
};

describe('getPath', () => {
  it.each([
    ['id', 'w1'],
    ['squid.name', 'daily'],
    ['squid.owner.email', 'a@b.c'],
    ['events.run.done', true],
    ['events.run.error', false],
    ['a.b', 'literal'],
    ['list', [1, 2]],
    ['missing', undefined],
    ['squid.missing', undefined],
    ['id.length', undefined],
  ])('%s → %j', (path, value) => expect(getPath(rec, path)).toEqual(value));

  it('falls back to nesting when the literal prefix leads nowhere', () => {
    expect(getPath({ 'x.y': { z: 1 }, x: { y: { w: 2 } } }, 'x.y.w')).toBe(2);
  });
});

describe('pickFields', () => {
  it('keeps exactly the requested keys, in order, null for missing', () => {
    const picked = pickFields(rec, ['events.run.done', 'id', 'nope']);
    expect(Object.keys(picked)).toEqual(['events.run.done', 'id', 'nope']);
    expect(JSON.stringify(picked)).toBe('{"events.run.done":true,"id":"w1","nope":null}');
  });
});

describe('flatten', () => {
  it('turns nested objects into dotted keys', () => {
    expect(flatten({ a: 1, b: { c: 2, d: { e: 3 } }, f: [1], g: {} })).toEqual([
      ['a', 1],
      ['b.c', 2],
      ['b.d.e', 3],
      ['f', [1]],
      ['g', {}],
    ]);
  });
});
