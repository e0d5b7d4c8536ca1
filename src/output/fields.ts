// Dotted field paths. Webhook event keys are literally "run.done", so a literal key with dots beats nesting.

import { isRecord } from '../lib/guards.js';
import { isPlainObject } from '../lib/secrets.js';

export function getPath(record: unknown, path: string): unknown {
  if (!isRecord(record)) return undefined;
  if (Object.hasOwn(record, path)) return record[path];
  // Try the longest literal prefix first: "events.run.done" → events["run.done"] before events.run.done.
  for (let i = path.lastIndexOf('.'); i > 0; i = path.lastIndexOf('.', i - 1)) {
    const head = path.slice(0, i);
    if (!Object.hasOwn(record, head)) continue;
    const found = getPath(record[head], path.slice(i + 1));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A new object with exactly `fields` as keys, in that order; a missing path gives null so the key survives JSON. */
export function pickFields(record: unknown, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = getPath(record, f);
    out[f] = v === undefined ? null : v;
  }
  return out;
}

/** Nested plain objects as dotted keys, for the key/value table of a single record. Arrays stay whole. */
export function flatten(record: Record<string, unknown>, prefix = ''): Array<[string, unknown]> {
  const rows: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(record)) {
    const key = prefix + k;
    if (isPlainObject(v) && Object.keys(v).length > 0) rows.push(...flatten(v, key + '.'));
    else rows.push([key, v]);
  }
  return rows;
}

/** The --fields names neither a record about to be printed (a list's first) nor the command's own columns have. */
export function unknownFields(fields: readonly string[], record: unknown, columns: readonly string[] = []): string[] {
  if (!isRecord(record)) return [];
  return fields.filter((f) => getPath(record, f) === undefined && !columns.includes(f));
}

/** "--fields: unknown field "x"; valid fields: …", the valid ones being the record's paths and the columns. */
export function unknownFieldsMessage(
  unknown: readonly string[],
  record: unknown,
  columns: readonly string[] = [],
): string {
  const valid = [...new Set([...columns, ...(isRecord(record) ? flatten(record).map(([k]) => k) : [])])];
  const names = unknown.map((f) => `"${f}"`).join(', ');
  return `--fields: unknown field${unknown.length === 1 ? '' : 's'} ${names}; valid fields: ${valid.join(', ')} (dotted paths reach into objects)`;
}
