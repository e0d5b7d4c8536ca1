// Terminal tables are for reading: id prefixes, relative times, one case for statuses, columns aligned by display
// width. Piped formats never change (test/system/tty/table-width.test.ts runs the built bin both ways).
import { afterEach, describe, expect, it } from 'vitest';
import { idPrefixLength, renderListTable, renderRecordTable } from '../../src/output/table.js';
import { absoluteTime, parseApiTime, relativeTime } from '../../src/output/time.js';
import { displayWidth } from '../../src/output/width.js';
import type { Column } from '../../src/output/types.js';

const NOW = Date.UTC(2026, 10, 23, 15, 4, 0); // 2026-11-23T15:04:00Z
const term = { color: false, truncate: true, width: 200, now: () => NOW };

describe('id prefixes', () => {
  it('is 8 when 8 characters tell every id apart', () => {
    expect(idPrefixLength(['0cc85ca9901b10e5', 'fe9168589aa0b3c1', '3565dce3'])).toBe(8);
  });
  it('grows until the two closest ids differ, for the whole column', () => {
    expect(idPrefixLength(['abcdef0123456789', 'abcdef0123999999', '11111111ffff'])).toBe(11);
  });
  it('the same id twice is one id', () => {
    expect(idPrefixLength(['abcdef0123456789', 'abcdef0123456789'])).toBe(8);
  });
  it('a terminal list shows the prefixes; --full-ids and pipes show whole ids', async () => {
    const rows = [{ id: 'abcdef0123456789abcdef0123456789' }, { id: 'abcdef01299999990000000000000000' }];
    const cols: Column[] = [{ key: 'id' }];
    expect((await renderListTable(cols, rows, term)).text).toBe('ID\nabcdef0123\nabcdef0129\n');
    expect((await renderListTable(cols, rows, { ...term, fullIds: true })).text).toContain(rows[0].id);
    expect((await renderListTable(cols, rows, { ...term, truncate: false })).text).toContain(rows[1].id);
  });
});

describe('API timestamps', () => {
  it.each([
    ['2025-02-10T14:27:45Z', Date.UTC(2025, 1, 10, 14, 27, 45)],
    ['2025-02-04T10:26:50.847633', Date.UTC(2025, 1, 4, 10, 26, 50, 847)], // naive with µs: UTC
    ['2025-02-04T10:26:50', Date.UTC(2025, 1, 4, 10, 26, 50)],
    ['2025-02-10T14:27:45.123Z', Date.UTC(2025, 1, 10, 14, 27, 45, 123)],
    ['2025-02-10T16:27:45+02:00', Date.UTC(2025, 1, 10, 14, 27, 45)],
    ['2025/02/10 14:27:45', Date.UTC(2025, 1, 10, 14, 27, 45)], // webhook form
    ['10/02/2025 14:27:45', Date.UTC(2025, 1, 10, 14, 27, 45)], // account last_batch_at
  ])('%s', (text, ms) => {
    expect(parseApiTime(text)).toBe(ms);
  });
  it.each(['soon', '2025-13-45T00:00:00', '', '1739197665', null, 42])('%j is not a date: shown as given', (v) => {
    expect(parseApiTime(v)).toBeUndefined();
  });
});

describe('relative times', () => {
  it.each([
    [NOW - 20_000, 'just now'],
    [NOW - 3 * 60_000 - 29_000, '3 min ago'],
    [NOW - 3 * 60_000 - 31_000, '4 min ago'],
    [NOW - 2 * 86_400_000 + 7_000, '2 d ago'], // ended 7 s after a start 2 days ago: not "1 d ago"
    [NOW - 59 * 60_000 - 40_000, '1 h ago'],
    [NOW - 5 * 3_600_000, '5 h ago'],
    [NOW - 2 * 86_400_000, '2 d ago'],
    [NOW - 65 * 86_400_000, '2 mo ago'],
    [NOW - 800 * 86_400_000, '2 y ago'],
    [NOW + 30_000, 'just now'],
    [NOW + 2 * 3_600_000 + 5, 'in 2 h'],
  ])('%i → %s', (t, text) => {
    expect(relativeTime(t, NOW)).toBe(text);
  });
});

describe('absolute local times carry their offset', () => {
  const tz = process.env.TZ;
  afterEach(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });
  it.each([
    ['UTC', '2026-11-23 15:04 UTC'],
    ['Europe/Paris', '2026-11-23 16:04 UTC+1'],
    ['Asia/Kolkata', '2026-11-23 20:34 UTC+5:30'],
    ['America/New_York', '2026-11-23 10:04 UTC-5'],
  ])('TZ=%s', (zone, text) => {
    process.env.TZ = zone;
    expect(absoluteTime(NOW)).toBe(text);
  });
  it('the offset of that day, not of today (summer time)', () => {
    process.env.TZ = 'Europe/Paris';
    expect(absoluteTime(Date.UTC(2026, 6, 1, 12, 0))).toBe('2026-07-01 14:00 UTC+2');
  });
});

describe('terminal cells', () => {
  const cols: Column[] = [{ key: 'id' }, { key: 'status', kind: 'status' }, { key: 'started_at', kind: 'time' }];
  const rows = [
    { id: '0cc85ca9901b10e520de104d323efa7f', status: 'DONE', started_at: '2026-11-23T15:00:59.123456' },
    { id: 'fe916858aa0b3c1d2e3f405162738495', status: 'error', started_at: 'not yet' },
  ];

  it('statuses in lower case, times relative; an unparseable time as given', async () => {
    const { text } = await renderListTable(cols, rows, term);
    expect(text).toBe('ID        STATUS  STARTED AT\n0cc85ca9  done    3 min ago\nfe916858  error   not yet\n');
  });

  it('statuses coloured when colour is on', async () => {
    const { text } = await renderListTable(cols, rows, { ...term, color: true });
    expect(text).toContain('\x1b[32mdone\x1b[39m');
    expect(text).toContain('\x1b[31merror\x1b[39m');
  });

  it('--absolute-times: local time with the offset', async () => {
    const tz = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      const { text } = await renderListTable(cols, rows, { ...term, absoluteTimes: true });
      // One offset for the whole column: the header names it.
      expect(text).toBe(
        'ID        STATUS  STARTED AT (UTC)\n0cc85ca9  done    2026-11-23 15:00\nfe916858  error   not yet\n',
      );
      // Offsets that differ (summer and winter time): each cell carries its own.
      process.env.TZ = 'Europe/Paris';
      const mixed = [{ ...rows[0], started_at: '2026-07-01T12:00:00Z' }, rows[0]];
      const both = await renderListTable(cols, mixed, { ...term, absoluteTimes: true });
      expect(both.text).toContain('STARTED AT\n');
      expect(both.text).toContain('2026-07-01 14:00 UTC+2\n');
      expect(both.text).toContain('2026-11-23 16:00 UTC+1\n');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('a narrow terminal cuts other columns, not times', async () => {
    const wide: Column[] = [...cols, { key: 'note' }];
    const { text } = await renderListTable(
      wide,
      rows.map((r, i) => ({ ...r, note: 'x'.repeat(60) + i })),
      { ...term, width: 56, absoluteTimes: true },
    );
    expect(text).toMatch(/2026-11-2\d \d\d:\d\d +xxx/); // whatever TZ says
    for (const l of text.trimEnd().split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(56);
    expect(text).toContain('…');
  });

  it('piped tables keep what the API sent', async () => {
    const { text } = await renderListTable(cols, rows, { ...term, truncate: false });
    expect(text).toContain('0cc85ca9901b10e520de104d323efa7f  DONE    2026-11-23T15:00:59.123456');
  });

  it('a record without declared columns: times and statuses by their keys, relative with the date', async () => {
    const tz = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      const text = await renderRecordTable(
        { id: rows[0].id, status: 'RUNNING', ended_at: '2026-11-23T13:04:00Z', note: '2026-11-23T13:04:00Z' },
        null,
        term,
      );
      expect(text).toContain(`id        ${rows[0].id}\n`); // one record: the whole id
      expect(text).toContain('status    running\n');
      expect(text).toContain('ended_at  2 h ago (2026-11-23 13:04 UTC)\n');
      expect(text).toContain('note      2026-11-23T13:04:00Z\n'); // not a time key: as sent
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
});

describe('columns line up by display width', () => {
  it('ZWJ emoji, Indic and CJK names: the next column starts at the same column in every row', async () => {
    const rows = [
      { id: 'a1', name: '🧑‍💻 dev team', crawler: 'maps' },
      { id: 'b2', name: 'नमस्ते दुनिया', crawler: 'maps' },
      { id: 'c3', name: '東京 ramen', crawler: 'maps' },
      { id: 'd4', name: 'plain', crawler: 'maps' },
    ];
    const { text } = await renderListTable([{ key: 'id' }, { key: 'name' }, { key: 'crawler' }], rows, term);
    const lines = text.trimEnd().split('\n');
    const starts = lines.map((l) => displayWidth(l.slice(0, l.lastIndexOf('  ') + 2)));
    expect(new Set(starts).size).toBe(1);
  });

  it('a table of CJK names fits 80 columns', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({
      id: `${i}`.repeat(32),
      name: '東京のラーメン屋さん一覧と評価データ'.repeat(2),
      crawler: '谷歌地图搜索'.repeat(3),
    }));
    const { text } = await renderListTable([{ key: 'id' }, { key: 'name' }, { key: 'crawler' }], rows, {
      ...term,
      width: 80,
    });
    for (const l of text.trimEnd().split('\n')) expect(displayWidth(l), l).toBeLessThanOrEqual(80);
    expect(text).toContain('…');
  });
});
