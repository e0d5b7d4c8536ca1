// The tolerant readers (percent, duration, file names) and the progress renderer, on exact inputs.
import { describe, expect, it } from 'vitest';
import { durationSeconds, formatDurationCell, isLoopback, isTerminal, parsePercent } from '../../src/api/runs.js';
import { resultColumns } from '../../src/api/results.js';
import { fileName } from '../../src/commands/runs/download.js';
import { Progress, bar, elapsed, humanBytes } from '../../src/io/progress.js';
import { displayWidth } from '../../src/output/width.js';
import { capture } from '../helpers/stream.js';

describe('tolerant readers', () => {
  it.each([
    ['45%', 45],
    ['100%', 100],
    [' 12.5 % ', 12.5],
    [37, 37],
    ['∞', null],
    ['', null],
    [null, null],
  ])('parsePercent(%j) = %j', (v, want) => expect(parsePercent(v)).toBe(want));

  it.each([
    [50.1833, 50.1833],
    ['0:00:50.183300', 50.1833],
    ['1:02:03', 3723],
    ['2 days, 1:00:00', 2 * 86400 + 3600],
    ['12.5', 12.5],
    ['soon', null],
    [null, null],
  ])('durationSeconds(%j) = %j', (v, want) => {
    const got = durationSeconds(v);
    if (want === null) expect(got).toBeNull();
    else expect(got).toBeCloseTo(want, 6);
  });

  it('formats both duration shapes the same way in tables', () => {
    expect(formatDurationCell(50.9)).toBe('0:00:50');
    expect(formatDurationCell('0:00:50.183300')).toBe('0:00:50');
    expect(formatDurationCell(3723.2)).toBe('1:02:03');
    expect(formatDurationCell(null)).toBe('');
  });

  it('terminal statuses in either case', () => {
    expect(['done', 'DONE', 'aborted', 'ERROR'].map(isTerminal)).toEqual([true, true, true, true]);
    expect(['running', 'UPLOADING', 'paused', 'pending'].map(isTerminal)).toEqual([false, false, false, false]);
  });

  it('loopback detection for the 5 s polling floor', () => {
    expect(
      ['http://127.0.0.1:8787', 'http://localhost:1', 'http://[::1]:80', 'http://127.1.2.3'].map(isLoopback),
    ).toEqual([true, true, true, true]);
    expect(
      ['https://api.lobstr.io', 'http://10.0.0.1', 'http://127.0.0.1.evil.com', 'nonsense'].map(isLoopback),
    ).toEqual([false, false, false, false]);
  });

  it.each([
    ['attachment; filename="Paris restaurants_20250101_1200.csv"', 'Paris restaurants_20250101_1200.csv'],
    ["attachment; filename*=UTF-8''caf%C3%A9.csv", 'café.csv'],
    ['attachment; filename=plain.csv', 'plain.csv'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment; filename="..\\\\evil.csv"', 'evil.csv'],
    ['attachment; filename=".."', 'r1.csv'],
    ['attachment; filename=".bashrc"', 'bashrc'],
    ['attachment; filename="a/b.csv"', 'b.csv'],
    ['attachment; filename="nul.csv"', 'r1.csv'],
    ['attachment; filename="LPT1"', 'r1.csv'],
    ['attachment; filename="report.csv. "', 'report.csv'],
    ["attachment; filename*=UTF-8''a%E2%80%AEvsc.csv", 'avsc.csv'],
    [undefined, 'r1.csv'],
  ])('fileName(%j) = %j', (cd, want) => expect(fileName(cd, 'r1')).toBe(want));
});

describe('result columns', () => {
  it('leads with id, squid, run, scraping_time, then the attributes in order, without duplicates', () => {
    expect(resultColumns(['name', 'id', 'url', 'name'], [])).toEqual([
      'id',
      'squid',
      'run',
      'scraping_time',
      'name',
      'url',
    ]);
  });
  it('falls back to the sample keys in first-seen order, skipping object', () => {
    const rows = [
      { object: 'result', id: 1, b: 1, a: 2 },
      { c: 3, a: 1 },
    ];
    expect(resultColumns(null, rows)).toEqual(['id', 'squid', 'run', 'scraping_time', 'b', 'a', 'c']);
  });
});

describe('progress', () => {
  it('plain mode prints one line per change and nothing for repeats', () => {
    const c = capture();
    const p = new Progress({ stream: c.stream, tty: false, enabled: true });
    p.update({ fraction: 0.1, text: 'a 10%', key: 'a' });
    p.update({ fraction: 0.1, text: 'a 10% (later)', key: 'a' });
    p.update({ fraction: 0.5, text: 'b 50%', key: 'b' });
    p.clear();
    expect(c.text()).toBe('a 10%\nb 50%\n');
  });

  it('terminal mode redraws one line in place and erases it on clear', () => {
    const c = capture();
    let now = 0;
    const p = new Progress({
      stream: c.stream,
      tty: true,
      enabled: true,
      columns: 80,
      now: () => now,
      throttleMs: 100,
    });
    p.update({ fraction: 0.5, text: 'half' });
    now = 10;
    p.update({ fraction: 0.6, text: 'throttled' });
    now = 200;
    p.update({ fraction: 1, text: 'full' });
    p.clear();
    expect(c.text()).toBe(`\r\x1b[2K${bar(0.5)} half\r\x1b[2K${bar(1)} full\r\x1b[2K`);
    expect(bar(0.5)).toBe(`[${'#'.repeat(12)}${'-'.repeat(12)}]`);
  });

  it('on a narrow terminal the bar gives way before the text, which is cut by display width, never past the edge', () => {
    const c = capture();
    const p = new Progress({ stream: c.stream, tty: true, enabled: true, columns: 40, throttleMs: 0 });
    p.update({ fraction: 0.5, text: 'short' });
    p.update({ fraction: null, text: 'paused (no_account_available: Every account reached its limit)' }, true);
    p.update({ fraction: null, text: '一時停止 (理由: すべてのアカウントが上限に達しました)' }, true);
    const frames = c.text().split('\r\x1b[2K').filter(Boolean);
    expect(frames[0]).toBe(`${bar(0.5)} short`);
    expect(frames[1]).toBe('paused (no_account_available: Every ac…');
    expect(displayWidth(frames[2])).toBeLessThanOrEqual(39);
    expect(frames[2].startsWith('一時停止 (理由')).toBe(true);
  });

  it('disabled (--quiet) writes nothing', () => {
    const c = capture();
    const p = new Progress({ stream: c.stream, tty: true, enabled: false });
    p.update({ fraction: 1, text: 'x' });
    p.log('y');
    expect(c.text()).toBe('');
  });

  it('human units', () => {
    expect([elapsed(7_000), elapsed(723_000), elapsed(3_723_000)]).toEqual(['0:07', '12:03', '1:02:03']);
    expect([humanBytes(512), humanBytes(4423), humanBytes(5 * 1024 * 1024)]).toEqual(['512 B', '4.3 kB', '5.0 MB']);
  });
});
