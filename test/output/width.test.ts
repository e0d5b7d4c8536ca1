import { describe, expect, it } from 'vitest';
import { displayWidth, truncateWidth } from '../../src/output/width.js';

describe('display width', () => {
  it.each([
    ['abc', 3],
    ['東京レストラン', 14],
    ['한국어', 6],
    ['ｱｲｳ', 3], // halfwidth katakana
    ['👨‍👩‍👧', 2], // ZWJ family: one glyph
    ['🧑‍💻x', 3],
    ['👍🏽', 2], // skin tone modifier
    ['🇫🇷', 2], // flag
    ['❤️', 2], // emoji presentation selector
    ['e\u0301', 1], // combining acute
    ['ก่', 1], // Thai mark
    ['a\u200bb', 2], // zero-width space
    ['©', 1], // text presentation by default
    ['\x1b[1mbold\x1b[22m', 4], // colour codes take no room
  ])('%j is %i columns', (s, w) => {
    expect(displayWidth(s)).toBe(w);
  });
});

describe('truncation by display width', () => {
  it('cuts CJK by columns, not characters, and ends in …', () => {
    const t = truncateWidth('東京レストランの一覧', 9);
    expect(t).toBe('東京レス…');
    expect(displayWidth(t)).toBe(9);
  });

  it('a wide character at the edge is replaced by …, never overflowing', () => {
    const t = truncateWidth('ab東京', 4);
    expect(t).toBe('ab…');
    expect(displayWidth(t)).toBeLessThanOrEqual(4);
  });

  it('never splits a ZWJ emoji, a surrogate pair or a letter from its accent', () => {
    expect(truncateWidth('👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧', 5)).toBe('👨‍👩‍👧👨‍👩‍👧…');
    expect(truncateWidth('e\u0301e\u0301e\u0301e\u0301', 3)).toBe('e\u0301e\u0301…');
    expect(truncateWidth('🇫🇷🇫🇷🇫🇷', 4)).toBe('🇫🇷…');
    for (let max = 1; max <= 12; max++) {
      for (const s of ['👨‍👩‍👧東京e\u0301🇫🇷abc', 'données 日本 🧑‍💻']) {
        const t = truncateWidth(s, max);
        expect(displayWidth(t)).toBeLessThanOrEqual(max);
        expect(t).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/); // no lone high surrogate
      }
    }
  });

  it('leaves a string that fits alone', () => {
    expect(truncateWidth('東京', 4)).toBe('東京');
  });
});
