// sq against the emulator: every task verb, with exact requests (multipart included) and output. In-process
// (against: the requests and output are the CLI's own), but for the --wait polls, run by the built binary.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { against } from '../helpers/bin.js';
import { BIN } from '../helpers/cli.js';
import { execa } from 'execa';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { tempDir } from '../helpers/fs.js';

const emu = useEmulator({ each: 'reset' });
const { run, calls, runAdvancing } = against(emu);
let paris: string;
let urlTasks: { id: string; url: string }[];
const dir = tempDir('sq-tasks-');
const U = (q: string) => `https://www.google.com/maps/search/${q}`;

beforeEach(() => {
  paris = emu.squidId(DEMO_SQUIDS.paris);
  urlTasks = Object.values(emu.emu.state.tasks)
    .filter((t) => t.squid === paris && t.type === 'url')
    .map((t) => ({ id: String(t.id), url: String((t.params as { url: string }).url) }));
});

describe('sq tasks', () => {
  it('list | head -n 2: stops quietly, with no "Showing N of M" hint for what the reader did not take', async () => {
    const tasks = Array.from({ length: 500 }, (_, i) => ({ url: U(`pipe-${i}`) }));
    for (let i = 0; i < 6; i++) {
      const added = await emu.api('/v1/tasks', {
        method: 'POST',
        body: { squid: paris, tasks: tasks.map((t) => ({ url: `${t.url}-${i}` })) },
      });
      expect(added).toBeTruthy();
    }
    const cmd = `"${process.execPath}" "${BIN}" tasks list --squid "Paris restaurants" --limit 5000 | head -n 2; echo "rc=\${PIPESTATUS[0]}" >&2`;
    const r = await execa('bash', ['--norc', '--noprofile', '-c', cmd], {
      env: { ...emu.env(), PATH: process.env.PATH ?? '', NO_COLOR: '1' },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    expect(r.stdout.split('\n')).toHaveLength(2);
    expect(r.stderr).toBe('rc=0');
  }, 90_000);

  // `type` is a detail level (api-reference), not a filter: the squid's params tasks are listed too.
  it('list --squid <name> --type url sends squid hash and type, and lists every task of the squid', async () => {
    const r = await run('tasks', 'list', '--squid', 'Paris restaurants', '--type', 'url', '--fields', 'id,params.url');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('id\tparams.url');
    const all = Object.values(emu.emu.state.tasks).filter((t) => t.squid === paris);
    expect(all.length).toBeGreaterThan(urlTasks.length);
    expect(
      lines
        .slice(1)
        .map((l) => l.split('\t')[0])
        .sort(),
    ).toEqual(all.map((t) => String(t.id)).sort());
    for (const t of urlTasks) expect(lines).toContain(`${t.id}\t${t.url}`);
    expect((await calls()).at(-1)).toEqual({
      method: 'GET',
      path: '/v1/tasks',
      query: { squid: paris, type: 'url', page: '1', limit: '30' },
      body: null,
    });
  });

  it('get tolerates hash_value and an integer module, adding id', async () => {
    const t = urlTasks[0];
    const r = await run('tasks', 'get', t.id, '--json');
    expect(r.code).toBe(0);
    const rec = JSON.parse(r.stdout);
    expect(rec.id).toBe(t.id);
    expect(rec.hash_value).toBe(t.id);
    expect(typeof rec.module).toBe('number');
    expect(await calls()).toEqual([{ method: 'GET', path: `/v1/tasks/${t.id}`, query: {}, body: null }]);
    const tsv = await run('tasks', 'get', t.id, '--fields', 'id,status.status');
    expect(tsv.stdout).toBe(`id\tstatus.status\n${t.id}\tcompleted\n`);
  });

  it('add sends one {url} per value and reports duplicates; the new ids are printed', async () => {
    const r = await run(
      'tasks',
      'add',
      '--squid',
      paris,
      U('a+paris'),
      U('a+paris'),
      urlTasks[0].url,
      '--fields',
      'id',
    );
    expect(r.code).toBe(0);
    expect(await calls()).toEqual([
      {
        method: 'POST',
        path: '/v1/tasks',
        query: {},
        body: { squid: paris, tasks: [{ url: U('a+paris') }, { url: U('a+paris') }, { url: urlTasks[0].url }] },
      },
    ]);
    const ids = r.stdout.trim().split('\n').slice(1);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(r.stderr).toContain('Added 1 task to squid');
    expect(r.stderr).toContain('2 duplicates skipped');
  });

  it('add --file reads a JSON array of objects and strings; --json prints the API answer', async () => {
    const f = join(dir, 'tasks.json');
    writeFileSync(f, JSON.stringify([U('b+paris'), { city: 'Paris', country: 'France' }]));
    const r = await run('tasks', 'add', '--squid', paris, '--file', f, '--json');
    expect(r.code).toBe(0);
    expect((await calls()).at(-1)!.body).toEqual({
      squid: paris,
      tasks: [{ url: U('b+paris') }, { city: 'Paris', country: 'France' }],
    });
    const res = JSON.parse(r.stdout);
    expect(res.duplicated_count).toBe(0);
    expect(res.tasks.map((t: { params: unknown }) => t.params)).toEqual([
      { url: U('b+paris') },
      { city: 'Paris', country: 'France' },
    ]);
    expect(res.tasks[0].module).toBe(DEMO_CRAWLERS.googleMaps);
  });

  it('upload sends multipart file+squid; without --wait prints the upload id', async () => {
    const f = join(dir, 'up.csv');
    writeFileSync(f, `url\n${U('c+paris')}\n`);
    const r = await run('tasks', 'upload', '--squid', 'Paris restaurants', f, '--fields', 'id,object');
    expect(r.code).toBe(0);
    const up = (await emu.requests()).find((q) => q.method === 'POST')!;
    expect(up.path).toBe('/v1/tasks/upload');
    expect(String(up.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(up.body).toMatchObject({ squid: paris });
    const [, line] = r.stdout.trim().split('\n');
    const [id, object] = line.split('\t');
    expect(object).toBe('task_upload');
    const st = await run('tasks', 'upload-status', id, '--json');
    expect(st.code).toBe(0);
    expect(JSON.parse(st.stdout)).toEqual({ id, object: 'task_upload', state: 'PENDING', meta: null });
    expect((await calls()).at(-1)).toEqual({ method: 'GET', path: `/v1/tasks/upload/${id}`, query: {}, body: null });
  });

  it('upload --wait polls through 202s until SUCCESS and prints the counters', async () => {
    const f = join(dir, 'wait.csv');
    writeFileSync(f, `url\n${U('d+paris')}\n${urlTasks[0].url}\nnot-a-maps-url\n`);
    const r = await runAdvancing([
      'tasks',
      'upload',
      '--squid',
      paris,
      f,
      '--wait',
      '--fields',
      'state,meta.inserted,meta.duplicates,meta.invalid,meta.valid',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('state\tmeta.inserted\tmeta.duplicates\tmeta.invalid\tmeta.valid\nSUCCESS\t1\t1\t1\t2\n');
    const polls = (await emu.requests()).filter((q) => q.path.startsWith('/v1/tasks/upload/'));
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(polls.at(-1)!.status).toBe(200);
    expect(polls.some((q) => q.status === 202)).toBe(true);
  });

  it('upload --wait exits 1 when the upload ends in FAILURE', async () => {
    emu.expectWrites('POST /v1/tasks/upload');
    const f = join(dir, 'bad.csv');
    writeFileSync(f, 'url\nnot-a-maps-url\n');
    const r = await runAdvancing(['tasks', 'upload', '--squid', paris, f, '--wait', '--fields', 'state']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('state\nFAILURE\n');
    expect(r.stderr).toContain('failed');
  });

  it('delete --yes sends DELETE and prints the answer', async () => {
    const t = urlTasks[0];
    const r = await run('tasks', 'delete', t.id, '--yes', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: t.id, object: 'task', deleted: true });
    expect(await calls()).toEqual([{ method: 'DELETE', path: `/v1/tasks/${t.id}`, query: {}, body: null }]);
  });
});
