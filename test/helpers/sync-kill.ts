// kill -9 at random points of a `sq results sync`, then the same sync again, compared with an uninterrupted one: shared
// by the SQLite and PGlite test (npm test) and the distribution's PostgreSQL (npm run test:system).
import { execa, type ResultPromise } from 'execa';
import { expect } from 'vitest';
import { BIN, binCacheDir, sq } from './cli.js';
import { tempDir } from './fs.js';
import { waitFor } from './wait.js';
import type { TestEmulator } from './emulator.js';

export interface KillCase {
  emu: TestEmulator;
  squidName: string;
  rows: number;
  tries: number;
  /** A fresh target for a table of this name. */
  where(name: string): { to: string; table: string };
  /** The table's rows in a stable order, without sq_synced_at. */
  read(t: { to: string; table: string }): Promise<Record<string, unknown>[]>;
  /** The rows sq_sync_runs records for the table (0 when none): after a kill, exactly the rows in the table. */
  cursorRows(t: { to: string; table: string }): Promise<number>;
}

export async function killAndRerun(c: KillCase): Promise<{ killed: number }> {
  const env = { ...c.emu.env(), SQ_CACHE_DIR: binCacheDir() };
  const args = (t: { to: string; table: string }) => [
    'results',
    'sync',
    '--squid',
    c.squidName,
    '--to',
    t.to,
    '--table',
    t.table,
    '--json',
  ];
  // The uninterrupted sync and the last rerun are not about the process: in-process (a few ms of CPU against ~0.2 s
  // for a start of the binary), paced on the real clock as the binary is. The kills are of the binary.
  const syncIn = (t: { to: string; table: string }) =>
    sq(args(t), { env: { ...env, NO_COLOR: '1' }, clock: 'real' }).then((r) => ({ ...r, stdout: r.stdout.trim() }));
  // A count of the emulator's log, read in this process without copying it (polled every 25 ms while a sync runs).
  const resultReads = () => c.emu.log.list().filter((r) => r.method === 'GET' && r.path === '/v1/results').length;

  const whole = c.where('whole');
  const base = await syncIn(whole);
  expect(base.code, base.stderr).toBe(0);
  expect(JSON.parse(base.stdout)).toMatchObject({ runs_synced: 1, inserted: c.rows });
  const want = await c.read(whole);
  expect(want).toHaveLength(c.rows);

  // The kills follow one another in one table: each rerun continues the sync the kill before it stopped, and is killed
  // in turn, at a random page of what is left (0: while it starts), then a random moment in that page's fetch, write
  // or commit. One sync's worth of pages for all the tries (a fresh table per try read the whole run again each time),
  // and a continuing sync is killed too, not only a first one.
  const pages = Math.ceil(c.rows / 100);
  const t = c.where('killed');
  const noTable = (err: unknown) => {
    if (!/no such table|does not exist/.test(String(err))) throw err;
  };
  const cursorRows = () => c.cursorRows(t).catch((e) => (noTable(e), 0));
  let killed = 0;
  for (let i = 0; i < c.tries; i++) {
    const left = pages - Math.ceil((await cursorRows()) / 100);
    const page = Math.floor(Math.random() * Math.max(1, Math.floor(left / (c.tries - i + 1))));
    const before = resultReads();
    const child = execa(process.execPath, [BIN, ...args(t)], { env, extendEnv: false, reject: false });
    let ended = false;
    void child.finally(() => (ended = true));
    await waitFor(
      () => ended || resultReads() - before >= page,
      (ok) => ok,
      `page ${page} of try ${i}`,
      120_000,
    );
    await new Promise((r) => setTimeout(r, Math.random() * 80));
    child.kill('SIGKILL');
    const r = await child;
    if (r.signal === 'SIGKILL') killed++;
    // Each page was committed with its cursor, or neither was: the table holds exactly the rows the cursor counts.
    // (A kill before the table was made leaves no table: no rows, no cursor.)
    const rows = (await c.read(t).catch((e) => (noTable(e), []))).length;
    expect(rows, `try ${i}: the rows a kill ${page} pages into the sync left, against the cursor`).toBe(
      await cursorRows(),
    );
  }
  const again = await syncIn(t);
  expect(again.code, again.stderr).toBe(0);
  const got = await c.read(t);
  expect(got.length, `after ${killed} kills`).toBe(c.rows);
  expect(got).toEqual(want);
  return { killed };
}

/** `sq results sync ARGS` as a process of the built binary against `emu`, its output collected as it comes. */
export function startSync(
  emu: TestEmulator,
  args: string[],
): { child: ResultPromise; err: () => string; out: () => string } {
  const child = execa(process.execPath, [BIN, 'results', 'sync', ...args], {
    env: { ...emu.env(), SQ_CACHE_DIR: binCacheDir(), SQ_CONFIG_DIR: tempDir('sq-cfg-'), NO_COLOR: '1' },
    extendEnv: false,
    reject: false,
  });
  let err = '';
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  child.stdout!.on('data', (d: Buffer) => (out += d));
  return { child, err: () => err, out: () => out };
}
