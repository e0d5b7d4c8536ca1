// The crawler record's constructor (src/emulator/crawlers.ts crawlerRecord): the list-crawlers sample's fields, with the
// docs' types checked, so a catalogue entry with a rate or a concurrency of the wrong type fails at start, not in a view.
import { describe, expect, it } from 'vitest';
import { CRAWLER_DEFS, crawlerRecord, crawlerSummary } from '../../src/emulator/crawlers.js';

const LIST_KEYS = [
  'id',
  'object',
  'account',
  'name',
  'slug',
  'icon',
  'is_public',
  'is_available',
  'is_premium',
  'has_issues',
  'max_concurrency',
  'credits_per_row',
];

describe('crawlerRecord', () => {
  it("every crawler of the catalogue has the list sample's keys and types", () => {
    for (const def of CRAWLER_DEFS) {
      const summary = crawlerSummary(crawlerRecord(def));
      expect(Object.keys(summary).sort(), def.slug).toEqual([...LIST_KEYS].sort());
      expect(typeof summary.credits_per_row, def.slug).toBe('number');
      expect(Number.isInteger(summary.max_concurrency) && summary.max_concurrency >= 1, def.slug).toBe(true);
    }
  });

  it("refuses a definition whose rate or concurrency is not of the docs' type", () => {
    const def = CRAWLER_DEFS[0];
    expect(() => crawlerRecord({ ...def, credits_per_row: Number.NaN })).toThrow(/credits_per_row must be a number/);
    expect(() => crawlerRecord({ ...def, credits_per_row: '2' as unknown as number })).toThrow(/credits_per_row/);
    expect(() => crawlerRecord({ ...def, max_concurrency: 0 })).toThrow(/max_concurrency must be a whole number/);
    expect(() => crawlerRecord({ ...def, slug: '' })).toThrow(/slug/);
  });
});
