import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RUN_TIMING } from '../../src/emulator/engine.js';
import { DEMO_BALANCE, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';

let e: TestEmu;
let events: [string, string][];
let exported: number[];
let consumed: number;
beforeEach(async () => {
  e = await startTestEmulator();
  events = [];
  exported = [];
  consumed = 0;
  e.emu.events.on('run.event', (run, ev) => events.push([String(run.id), ev]));
  e.emu.events.on('run.exported', (_run: unknown, rows: unknown[]) => exported.push(rows.length));
  e.emu.events.on('credits.consumed', (n: number) => (consumed += n));
});
afterEach(async () => {
  await e.close();
});

async function status(run: string): Promise<Record<string, any>> {
  return (await e.api('GET', `/v1/runs/${run}`)).body;
}

describe('runs engine', () => {
  it('moves pending → running → uploading → done over the virtual clock, with rows, credits and events', async () => {
    const squid = e.squidId('Paris restaurants');
    const start = await e.api('POST', '/v1/runs', { squid });
    expect(start.status).toBe(200);
    const run = start.body.id;
    expect(start.body).toMatchObject({
      object: 'run',
      squid,
      status: 'pending',
      is_done: false,
      export_done: null,
      duration: 0,
      email_done: null,
      origin: 'user',
    });
    expect(typeof start.body.duration).toBe('number');
    expect((await status(run)).status).toBe('pending');
    await e.advance(RUN_TIMING.startMs);
    expect((await status(run)).status).toBe('running');
    expect(events).toEqual([[run, 'run.running']]);
    await e.advance(RUN_TIMING.taskMs);
    const mid = await e.api('GET', `/v1/runs/${run}/stats`);
    expect(mid.body).toMatchObject({
      total_tasks: 3,
      total_tasks_done: 1,
      total_tasks_left: 2,
      percent_done: '33%',
      is_done: false,
    });
    expect(mid.body.results_done).toBeGreaterThanOrEqual(3);
    await e.advance(2 * RUN_TIMING.taskMs);
    expect((await status(run)).status).toBe('uploading');
    await e.advance(RUN_TIMING.finishMs);
    const done = await status(run);
    expect(done).toMatchObject({ status: 'done', is_done: true, export_done: true, done_reason: 'tasks_done' });
    expect(done.duration).toMatch(/^\d+:\d\d:\d\d\.\d{6}$/);
    expect(done.total_results).toBeGreaterThanOrEqual(9);
    expect(done.total_results).toBeLessThanOrEqual(24);
    expect(done.credit_used).toBe(done.total_results * 2);
    expect(consumed).toBe(done.credit_used);
    expect((await e.api('GET', '/v1/user/balance')).body.consumed).toBe(DEMO_BALANCE.consumed + done.credit_used);
    expect(events).toEqual([
      [run, 'run.running'],
      [run, 'run.done'],
    ]);
    expect(exported).toEqual([done.total_results]);

    const results = await e.api('GET', `/v1/results?run=${run}&limit=100`);
    expect(results.body.total_results).toBe(done.total_results);
    const row = results.body.data[0];
    expect(row).toMatchObject({ object: 'result', squid, run });
    expect(row.scraping_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(typeof row.name).toBe('string');
    expect(typeof row.score).toBe('number');
    const stats = await e.api('GET', `/v1/runs/${run}/stats`);
    expect(stats.body).toMatchObject({
      percent_done: '100%',
      total_tasks_done: 3,
      total_tasks_left: 0,
      is_done: true,
      current_task: '',
    });
    const credits = await e.api('GET', `/v1/runs/${run}/credits`);
    expect(credits.body).toMatchObject({
      run_id: run,
      total_credits: done.credit_used,
      total_results: done.total_results,
      rates: { credits_per_row: 2 },
    });
    const rts = await e.api('GET', `/v1/runtasks?run=${run}`);
    const rts2 = await e.api('GET', `/v1/runs/${run}/tasks`);
    expect(rts.body.data).toEqual(rts2.body.data);
    expect(rts.body.data.map((t: { status: string }) => t.status)).toEqual(['completed', 'completed', 'completed']);
    const list = await e.api('GET', `/v1/runs?squid=${squid}`);
    expect(list.body.data[0].id).toBe(run);
    expect(typeof list.body.data[0].duration).toBe('number');
    expect(list.body.total_results).toBe(3);
  });

  it('produces the same rows for the same tasks (deterministic)', async () => {
    const squid = e.squidId('Paris restaurants');
    const r1 = (await e.api('POST', '/v1/runs', { squid })).body.id;
    await e.advance(10_000);
    const r2 = (await e.api('POST', '/v1/runs', { squid })).body.id;
    await e.advance(10_000);
    const strip = (rows: Record<string, unknown>[]) =>
      rows.map(({ id: _i, run: _r, scraping_time: _s, ...rest }) => rest);
    const a = (await e.api('GET', `/v1/results?run=${r1}&limit=100`)).body.data;
    const b = (await e.api('GET', `/v1/results?run=${r2}&limit=100`)).body.data;
    expect(a.length).toBeGreaterThan(0);
    expect(strip(b)).toEqual(strip(a));
  });

  it('pauses when the linked account hit its daily limit, then resumes and finishes', async () => {
    const squid = e.squidId(DEMO_SQUIDS.leads);
    const run = (await e.api('POST', '/v1/runs', { squid })).body.id;
    await e.advance(RUN_TIMING.startMs + RUN_TIMING.taskMs);
    const paused = await status(run);
    expect(paused).toMatchObject({ status: 'paused', done_reason: 'no_account_available', is_done: false });
    expect(events).toEqual([
      [run, 'run.running'],
      [run, 'run.paused'],
    ]);
    expect((await e.api('GET', `/v1/runs/${run}/stats`)).body.eta).toBe('∞');
    expect((await e.api('POST', '/v1/runs', { squid })).status).toBe(400);
    await e.advance(RUN_TIMING.pauseMs);
    expect((await status(run)).status).toBe('running');
    await e.advance(2 * RUN_TIMING.taskMs + RUN_TIMING.finishMs);
    expect(await status(run)).toMatchObject({ status: 'done', export_done: true });
    expect(events.map((x) => x[1])).toEqual(['run.running', 'run.paused', 'run.running', 'run.done']);
    expect((await e.api('GET', `/v1/results?run=${run}`)).body.total_results).toBeGreaterThanOrEqual(6);
  });

  it('ends in error for a crawler with issues', async () => {
    const squid = e.squidId('Job board watch');
    const run = (await e.api('POST', '/v1/runs', { squid })).body.id;
    await e.advance(RUN_TIMING.startMs + RUN_TIMING.taskMs);
    expect(await status(run)).toMatchObject({ status: 'error', is_done: true, done_reason: 'error' });
    expect(events).toEqual([
      [run, 'run.running'],
      [run, 'run.error'],
    ]);
    expect((await e.api('GET', `/v1/runs/${run}/download`)).status).toBe(404);
    const rt = (await e.api('GET', `/v1/runtasks?run=${run}`)).body.data[0];
    expect(rt.status).toBe('error');
    const task = (await e.api('GET', `/v1/tasks/${rt.task}`)).body;
    expect(task.status).toMatchObject({ status: 'error', has_errors: true, is_done: true });
  });

  it('ends in error when a task URL contains "fail"', async () => {
    const squid = e.squidId('Lyon bakeries');
    const add = await e.api('POST', '/v1/tasks', {
      squid,
      tasks: [{ url: 'https://www.google.com/maps/search/fail' }],
    });
    expect(add.status).toBe(200);
    const run = (await e.api('POST', '/v1/runs', { squid })).body.id;
    await e.advance(5_000);
    expect((await status(run)).status).toBe('error');
  });

  it('aborts: uploading with done_reason aborted, then aborted with partial results exported', async () => {
    const squid = e.squidId('Paris restaurants');
    const run = (await e.api('POST', '/v1/runs', { squid })).body.id;
    await e.advance(RUN_TIMING.startMs + RUN_TIMING.taskMs);
    const ab = await e.api('POST', `/v1/runs/${run}/abort`);
    expect(ab.status).toBe(200);
    expect(ab.body).toMatchObject({ status: 'uploading', done_reason: 'aborted', is_done: true, export_done: null });
    expect((await e.api('GET', `/v1/runs/${run}/download`)).status).toBe(404);
    await e.advance(RUN_TIMING.finishMs);
    const after = await status(run);
    expect(after).toMatchObject({ status: 'aborted', is_done: true, export_done: true });
    const rts = (await e.api('GET', `/v1/runtasks?run=${run}`)).body.data.map((t: { status: string }) => t.status);
    expect(rts).toEqual(['completed', 'aborted', 'aborted']);
    expect((await e.api('GET', `/v1/results?run=${run}`)).body.total_results).toBe(after.total_results);
    await e.advance(60_000);
    expect((await status(run)).total_results).toBe(after.total_results);
    const again = await e.api('POST', `/v1/runs/${run}/abort`);
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ type: 'not_found_error', param: 'run_hash' });
    expect(events.map((x) => x[1])).toEqual(['run.running']);
  });

  it('refuses a second active run, a squid without tasks, and an empty balance', async () => {
    const squid = e.squidId('Paris restaurants');
    expect((await e.api('POST', '/v1/runs', { squid })).status).toBe(200);
    const second = await e.api('POST', '/v1/runs', { squid });
    expect(second.status).toBe(400);
    expect(second.body.error.message).toMatch(/already active/);
    const noTasks = await e.api('POST', '/v1/runs', { squid: e.squidId('Lyon bakeries') });
    expect(noTasks.status).toBe(400);
    expect(noTasks.body.error.message).toMatch(/NoTasksPresent/);
    await e.control('POST', '/_emulator/usage', { pct: 100 });
    const broke = await e.api('POST', '/v1/runs', { squid: e.squidId('Amazon headphones') });
    expect(broke.status).toBe(400);
    expect(broke.body.error.message).toMatch(/NotEnoughBalance/);
    expect((await e.api('POST', '/v1/runs', {})).body.error).toMatchObject({
      type: 'validation_error',
      param: 'squid',
    });
    expect((await e.api('POST', '/v1/runs', { squid: 'f'.repeat(32) })).status).toBe(404);
  });

  it('pauses with no_credits_left when credits run out mid-run, resumes once credits are back', async () => {
    const squid = e.squidId('Paris restaurants');
    const run = (await e.api('POST', '/v1/runs', { squid })).body.id;
    await e.advance(RUN_TIMING.startMs + RUN_TIMING.taskMs);
    await e.control('POST', '/_emulator/usage', { pct: 100 });
    await e.advance(RUN_TIMING.taskMs);
    expect(await status(run)).toMatchObject({ status: 'paused', done_reason: 'no_credits_left' });
    await e.control('POST', '/_emulator/usage', { pct: 0 });
    await e.advance(RUN_TIMING.creditCheckMs + 3 * RUN_TIMING.taskMs + RUN_TIMING.finishMs);
    expect((await status(run)).status).toBe('done');
  });

  it('download gives an absolute URL on this emulator, served as CSV without the key', async () => {
    const squid = e.squidId('Paris restaurants');
    const runs = (await e.api('GET', `/v1/runs?squid=${squid}`)).body.data;
    const run = runs[0].id;
    const dl = await e.api('GET', `/v1/runs/${run}/download`);
    expect(dl.status).toBe(200);
    expect(Object.keys(dl.body)).toEqual(['s3']);
    expect(dl.body.s3.startsWith(`${e.baseUrl}/_emulator/files/`)).toBe(true);
    expect(dl.body.s3).toMatch(/[?&]Expires=\d+/);
    const file = await fetch(dl.body.s3);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(file.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Paris restaurants_\d{8}_\d{4}\.csv"$/,
    );
    const lines = (await file.text()).trimEnd().split('\n');
    // Paris restaurants has a parameter task: its rows carry match_filters.
    expect(lines[0].startsWith('id,match_filters,name,address,phone,website,score,category')).toBe(true);
    expect(lines.length - 1).toBe(runs[0].total_results);
    const tampered = await fetch(
      dl.body.s3.replace(/Expires=(\d+)/, (_m: string, n: string) => `Expires=${Number(n) + 10}`),
    );
    expect(tampered.status).toBe(403);
    await e.advance(3_601_000);
    expect((await fetch(dl.body.s3)).status).toBe(403);
    const detail = await e.api('GET', `/v1/squids/${squid}`);
    expect(detail.body.download_url).toMatch(/\/_emulator\/files\//);
  });

  it('runs on a real clock too (sped up by timeScale)', async () => {
    const real = await startTestEmulator({ clock: 'real', timeScale: 100 });
    try {
      const squid = real.squidId('Paris restaurants');
      const run = (await real.api('POST', '/v1/runs', { squid })).body.id;
      let last = '';
      for (let i = 0; i < 100 && last !== 'done'; i++) {
        await new Promise((r) => setTimeout(r, 20));
        last = (await real.api('GET', `/v1/runs/${run}`)).body.status;
      }
      expect(last).toBe('done');
    } finally {
      await real.close();
    }
  });
});
