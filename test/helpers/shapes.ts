// Shape comparisons of an answer with a docs sample: key sets, nesting and JSON types, as "path: …" lines.

import type { J } from './json.js';

/** JSON type of a value: numbers are one type (10 and 10.4498 are both sampled for the same fields). */
export function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/**
 * Where `got` differs from `want` in key sets or JSON types. null matches any type (a sample shows one state of a
 * nullable field); arrays compare their first items when both have one.
 */
export function shapeDiff(want: unknown, got: unknown, path = '$'): string[] {
  if (want === null || got === null) return [];
  const tw = jsonType(want);
  const tg = jsonType(got);
  if (tw !== tg) return [`${path}: ${tg}, sampled ${tw}`];
  if (tw === 'array') {
    const [a, b] = [want as unknown[], got as unknown[]];
    return a.length && b.length ? shapeDiff(a[0], b[0], `${path}[0]`) : [];
  }
  if (tw !== 'object') return [];
  const [w, g] = [want as J, got as J];
  const out: string[] = [];
  for (const k of Object.keys(w)) if (!(k in g)) out.push(`${path}.${k}: missing`);
  for (const k of Object.keys(g)) if (!(k in w)) out.push(`${path}.${k}: not in the sample`);
  for (const k of Object.keys(w)) if (k in g) out.push(...shapeDiff(w[k], g[k], `${path}.${k}`));
  return out;
}

/**
 * The strict reading (issue 45's count): every array item compared, and null a type of its own (a sample's null
 * answered with a value, or the other way round, differs).
 */
export function strictDiff(want: unknown, got: unknown, path = '$'): string[] {
  if ((want === null) !== (got === null)) return [`${path}: ${jsonType(got)}, sampled ${jsonType(want)}`];
  if (want === null) return [];
  const tw = jsonType(want);
  if (tw !== jsonType(got)) return [`${path}: ${jsonType(got)}, sampled ${tw}`];
  if (tw === 'array') {
    const [a, b] = [want as unknown[], got as unknown[]];
    return a.flatMap((x, i) => (i < b.length ? strictDiff(x, b[i], `${path}[${i}]`) : []));
  }
  if (tw !== 'object') return [];
  const [w, g] = [want as J, got as J];
  return [
    ...Object.keys(w)
      .filter((k) => !(k in g))
      .map((k) => `${path}.${k}: missing`),
    ...Object.keys(g)
      .filter((k) => !(k in w))
      .map((k) => `${path}.${k}: not in the sample`),
    ...Object.keys(w)
      .filter((k) => k in g)
      .flatMap((k) => strictDiff(w[k], g[k], `${path}.${k}`)),
  ];
}
