// Display width: how many terminal columns a string takes. CJK and emoji take two, combining marks and zero-width
// characters none, from get-east-asian-width's table, Intl.Segmenter's graphemes and Unicode emoji properties. Not
// string-width itself: the copy in node_modules is v4 (pinned by cli-table3 and wrap-ansi), which miscounts ZWJ emoji.

import { eastAsianWidth } from 'get-east-asian-width';
import { stripAnsi } from './ansi.js';

let segmenter: Intl.Segmenter | undefined;
// Only these join code points into one glyph: without them every code point is a grapheme, and Intl.Segmenter (slow
// to load) is not needed.
const JOINS = /[\p{M}\p{Cf}\uFE00-\uFE0F\u{1F1E6}-\u{1F1FF}\u{1F3FB}-\u{1F3FF}]/u;
// A grapheme made only of marks, joiners, variation selectors, format and control characters draws nothing.
const INVISIBLE = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}]+$/u;
// Emoji drawn as pictures: those that are by default, and text-default ones asked for with U+FE0F ("❤️", "1️⃣").
// (Not \p{RGI_Emoji}: building that set is slow.)
const PICTURE = /^\p{Emoji_Presentation}/u;
const EMOJI = /^\p{Emoji}/u;

function graphemes(s: string): string[] {
  if (!JOINS.test(s)) return Array.from(s);
  segmenter ??= new Intl.Segmenter();
  return Array.from(segmenter.segment(s), (g) => g.segment);
}

function graphemeWidth(g: string): number {
  // ASCII fast path: most cells are plain ASCII.
  const c = g.charCodeAt(0);
  if (g.length === 1 && c < 0x7f) return c < 0x20 ? 0 : 1;
  if (INVISIBLE.test(g)) return 0;
  if (PICTURE.test(g) || (g.includes('\uFE0F') && EMOJI.test(g))) return 2;
  // A base letter's width decides the cluster's (the marks after it draw over it).
  return eastAsianWidth(g.codePointAt(0)!);
}

// eslint-disable-next-line no-control-regex
const PLAIN = /^[\x20-\x7e]*$/;

/** Columns `s` takes on a terminal; colour codes take none. */
export function displayWidth(s: string): number {
  const text = stripAnsi(s);
  if (PLAIN.test(text)) return text.length;
  let w = 0;
  for (const g of graphemes(text)) w += graphemeWidth(g);
  return w;
}

/** `s` cut to at most `max` columns, ending in "…" when cut; whole graphemes only, never overflowing. */
export function truncateWidth(s: string, max: number): string {
  if (max < 1 || displayWidth(s) <= max) return s;
  const text = stripAnsi(s);
  let out = '';
  let w = 0;
  for (const g of graphemes(text)) {
    const gw = graphemeWidth(g);
    if (w + gw > max - 1) break;
    out += g;
    w += gw;
  }
  return out + '…';
}

/** `s` followed by spaces up to `width` columns. */
export function padWidth(s: string, width: number): string {
  const w = displayWidth(s);
  return w >= width ? s : s + ' '.repeat(width - w);
}
