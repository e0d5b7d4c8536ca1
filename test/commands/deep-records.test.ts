// Issue 33 E14: a scraped record nested thousands of levels deep is exported as it is, to stdout and to -o, in every
// format; the secret scrub and JSON writer walked it by recursion and ended with "Maximum call stack size exceeded".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { jsonText } from '../../src/output/json-text.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const DEPTH = 3000;

function deep(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
const deepText = (depth: number) => `${'{"a":'.repeat(depth)}"leaf"${'}'.repeat(depth)}`;

async function serveDeep() {
  const squid = emu.squidId(DEMO_SQUIDS.paris);
  const page = {
    data: [{ id: 'r1', object: 'result', squid, deep: deep(DEPTH) }],
    total_results: 1,
    total_pages: 1,
    page: 1,
    limit: 100,
    next: null,
  };
  await emu.faults([{ path: '/v1/results', method: 'GET', action: 'status', status: 200, body: page, count: 5 }]);
}

describe('a record nested 3,000 levels deep', () => {
  it.each(['ndjson', 'json', 'csv', 'tsv'])(
    'results list --all --format %s to stdout: exit 0, the record as it is',
    async (format) => {
      await serveDeep();
      const fields = format === 'csv' || format === 'tsv' ? ['--fields', 'id,deep'] : [];
      const r = await sq(['results', 'list', '--squid', DEMO_SQUIDS.paris, '--all', '--format', format, ...fields], {
        env: emu.env(),
      });
      expect(r.stderr).not.toContain('Maximum call stack');
      expect(r.code, r.stderr).toBe(0);
      if (format === 'ndjson') expect(r.stdout).toContain(`"deep":${deepText(DEPTH)}}\n`);
      // Compared as text: toEqual walks the two 3,000-level trees by recursion, and in a busy worker that walk itself
      // ran out of stack now and then (the record sq printed was whole).
      else if (format === 'json') expect(JSON.stringify(JSON.parse(r.stdout)[0].deep)).toBe(deepText(DEPTH));
      else {
        // The cell is the value's JSON, quoted as the format quotes it.
        expect(r.stdout.split('\n')[0]).toBe(format === 'csv' ? 'id,deep' : 'id\tdeep');
        expect(r.stdout.length).toBeGreaterThan(DEPTH * 5);
      }
    },
  );

  it('-o FILE.ndjson: the same bytes', async () => {
    await serveDeep();
    const out = join(tempDir('sq-deep-'), 'out.ndjson');
    const r = await sq(['results', 'list', '--squid', DEMO_SQUIDS.paris, '--all', '-o', out], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain(`"deep":${deepText(DEPTH)}}\n`);
  });
});

describe('jsonText', () => {
  it('writes what JSON.stringify writes, and goes on where it throws (100,000 levels)', () => {
    const sample = { a: [1, 'x', null, true, { b: undefined, c: [] }, {}], d: Number.NaN, e: new Date(0), f: 'é\n"' };
    for (const indent of [undefined, 2]) expect(jsonText(sample, indent)).toBe(JSON.stringify(sample, null, indent));
    const v = deep(100_000);
    expect(() => JSON.stringify(v)).toThrow(RangeError);
    expect(jsonText(v)).toBe(deepText(100_000));
    expect(jsonText(deep(3), 2)).toBe(JSON.stringify(deep(3), null, 2));
  });
});
