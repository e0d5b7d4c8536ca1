// A real terminal (tmux) at 80 and 200 columns: a results table recognises its id and time columns by their values
// (squid, run, task hold 32-hex ids; created_at-like columns hold API times): ids show as unique prefixes of 8+
// characters that name the record, times as relative times, and neither is ever cut to fit; a column that says the
// same on every row is named once under the table.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SQUIDS } from '../../../src/emulator/seed.js';
import { displayWidth } from '../../../src/output/width.js';
import { type Term, useTmuxEmulator } from './tmux.js';

const { emu, open } = useTmuxEmulator();
let term: Term | undefined;
let records: Record<string, unknown>[];

beforeAll(async () => {
  records = (await emu.api(`/v1/results?squid=${emu.squidId(DEMO_SQUIDS.paris)}&limit=5`)).data;
});

describe.each([80, 200])('sq results list on a %i-column terminal', (width) => {
  it('shows id prefixes and times whole, and fits the width', async () => {
    await term?.close();
    term = await open(['results', 'list', '--squid', DEMO_SQUIDS.paris, '--limit', '5'], {}, { width, height: 40 });
    const screen = await term.waitFor(/EXIT:\d+/);
    expect(screen).toMatch(/EXIT:0/);
    const lines = screen.split('\n').filter((l) => l.trim() !== '');
    for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(width);
    const head = lines.find((l) => /^ID\s/.test(l))!;
    expect(head).toBeDefined();
    const headers = head.trim().split(/\s{2,}/);
    const rows = lines.filter((l) => /^[0-9a-f]{8,}\s/.test(l));
    expect(rows).toHaveLength(records.length);
    const cellsOf = (row: string) => row.trim().split(/\s{2,}/);
    let idColumns = 0;
    let timeColumns = 0;
    for (const [i, header] of headers.entries()) {
      const key = header.toLowerCase().replace(/ /g, '_');
      const values = records.map((r) => r[key]);
      if (values.every((v) => typeof v === 'string' && /^[0-9a-f]{32}$/.test(v))) {
        // An id column (id, squid, run): each cell a whole prefix of 8+ characters of that record's id, never cut.
        idColumns++;
        rows.forEach((row, n) => {
          expect(cellsOf(row)[i], `${key} of row ${n}`).toMatch(/^[0-9a-f]{8,}$/);
          expect(values[n] as string, key).toMatch(new RegExp(`^${cellsOf(row)[i]}`));
        });
      } else if (values.every((v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v))) {
        // A time column, whatever its name (scraping_time): relative, and never cut.
        timeColumns++;
        for (const row of rows) expect(cellsOf(row)[i]).toMatch(/^(\d+ (s|min|h|d|mo|y) ago|just now|in \d+ .+)$/);
      }
    }
    // The squid, the same on every row of a --squid listing, is not a column: the line under the table names it once
    // ("Same on every row: squid 0cc85ca9…"), at every width; so is the run when the rows come from one run.
    const shown = headers.map((h) => h.toLowerCase());
    const oneRun = new Set(records.map((r) => r.run)).size === 1;
    expect(shown).toEqual(expect.arrayContaining(oneRun ? ['id', 'name'] : ['id', 'run', 'name']));
    expect(shown).not.toContain('squid');
    const flat = screen.replace(/\n/g, '');
    expect(flat).toMatch(new RegExp(`Same on every row: .*squid ${emu.squidId(DEMO_SQUIDS.paris).slice(0, 8)}`));
    if (oneRun) expect(flat).toMatch(new RegExp(`run ${String(records[0].run).slice(0, 8)}`));
    expect(idColumns).toBeGreaterThanOrEqual(shown.includes('run') ? 1 : 0);
    // A time the same on every row (one run's scraping_time) is named under the table instead, relative too.
    if (timeColumns === 0) expect(flat).toMatch(/Same on every row: .*(\d+ (s|min|h|d|mo|y) ago|just now)/);
  }, 60_000);
});
