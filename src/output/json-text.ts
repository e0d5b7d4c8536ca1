// JSON text of a record, at any depth: JSON.stringify overflows the native stack on a deeply nested scraped record, so
// such a value is written by a walk with a stack of its own, byte for byte what JSON.stringify writes.

/** JSON.stringify(value, null, indent), also for a value nested deeper than it can go. */
export function jsonText(value: unknown, indent?: number): string | undefined {
  try {
    return JSON.stringify(value, null, indent);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return deepJson(value, indent ?? 0);
  }
}

interface Frame {
  src: Record<string, unknown> | unknown[];
  keys: string[] | null;
  i: number;
  depth: number;
}

const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

function deepJson(root: unknown, indent: number): string | undefined {
  const parts: string[] = [];
  const stack: Frame[] = [];
  const nl = (depth: number) => (indent ? `\n${' '.repeat(indent * depth)}` : '');
  const value = (raw: unknown, depth: number): void => {
    let v = raw;
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
      v = (v as { toJSON: () => unknown }).toJSON();
    if (v === null || typeof v !== 'object') {
      // Primitives as JSON.stringify writes them (a non-finite number is null; a BigInt throws as there).
      parts.push(skipped(v) ? 'null' : (JSON.stringify(v) as string));
      return;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) parts.push('[]');
      else {
        parts.push('[');
        stack.push({ src: v, keys: null, i: 0, depth });
      }
      return;
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => !skipped(o[k]));
    if (keys.length === 0) parts.push('{}');
    else {
      parts.push('{');
      stack.push({ src: o, keys, i: 0, depth });
    }
  };
  if (skipped(root)) return undefined;
  value(root, 0);
  while (stack.length) {
    const f = stack[stack.length - 1];
    const n = f.keys ? f.keys.length : (f.src as unknown[]).length;
    if (f.i >= n) {
      parts.push(nl(f.depth) + (f.keys ? '}' : ']'));
      stack.pop();
      continue;
    }
    parts.push((f.i ? ',' : '') + nl(f.depth + 1));
    let v: unknown;
    if (f.keys) {
      const k = f.keys[f.i];
      parts.push(JSON.stringify(k) + (indent ? ': ' : ':'));
      v = (f.src as Record<string, unknown>)[k];
    } else v = (f.src as unknown[])[f.i];
    f.i++;
    value(v, f.depth + 1);
  }
  return parts.join('');
}
