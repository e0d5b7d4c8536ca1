import { describe, expect, it } from 'vitest';
import { fitWidths, renderListTable, renderRecordTable } from '../../src/output/table.js';

describe('fitting a table to the terminal', () => {
  const head = ['ID', 'NAME', 'ADDRESS'];
  const keys = ['id', 'name', 'address'];
  const rows = [['0cc85ca9901b10e520de104d323efa7f', 'Paris restaurants', '53 Avenue Foch, 75003 Paris']];

  it('leaves a table that fits alone', () => {
    expect(fitWidths(head, rows, keys, 200)).toEqual({ widths: [undefined, undefined, undefined], hidden: 0 });
  });

  it('shortens the widest column first and never an id', () => {
    // natural: 32 + 17 + 27 + 2 gaps of 2 = 80; at 70 the address loses 10
    expect(fitWidths(head, rows, keys, 70)).toEqual({ widths: [undefined, undefined, 17], hidden: 0 });
    const tight = fitWidths(head, rows, keys, 60);
    expect(tight.widths[0]).toBeUndefined();
    expect(32 + (tight.widths[1] ?? 17) + (tight.widths[2] ?? 27) + 4).toBeLessThanOrEqual(60);
  });

  it('leaves columns out from the right when even the narrowest widths do not fit', () => {
    // id 32 + name 10 + address 10 + gaps 4 = 56 > 50: address goes
    expect(fitWidths(head, rows, keys, 50)).toEqual({ widths: [undefined, 16], hidden: 1 });
  });

  it('always keeps the first column', () => {
    expect(fitWidths(head, rows, keys, 5).hidden).toBe(2);
  });

  it('fits 200,000 rows (a terminal table of a whole export) without overflowing the stack', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => [String(i), 'n', 'a']);
    expect(fitWidths(head, many, keys, 200).hidden).toBe(0);
  });
});

describe('terminal tables never pass control characters through', () => {
  const opts = { color: false, truncate: true, width: 200 };
  it('formatted cells are neutralised too (a webhook URL, a name from the API)', async () => {
    const cols = [{ key: 'url', format: (v: unknown) => `${String(v)} notifications on` }];
    const { text } = await renderListTable(cols, [{ url: 'https://x.example/\x1b]0;pwned\x07' }], opts);
    expect(text).not.toMatch(/\x1b|\x07/);
  });
  it('and so are record keys', async () => {
    const text = await renderRecordTable({ ['\x1b[2Jkey']: 'v' }, null, opts);
    expect(text).not.toMatch(/\x1b/);
  });
});

describe('id and time columns are recognised by their values, not their names', () => {
  const opts = { color: false, truncate: true, width: 40, now: () => Date.parse('2026-01-02T00:00:00Z') };
  const rows = [
    {
      owner: '0cc85ca9901b10e520de104d323efa7f',
      seen: '2026-01-01T00:00:00Z',
      note: 'a long note that must give way first',
    },
    { owner: '9e20f3bb315d3f26af6949d5d23a8d42', seen: '2026-01-01T12:00:00Z', note: 'another long note' },
  ];
  it('a column of 32-hex ids shows unique prefixes and a column of API times relative times, neither cut', async () => {
    const { text } = await renderListTable([{ key: 'owner' }, { key: 'seen' }, { key: 'note' }], rows, opts);
    const lines = text.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^0cc85ca9 {2}1 d ago +a long/);
    expect(lines[2]).toMatch(/^9e20f3bb {2}12 h ago +another/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
  });
  it('a column that mixes ids with other text is left as it is', async () => {
    const { text } = await renderListTable(
      [{ key: 'owner' }],
      [{ owner: '0cc85ca9901b10e520de104d323efa7f' }, { owner: 'someone' }],
      { ...opts, width: 200 },
    );
    expect(text).toContain('0cc85ca9901b10e520de104d323efa7f');
  });
});

describe('what a terminal table keeps (issue 48)', () => {
  const opts = { color: false, truncate: true, width: 60 };
  const rows = [
    {
      id: '0cc85ca9901b10e520de104d323efa7f',
      name: 'Paris restaurants',
      crawler_name: 'Google Maps Search Export',
      is_active: true,
      note: 'n'.repeat(50),
    },
    {
      id: '9e20f3bb315d3f26af6949d5d23a8d42',
      name: 'Lyon bakeries',
      crawler_name: 'Google Maps Search Export',
      is_active: true,
      note: 'm'.repeat(50),
    },
  ];
  const cols = [
    { key: 'id' },
    { key: 'name' },
    { key: 'crawler_name', header: 'CRAWLER' },
    { key: 'is_active', header: 'ACTIVE' },
    { key: 'note' },
  ];

  it('a column that says the same on every row is left out and named once', async () => {
    const { text, same } = await renderListTable(cols, rows, { ...opts, width: 200 });
    expect(text.split('\n')[0]).not.toContain('ACTIVE');
    expect(same).toEqual(['crawler Google Maps Search Export', 'all active']);
  });

  it('one row, --fields or --wide keep every column', async () => {
    expect((await renderListTable(cols, rows.slice(0, 1), { ...opts, width: 200 })).same).toEqual([]);
    expect((await renderListTable(cols, rows, { ...opts, width: 200, keepColumns: true })).text).toContain('ACTIVE');
    const wide = await renderListTable(cols, rows, { ...opts, width: 20, wide: true });
    expect(wide.text).toContain(rows[0].id);
    expect(wide.text).toContain(rows[0].note);
    expect(wide.hidden).toEqual([]);
  });

  it('the name is cut last: other columns give way first', async () => {
    const { text } = await renderListTable(cols, rows, opts);
    const lines = text.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^0cc85ca9 {2}Paris restaurants {2}n+…$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(60);
  });

  it('fitWidths shortens rank 0 before a name (rank 2)', () => {
    const fit = fitWidths(['NAME', 'NOTE'], [['a'.repeat(30), 'b'.repeat(30)]], ['name', 'note'], 50, [], [2, 0]);
    expect(fit.widths).toEqual([undefined, 18]);
  });
});

describe('a record on a terminal leaves out its empty fields (issue 48)', () => {
  const opts = { color: false, truncate: true, width: 80 };
  const run = {
    id: 'r1',
    status: 'done',
    next_launch_at: null,
    email_time: '',
    done_reason_desc: undefined,
    total_results: 0,
  };
  it('null and "" are not shown; 0 and false are', async () => {
    const text = await renderRecordTable(run, null, opts);
    expect(text).not.toMatch(/next_launch_at|email_time|done_reason_desc/);
    expect(text).toMatch(/total_results +0/);
    const declared = await renderRecordTable(run, [{ key: 'id' }, { key: 'next_launch_at', header: 'next run' }], opts);
    expect(declared).not.toContain('next run');
  });
  it('--wide and piped output keep every field', async () => {
    expect(await renderRecordTable(run, null, { ...opts, wide: true })).toContain('next_launch_at');
    expect(await renderRecordTable(run, null, { ...opts, truncate: false })).toContain('email_time');
  });
});

describe('relative times of what happened are never in the future (issue 48)', () => {
  const now = Date.parse('2026-01-02T00:00:00Z');
  const opts = { color: false, truncate: true, width: 120, now: () => now };
  it('a start 5 min ahead of our clock is "just now"; a next run 5 min ahead is "in 5 min"', async () => {
    const ahead = '2026-01-02T00:05:00Z';
    const rows = [
      { id: 'a', started_at: ahead, next_launch_at: ahead },
      { id: 'b', started_at: ahead, next_launch_at: '2026-01-02T01:00:00Z' },
    ];
    const { text } = await renderListTable([{ key: 'id' }, { key: 'started_at' }, { key: 'next_launch_at' }], rows, {
      ...opts,
      keepColumns: true,
    });
    expect(text.split('\n')[1]).toMatch(/^a +just now +in 5 min$/);
    expect(await renderRecordTable({ created_at: ahead }, null, opts)).toMatch(/created_at +just now/);
  });
});
