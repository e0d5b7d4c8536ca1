// Run exports in every format (changelog 2026-06-16: CSV, XLSX, JSON, JSONL; `fields` selects columns, `omit`
// excludes them; XLSX over ~1 M rows refused up front; large exports convert in the background with live progress):
// sq runs download --file-format/--fields/--omit against the emulator, each file read back by a real reader
// (exceljs for XLSX).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { gatedSqClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/fs.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { CONVERT_MS_PER_ROW } from '../../src/emulator/exports.js';
import type { J } from '../helpers/json.js';
import * as store from '../../src/emulator/model/store.js';

const emu = useEmulator({ each: 'reset' });

/** The newest done run of Paris restaurants (seeded, export ready) and its rows through the API. */
async function doneRun(): Promise<{ id: string; rows: J[] }> {
  const runs = (await emu.api(`/v1/runs?squid=${emu.squidId(DEMO_SQUIDS.paris)}`)).data as J[];
  const id = runs.find((r) => r.export_done === true)!.id;
  const rows = (await emu.api(`/v1/results?run=${id}&limit=100`)).data as J[];
  return { id, rows };
}

/** sq runs download with a gated clock, the emulator's clock moved on between polls until the conversion is done. */
async function download(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const clock = gatedSqClock();
  const p = sq(['runs', 'download', ...args], { env: emu.env(), clock });
  let done = false;
  void p.finally(() => (done = true));
  while (!done) {
    await new Promise((r) => setTimeout(r, 5));
    if (clock.sleeping) {
      await emu.advance(2_000);
      clock.step();
    }
  }
  return p;
}

describe('runs download --file-format (changelog 2026-06-16)', () => {
  it("xlsx: a real XLSX (read by exceljs) with the run's rows, named from the format, after the background conversion with its progress", async () => {
    const { id, rows } = await doneRun();
    const dir = tempDir('sq-xlsx-');
    const r = await download([id, '--file-format', 'xlsx', '-o', `${dir}/`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/converting to xlsx: 0%/);
    expect(r.stderr).toMatch(/converting to xlsx: \d+%/);
    const [name] = readdirSync(dir);
    expect(name).toMatch(/^Paris restaurants_\d{8}_\d{4}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync(join(dir, name)) as never);
    const ws = wb.worksheets[0];
    expect(ws.rowCount).toBe(rows.length + 1);
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    expect(header[0]).toBe('id');
    expect(header).toContain('name');
    const nameCol = header.indexOf('name') + 1;
    expect(rows.map((x) => x.name)).toContain(ws.getRow(2).getCell(nameCol).value);
    const asked = (await emu.requests('GET')).filter((q) => q.path.endsWith('/download'));
    expect(asked.length).toBeGreaterThan(1);
    expect(asked[0].query).toMatchObject({ file_format: 'xlsx' });
  });

  it('json and jsonl with --fields and --omit: only the asked columns, in order', async () => {
    const { id, rows } = await doneRun();
    const dir = tempDir('sq-json-');
    const j = await download([id, '--file-format', 'json', '--fields', 'name,score,id', '-o', join(dir, 'out.json')]);
    expect(j.code, j.stderr).toBe(0);
    const data = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as J[];
    expect(data).toHaveLength(rows.length);
    expect(Object.keys(data[0])).toEqual(['name', 'score', 'id'].filter((k) => k in data[0]));
    expect(Object.keys(data[0])[0]).toBe('name');
    const l = await download([id, '--file-format', 'jsonl', '--omit', 'id,score', '-o', '-']);
    expect(l.code, l.stderr).toBe(0);
    const lines = l.stdout
      .trimEnd()
      .split('\n')
      .map((x) => JSON.parse(x));
    expect(lines).toHaveLength(rows.length);
    expect(lines[0]).not.toHaveProperty('id');
    expect(lines[0]).not.toHaveProperty('score');
    expect(lines[0]).toHaveProperty('name');
  });

  it('csv with --fields: the header is the asked columns, and no conversion wait', async () => {
    const { id, rows } = await doneRun();
    const r = await sq(['runs', 'download', id, '--fields', 'name,address', '-o', '-'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split(/\r?\n/);
    expect(lines[0]).toBe('name,address');
    expect(lines).toHaveLength(rows.length + 1);
  });

  it("an unknown column is the API's 400, exit 1, and no file", async () => {
    const { id } = await doneRun();
    const dir = tempDir('sq-badcol-');
    const r = await sq(['runs', 'download', id, '--fields', 'nope', '-o', join(dir, 'x.csv')], { env: emu.env() });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Unknown column "nope"');
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    [['--file-format', 'parquet'], "argument 'parquet' is invalid. Allowed choices are csv, xlsx, json, jsonl"],
    [['--omit', 'name,,id'], '--omit takes column names separated by commas'],
  ])('%j → exit 2 before any request', async (flags, message) => {
    const r = await sq(['runs', 'download', '0'.repeat(32), ...flags], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await emu.requests()).toEqual([]);
  });

  it("xlsx over the sheet's row limit is exit 2 before the download (changelog: refused up front)", async () => {
    const { id } = await doneRun();
    store.updateRecord(emu.emu, 'runs', id, { total_results: 2_000_000 });
    const r = await sq(['runs', 'download', id, '--file-format', 'xlsx'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has 2,000,000 rows and an XLSX sheet holds at most 1,048,575');
    expect((await emu.requests()).filter((q) => q.path.endsWith('/download'))).toEqual([]);
    // The emulator refuses it too.
    expect((await emu.api(`/v1/runs/${id}/download?file_format=xlsx`)).error.param).toBe('file_format');
  });

  it('the conversion takes business time per row (the emulator answers 202 with its progress meanwhile)', async () => {
    const { id, rows } = await doneRun();
    const first = await emu.api(`/v1/runs/${id}/download?file_format=jsonl`);
    expect(first).toEqual({ status: 'processing', file_format: 'jsonl', progress: 0 });
    await emu.advance(rows.length * CONVERT_MS_PER_ROW);
    expect((await emu.api(`/v1/runs/${id}/download?file_format=jsonl`)).s3).toMatch(/\.jsonl\?/);
  });
});
