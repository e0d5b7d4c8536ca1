// sq results sync --follow as a user runs it: a run that finishes after it started is synced at the next poll (or at
// once on a run.done event to --from-webhook), a stop signal while it waits is exit 0, and the Postgres password of
// --to is in none of its output nor in its process title (ps).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { BIN, binCacheDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';
import { sqliteQuery, usePglite } from '../helpers/sync-db.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const pg = usePglite();

function start(args: string[]): { child: ResultPromise; err: () => string; out: () => string } {
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

const runPolls = async () => (await emu.requests('GET')).filter((r) => r.path === '/v1/runs').length;

describe('--follow', () => {
  it('syncs a run that finishes after it began, at the next poll; SIGINT while waiting exits 0', async () => {
    const path = join(tempDir('sq-follow-'), 'r.db');
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const s = start([
      '--squid',
      DEMO_SQUIDS.paris,
      '--to',
      `sqlite:${path}`,
      '--table',
      'places',
      '--follow',
      '--interval',
      '5s',
    ]);
    await waitFor(
      s.err,
      (e) => e.includes("Waiting for the squid's next done run (2 synced so far"),
      'the first pass',
      60_000,
    );
    const polls = await runPolls();
    const run = (await emu.control('POST', '/_emulator/generate', { squid, results: 9 })) as { id: string };
    await waitFor(s.err, (e) => e.includes(`run ${run.id}: 9 rows (9 inserted`), 'the new run synced', 60_000);
    // Picked up by the first poll after it was made: one more listing of the squid's runs, not several.
    expect((await runPolls()) - polls).toBe(1);
    await waitFor(s.err, (e) => e.includes('(3 synced so far'), 'waiting again', 30_000);
    s.child.kill('SIGINT');
    const r = await s.child;
    expect(r.exitCode).toBe(0);
    expect(s.err()).toMatch(/✓ 3 runs synced into places \(sqlite:.*\): 41 inserted, 0 updated, 0 unchanged/);
    expect(sqliteQuery(path, `SELECT count(*) AS n FROM places WHERE sq_run_id = '${run.id}'`)[0].n).toBe(9);
  }, 120_000);

  it('--from-webhook: a run.done event for the squid syncs at once; the password is in no output nor in ps', async () => {
    const secret = 'Pa55-w0rd-in-url';
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const s = start([
      '--squid',
      DEMO_SQUIDS.paris,
      '--to',
      pg.url(secret),
      '--table',
      'hooked',
      '--follow',
      '--interval',
      '1h',
      '--from-webhook',
      '0',
      '-v',
    ]);
    const url = (
      await waitFor(s.err, (e) => /Waiting for run\.done events on (http:\S+)/.test(e), 'the receiver', 60_000)
    ).match(/events on (http:\S+)/)![1];
    await waitFor(s.err, (e) => e.includes('(2 synced so far'), 'the first pass', 60_000);
    const cmdline = readFileSync(`/proc/${s.child.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain(secret);
    expect(cmdline).toContain('--from-webhook');
    const run = (await emu.control('POST', '/_emulator/generate', { squid, results: 4 })) as { id: string };
    const now = new Date().toISOString().replace(/-/g, '/').replace('T', ' ').slice(0, 19);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: run.id,
        object: 'run',
        event: 'run.done',
        squid: { id: squid, name: DEMO_SQUIDS.paris },
        timestamp: now,
      }),
    });
    expect(res.status).toBe(200);
    await waitFor(s.err, (e) => e.includes(`run ${run.id}: 4 rows (4 inserted`), 'the run synced on the event', 60_000);
    s.child.kill('SIGTERM');
    const r = await s.child;
    expect(r.exitCode).toBe(0);
    expect(s.err() + s.out()).not.toContain(secret);
    expect(s.err()).toContain('postgres://postgres:********@127.0.0.1');
    expect(
      (await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM hooked WHERE sq_run_id = '${run.id}'`))[0].n,
    ).toBe(4);
  }, 120_000);
});
