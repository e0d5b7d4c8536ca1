// Squid helpers shared by the squid verbs (and usable by others): --param parsing and the columns users look for.
import { UsageError } from '../errors.js';
import type { Column } from '../output/types.js';

/**
 * `k=v` → value. The text stays a string unless it is valid JSON, so `zip=01234` stays "01234" (a leading zero is
 * not JSON), `max=5` is 5, `flag=true` is true, `tags=["a","b"]` an array. `functions.contacts=true` sets one paid
 * function (the API keeps functions in a map inside params).
 */
export function parseParams(pairs: readonly string[], flag = '--param'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} must look like key=value (got ${JSON.stringify(pair)})`);
    const key = pair.slice(0, eq).trim();
    const value = typedValue(pair.slice(eq + 1));
    if (key === '') throw new UsageError(`${flag} must look like key=value (got ${JSON.stringify(pair)})`);
    const fn = /^functions\.(.+)$/.exec(key);
    if (fn) {
      if (typeof value !== 'boolean') throw new UsageError(`${flag} ${key} must be true or false (got ${JSON.stringify(pair.slice(eq + 1))})`);
      const fns = (out.functions && typeof out.functions === 'object' ? out.functions : {}) as Record<string, unknown>;
      out.functions = { ...fns, [fn[1]]: value };
    } else {
      out[key] = value;
    }
  }
  return out;
}

export function typedValue(text: string): unknown {
  const t = text.trim();
  if (t === '') return text;
  try {
    return JSON.parse(t);
  } catch {
    return text;
  }
}

export const SQUID_LIST_COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'name', maxWidth: 40 },
  { key: 'crawler_name', header: 'CRAWLER', maxWidth: 30 },
  { key: 'is_active', header: 'ACTIVE' },
  { key: 'concurrency', header: 'CONC' },
  { key: 'last_run_status', header: 'LAST RUN', kind: 'status' },
  { key: 'last_run_at', header: 'LAST RUN AT', kind: 'time' },
  { key: 'total_runs', header: 'RUNS' },
];

export const SQUID_DETAIL_COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'name' },
  { key: 'crawler_name', header: 'crawler' },
  { key: 'crawler', header: 'crawler id' },
  { key: 'is_active', header: 'active' },
  { key: 'is_ready', header: 'ready' },
  { key: 'concurrency' },
  { key: 'params' },
  { key: 'schedule' },
  { key: 'last_run_status', header: 'last run', kind: 'status' },
  { key: 'last_run', header: 'last run id' },
  { key: 'last_run_at', header: 'last run at', kind: 'time' },
  { key: 'total_runs', header: 'runs' },
  { key: 'next_launch_at', header: 'next launch', kind: 'time' },
  { key: 'created_at', header: 'created', kind: 'time' },
];
