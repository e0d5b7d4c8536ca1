// A real terminal (tmux) at 80 and 200 columns: `sq squids list` with CJK and emoji squid names fits by display
// width, shows id prefixes, relative times and lower-case statuses; the same command piped stays exact.
import { beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, tempConfigDir } from '../../helpers/cli.js';
import { DEMO_CRAWLERS } from '../../../src/emulator/seed.js';
import { displayWidth } from '../../../src/output/width.js';
import { type Term, useTmuxEmulator } from './tmux.js';

const NAMES = [
  '東京のラーメン屋さん一覧と評価データ完全版',
  '서울 카페 리스트 👨‍👩‍👧 가족 여행',
  '🍜🍣🍱 北京烤鸭 餐厅 🇨🇳 2026',
];

const { emu, open } = useTmuxEmulator();
let term: Term | undefined;
let ids: string[];

beforeAll(async () => {
  ids = [];
  for (const name of NAMES)
    ids.push((await emu.api('/v1/squids', { method: 'POST', body: { crawler: DEMO_CRAWLERS.googleMaps, name } })).id);
});

async function screenAt(width: number, extra: string[] = []): Promise<string[]> {
  await term?.close();
  term = await open(['squids', 'list', '--limit', '50', ...extra], {}, { width, height: 40 });
  const screen = await term.waitFor(/EXIT:\d+/);
  expect(screen).toMatch(/EXIT:0/);
  return screen.split('\n').filter((l) => l.trim() !== '');
}

describe.each([80, 200])('sq squids list on a %i-column terminal', (width) => {
  it('never draws a line wider than the terminal, and every CJK row is on one line', async () => {
    const lines = await screenAt(width);
    for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(width);
    const table = lines.slice(
      0,
      lines.findIndex((l) => l.startsWith('EXIT:')),
    );
    // One line per squid (no wrapped rows): the header, the seeded squids and ours, then at most hints on stderr.
    const rows = table.filter((l) => /^[0-9a-f]{8,} /.test(l));
    const total = (await emu.api('/v1/squids?limit=50')).total_results as number;
    expect(rows).toHaveLength(total);
    // and nothing wrapped: from the header to the last row, every line is the header or a row.
    const first = table.findIndex((l) => l.startsWith('ID '));
    const last = table.lastIndexOf(rows[rows.length - 1]);
    expect(table.slice(first, last + 1)).toEqual([table[first], ...rows]);
    // ids: a prefix of 8+ characters, not the 32-character hash, and it names the squid.
    for (const id of ids) {
      const row = rows.find((l) => id.startsWith(l.split(' ')[0]));
      expect(row, id).toBeDefined();
      expect(row!.split(' ')[0].length).toBeLessThan(32);
    }
    // The CJK names, cut by display width where they must be, start on their own rows.
    expect(table.some((l) => l.includes('東京のラー'))).toBe(true);
    // Columns line up: the column after NAME starts at the same display column in every row.
    const head = table.find((l) => l.startsWith('ID'))!;
    expect(head).toBeDefined();
    const nameStart = head.indexOf('NAME');
    const crawlerStart = head.indexOf('CRAWLER');
    for (const r of rows) {
      const at = nameStart + r.slice(nameStart).search(/  (Google|Amazon|Indeed|Twitter|Sales) /) + 2;
      expect(displayWidth(r.slice(0, at)), r).toBe(crawlerStart);
      expect(displayWidth(r.slice(0, r.indexOf(' ')))).toBeLessThan(nameStart);
    }
    if (width === 200) {
      // Wide enough for the whole names and the last columns; seeded runs ended days ago.
      // (Names are cut at 40 columns, the NAME column's maxWidth: the 42-column Tokyo one loses its end.)
      for (const n of NAMES.slice(1))
        expect(
          table.some((l) => l.includes(n)),
          n,
        ).toBe(true);
      expect(table.some((l) => l.includes('東京のラーメン屋さん一覧と評価データ完…'))).toBe(true);
      expect(head).toMatch(/LAST RUN AT\s+RUNS/);
      expect(table.some((l) => / \d+ d ago /.test(l))).toBe(true);
      expect(table.some((l) => /\b(done|error)\b/.test(l))).toBe(true);
      expect(table.some((l) => /\b(DONE|ERROR)\b/.test(l))).toBe(false);
    }
  }, 60_000);
});

it('--full-ids and --absolute-times show the whole id and the local time with its offset', async () => {
  const lines = await screenAt(200, ['--full-ids', '--absolute-times']);
  for (const id of ids)
    expect(
      lines.some((l) => l.startsWith(id + ' ')),
      id,
    ).toBe(true);
  // (tmux runs sq with the machine's zone; every time in the column has its offset, so the header names it.)
  expect(lines.some((l) => /LAST RUN AT \(UTC[+-]?[\d:]*\)/.test(l))).toBe(true);
  expect(lines.some((l) => / \d{4}-\d{2}-\d{2} \d{2}:\d{2} /.test(l))).toBe(true);
  expect(lines.some((l) => / ago /.test(l))).toBe(false);
}, 60_000);

describe('piped, the same command prints the API values exactly: whole ids, raw timestamps, statuses as sent', () => {
  const cols = [
    'id',
    'name',
    'crawler_name',
    'is_active',
    'concurrency',
    'last_run_status',
    'last_run_at',
    'total_runs',
    'schedule',
    'next_launch_at',
  ];
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const csv = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const run = (args: string[]) =>
    execa(process.execPath, [BIN, 'squids', 'list', '--limit', '50', ...args], {
      env: { ...emu.env(), SQ_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' },
      reject: false,
    });

  it.each([[[]], [['--full-ids', '--absolute-times']]])(
    'TSV, CSV and JSON %j',
    async (flags) => {
      const api = (await emu.api('/v1/squids?limit=50')).data as Array<Record<string, unknown>>;
      expect(api.some((s) => typeof s.last_run_at === 'string' && s.last_run_status === 'DONE')).toBe(true);
      const tsv = await run(flags);
      expect(tsv.exitCode).toBe(0);
      expect(tsv.stdout + '\n').toBe(
        cols.join('\t') + '\n' + api.map((s) => cols.map((c) => cell(s[c])).join('\t') + '\n').join(''),
      );
      const c = await run([...flags, '--format', 'csv']);
      expect(c.stdout + '\n').toBe(
        cols.join(',') + '\n' + api.map((s) => cols.map((k) => csv(cell(s[k]))).join(',') + '\n').join(''),
      );
      const j = await run([...flags, '--json']);
      expect(j.stdout).toBe(JSON.stringify(api, null, 2));
    },
    60_000,
  );
});
