// What --resume checks before it trusts a checkpoint: its fields (pure logic), and the saved pages it describes,
// read from a real file: CSV cells may hold quoted newlines, and a file past a 1 MiB read is counted across reads.
import { open } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { checkpointProblem, savedPagesProblem, type Checkpoint } from '../../src/io/checkpoint.js';
import { tempFiles } from '../helpers/fs.js';

const file = tempFiles('sq-ck-unit-');
const base: Checkpoint = {
  version: 1,
  command: 'results list',
  scope: { run: 'r1' },
  scope_ref: 'r1',
  task: null,
  format: 'csv',
  fields: null,
  columns: ['id', 'name'],
  page_size: 2,
  pages: 1,
  records: 2,
  bytes: 0,
  total_results: 10,
  target: null,
  updated_at: '',
};

async function problem(text: string | Buffer, ck: Partial<Checkpoint>): Promise<string | null> {
  const path = file(`f${Math.random()}`, text as string);
  const fh = await open(path);
  try {
    return await savedPagesProblem(fh, { ...base, bytes: Buffer.byteLength(text), ...ck });
  } finally {
    await fh.close();
  }
}

describe('savedPagesProblem', () => {
  it('counts a CSV record whose quoted cell holds newlines (and "") as one', async () => {
    expect(await problem('id,name\n1,"two\nlines, ""quoted"""\n2,b\n', {})).toBeNull();
    expect(await problem('id,name\n1,"two\nlines"\n', {})).toBe(
      'holds 1 record in its first 22 bytes, but its checkpoint counts 2',
    );
  });

  it('a quote left open at the end is a cut record, even after a newline', async () => {
    expect(await problem('id,name\n1,a\n2,"b\n', {})).toMatch(/^does not end with a whole record at byte 17/);
  });

  it('counts NDJSON and TSV lines across reads of 1 MiB', async () => {
    const line = JSON.stringify({ id: 'x'.repeat(500) }) + '\n';
    const n = 5000; // ~2.5 MB
    expect(
      await problem(line.repeat(n), { format: 'ndjson', columns: null, page_size: 100, pages: 50, records: n }),
    ).toBeNull();
    expect(await problem('id\tname\n1\ta\\nb\n2\tc\n', { format: 'tsv' })).toBeNull();
  });

  it('a NUL byte, the wrong header, or fields that make another header', async () => {
    const padded = Buffer.concat([Buffer.from('id,name\n1,a\n'), Buffer.alloc(4)]);
    expect(await problem(padded, {})).toBe(
      'holds a NUL byte at offset 12: it is not what sq wrote (a file extended past the data it got, as truncate -s does to a file that lost data)',
    );
    expect(await problem('id,nom\n1,a\n2,b\n', {})).toMatch(
      /^starts with a header other than the one its checkpoint's columns make \("id,name"\)/,
    );
    expect(await problem('name\na\nb\n', { fields: ['name'] })).toBeNull();
  });
});

describe('checkpointProblem', () => {
  const check = (edit: Record<string, unknown>) =>
    checkpointProblem({ ...base, bytes: 100, ...edit } as unknown as Record<string, unknown>);
  it('accepts what sq writes, and a short last page only when it ends the listing', () => {
    expect(check({})).toBeNull();
    expect(check({ pages: 2, records: 3, total_results: 3 })).toBeNull();
    expect(check({ pages: 2, records: 3, total_results: 10 })).toBe(
      'records must be pages × page_size (2 × 2 = 4), got 3',
    );
  });
  it('names the field, what it must be and what it got', () => {
    expect(check({ pages: Number.NaN })).toBe('pages must be a whole number of pages, at least 1, got null');
    expect(check({ task: '' })).toBe('task must be null or a non-empty string, got ""');
    expect(check({ fields: [1] })).toBe('fields must be null or a list of field names, got [1]');
    expect(check({ target: 5 })).toBe('target must be null or a path, got 5');
    expect(check({ scope: { run: 'a', squid: 'b' } })).toMatch(/^scope must be/);
  });
});
