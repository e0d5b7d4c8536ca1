// The tables sq and the emulator both read (src/tables/) against the docs they come from: the spec's rate-limit
// table and run events (test/fixtures/platform-api.md, a copy of the authoritative spec) and the changelog's export
// formats (test/fixtures/api-changelog.md). Neither side can then carry a misreading of its own.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS, XLSX_MAX_ROWS } from '../../src/tables/export-formats.js';
import { RATE_LIMITS } from '../../src/tables/rate-limits.js';
import { RUN_EVENTS } from '../../src/tables/run-events.js';

const fixture = (name: string) => readFileSync(resolve(import.meta.dirname, '../fixtures', name), 'utf8');
const spec = fixture('platform-api.md');
const changelog = fixture('api-changelog.md');

describe('src/tables/ against the docs', () => {
  it('rate limits: every row of the spec\'s "Endpoint prefix | Limit" table, nothing else', () => {
    const rows = [...spec.matchAll(/^\| \/v1\/(\w+) \| (\d+) requests per (minute|second) \|$/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const documented = Object.fromEntries(
      rows.map(([, prefix, n, per]) => [prefix, { limit: Number(n), windowMs: per === 'minute' ? 60_000 : 1_000 }]),
    );
    expect(RATE_LIMITS).toEqual(documented);
  });

  it("run events: the spec's event table, in its order", () => {
    const events = [...spec.matchAll(/^\| (run\.\w+) \| /gm)].map((m) => m[1]);
    expect([...RUN_EVENTS]).toEqual(events);
  });

  it("export formats: CSV and XLSX, with JSON and JSONL since 2026-06-16; XLSX refused past one sheet's rows", () => {
    const row = changelog.split('\n').find((l) => l.startsWith('| 2026-06-16 |')) ?? '';
    expect(row).toMatch(/JSON \(array\) and JSONL besides CSV and XLSX/);
    expect([...EXPORT_FORMATS].sort()).toEqual(['csv', 'json', 'jsonl', 'xlsx']);
    expect(row).toMatch(/XLSX over ~1 M rows is refused up front/);
    // One sheet: 2^20 rows, the header among them.
    expect(XLSX_MAX_ROWS).toBe(2 ** 20 - 1);
  });
});
