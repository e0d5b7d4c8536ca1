// The format descriptor (src/output/formats.ts) says what the renderer does: commands read it, so it must not lie.
import { describe, expect, it } from 'vitest';
import { FORMAT_SPECS, FORMATS, specOf } from '../../src/output/formats.js';
import { make } from './helpers.js';

const rec = { id: 'r1', name: 'a,"b"\nc\td' };

describe('FORMAT_SPECS', () => {
  it.each(FORMATS)('%s: json, line and out.spec agree with what the format prints', async (format) => {
    const spec = FORMAT_SPECS[format];
    const c = make({ format, stdoutIsTTY: spec.terminal });
    expect(c.out.spec).toBe(spec);
    await c.out.list([rec]);
    const text = c.stdout();
    if (spec.json === 'document') expect(JSON.parse(text)).toEqual([rec]);
    if (spec.json === 'lines')
      expect(
        text
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l)),
      ).toEqual([rec]);
    if (spec.line) {
      expect(text).toBe(spec.line(['id', 'name']) + spec.line([rec.id, rec.name]));
      // The name's line break stays in the row only where a quoted cell keeps it (CSV); TSV escapes it.
      expect(text.split('\n').length > 3).toBe(spec.multiline);
    }
  });

  it('resumable formats are those written a record at a time; the terminal one is the table', () => {
    expect(FORMATS.filter((f) => FORMAT_SPECS[f].resumable)).toEqual(['ndjson', 'csv', 'tsv']);
    expect(FORMATS.filter((f) => FORMAT_SPECS[f].terminal)).toEqual(['table']);
  });

  it('specOf reads a --format value as given: only a format name has a descriptor', () => {
    expect(specOf('ndjson')).toBe(FORMAT_SPECS.ndjson);
    for (const v of [undefined, 'JSON', 'toString', '__proto__', '']) expect(specOf(v)).toBeUndefined();
  });
});
