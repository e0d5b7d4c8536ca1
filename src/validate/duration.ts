// Durations as users type them: 30s, 10m, 2h, 1500ms, 1h30m; a bare number means seconds.
const UNIT: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;
  let total = 0;
  let consumed = 0;
  for (const m of t.matchAll(re)) {
    if (m.index !== consumed) return null;
    total += Number(m[1]) * UNIT[m[2]];
    consumed += m[0].length;
  }
  if (consumed === 0 || consumed !== t.length) return null;
  return Math.round(total);
}

/** The bounds of every duration flag: past 2^31-1 ms Node's setTimeout fires at once, and well below that a typo
 * (`10000h`) is likelier than intent. */
export const MAX_TIMEOUT_MS = 7 * 86_400_000;
export const MAX_INTERVAL_MS = 3_600_000;
export const MAX_HTTP_TIMEOUT_MS = 3_600_000;

export function formatDuration(ms: number): string {
  if (ms >= 86_400_000 && ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
