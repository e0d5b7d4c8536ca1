// One CSV writer: the emulator's run exports (toCsv) and sq's --format csv (csvLine) quote and end lines alike.
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/io/csv.js';
import { csvLine } from '../../src/output/formats.js';

describe('CSV', () => {
  it('a run export is the lines csvLine writes: RFC 4180 quoting, "\\n" line ends', () => {
    const rows = [{ id: 'r1', name: 'Café, "Le Nord"', tags: ['a'], none: null }];
    const cols = ['id', 'name', 'tags', 'none'];
    expect(toCsv(cols, rows)).toBe(csvLine(cols) + csvLine(['r1', 'Café, "Le Nord"', '["a"]', '']));
    expect(toCsv(cols, rows)).toBe('id,name,tags,none\nr1,"Café, ""Le Nord""","[""a""]",\n');
  });
});
