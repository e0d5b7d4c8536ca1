// In-process: task verb validation (exit 2, zero requests), file parsing, confirmation, --dry-run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { normalizeTask, parseTaskFile } from '../../src/api/tasks.js';
import { tempDir } from '../helpers/fs.js';

const emu = useEmulator({ each: 'reset' });
let paris: string;
const dir = tempDir('sq-tasks-unit-');
beforeEach(() => {
  paris = emu.squidId(DEMO_SQUIDS.paris);
});

describe('validation happens before any request', () => {
  const badJson = join(dir, 'bad.json');
  writeFileSync(badJson, '[{"url": ');
  const badElem = join(dir, 'elem.json');
  writeFileSync(badElem, '[true]');
  const emptyCsv = join(dir, 'empty.csv');
  writeFileSync(emptyCsv, '');
  it.each([
    [['tasks', 'list'], '--squid is required'],
    [['tasks', 'list', '--squid', 'Paris restaurants', '--type', 'all'], "argument 'all' is invalid"],
    [['tasks', 'list', '--squid', 'Paris restaurants', '--limit', '0'], '--limit must be an integer'],
    [['tasks', 'list', '--squid', 'Paris restaurants', '--page', '0'], '--page must be an integer'],
    [['tasks', 'add', '--squid', 'Paris restaurants'], 'no tasks given'],
    [['tasks', 'add', 'https://x'], '--squid is required'],
    [['tasks', 'add', '--squid', 'Paris restaurants', '--file', join(dir, 'missing.txt')], '--file: cannot read'],
    [['tasks', 'add', '--squid', 'Paris restaurants', '--file', badJson], 'is not valid JSON'],
    [
      ['tasks', 'add', '--squid', 'Paris restaurants', '--file', badElem],
      'element 1 of the JSON array must be an object or a string',
    ],
    [['tasks', 'add', '--squid', 'Paris restaurants', '--key', ' ', 'x'], '--key must be a non-empty value'],
    [['tasks', 'upload', '--squid', 'Paris restaurants', join(dir, 'missing.csv')], 'cannot read'],
    [['tasks', 'upload', '--squid', 'Paris restaurants', emptyCsv], 'is empty'],
    [
      ['tasks', 'upload', '--squid', 'Paris restaurants', emptyCsv, '--timeout', '5m'],
      '--timeout only applies with --wait',
    ],
    [
      ['tasks', 'upload', '--squid', 'Paris restaurants', emptyCsv, '--wait', '--timeout', 'soon'],
      '--timeout must be a duration',
    ],
    [['tasks', 'upload', 'x.csv'], '--squid is required'],
  ])('%j → exit 2', async (args, message) => {
    const r = await sq(args, { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await emu.requests()).toEqual([]);
  });
});

describe('task files and shapes', () => {
  it('one value per line, blank lines, CRLF and a BOM ignored', () => {
    expect(parseTaskFile('\uFEFFa\r\n\r\n b \nc', 'url')).toEqual([{ url: 'a' }, { url: 'b' }, { url: 'c' }]);
  });
  it('a JSON array mixes objects and strings', () => {
    expect(parseTaskFile(' [{"keyword":"x","city":"Paris"}, "y"]', 'keyword')).toEqual([
      { keyword: 'x', city: 'Paris' },
      { keyword: 'y' },
    ]);
  });
  it.each([
    [
      { hash_value: 'h1', module: 7 },
      { id: 'h1', hash_value: 'h1', module: 7 },
    ],
    [
      { id: 'i1', module: 'abc' },
      { id: 'i1', module: 'abc' },
    ],
    [null, { id: null }],
  ])('normalizeTask(%j)', (input, expected) => {
    expect(normalizeTask(input)).toEqual(expected);
  });

  it('--file - reads values from stdin; --key names the parameter', async () => {
    const r = await sq(
      ['tasks', 'add', '--squid', paris, '--key', 'keyword', '--file', '-', 'tacos', '--dry-run', '--json'],
      {
        env: emu.env(),
        stdin: 'pizza\nsushi\n',
      },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      dry_run: true,
      requests: [
        {
          method: 'POST',
          path: '/v1/tasks',
          body: { squid: paris, tasks: [{ keyword: 'tacos' }, { keyword: 'pizza' }, { keyword: 'sushi' }] },
        },
      ],
    });
    expect(await emu.requests()).toEqual([]);
  });
});

describe('confirmation and --dry-run', () => {
  const task = 'ffffffffffffffffffffffffffffffff';
  it('delete without --yes and without a terminal: exit 2, zero requests', async () => {
    const r = await sq(['tasks', 'delete', task], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    expect(await emu.requests()).toEqual([]);
  });

  it('delete --dry-run prints the request and sends nothing', async () => {
    const r = await sq(['tasks', 'delete', task, '--dry-run'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`DELETE /v1/tasks/${task}\n`);
    expect(await emu.requests()).toEqual([]);
  });

  it('upload --dry-run names the file and sends nothing', async () => {
    const f = join(dir, 'ok.csv');
    const content = 'url\nhttps://www.google.com/maps/search/x\n';
    writeFileSync(f, content);
    const r = await sq(['tasks', 'upload', '--squid', paris, f, '--dry-run', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      dry_run: true,
      requests: [
        {
          method: 'POST',
          path: '/v1/tasks/upload',
          body: { squid: paris, file: `<ok.csv, ${Buffer.byteLength(content)} bytes>` },
        },
      ],
    });
    expect(await emu.requests()).toEqual([]);
  });

  it('deleting an unknown task exits 3', async () => {
    emu.expectWrites('DELETE /v1/tasks/*');
    const r = await sq(['tasks', 'delete', task, '--yes'], { env: emu.env() });
    expect(r.code).toBe(3);
  });
});

describe('large task lists go in batches', () => {
  const url = (i: number) => `https://www.google.com/maps/search/cafe+${i}`;

  it('1,200 tasks are sent as 500 + 500 + 200 and reported as one answer', async () => {
    const file = join(dir, 'many.txt');
    writeFileSync(file, Array.from({ length: 1200 }, (_, i) => url(i)).join('\n'));
    const r = await sq(['tasks', 'add', '--squid', paris, '--file', file, '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { duplicated_count: number; tasks: unknown[] };
    expect(out.duplicated_count).toBe(0);
    expect(out.tasks).toHaveLength(1200);
    const posts = (await emu.requests()).filter((q) => q.method === 'POST' && q.path === '/v1/tasks');
    expect(posts.map((q) => (q.body as { tasks: unknown[] }).tasks.length)).toEqual([500, 500, 200]);
  });

  it('a later batch refused: the earlier ones stay, exit 8 with a report, and a rerun adds the rest', async () => {
    emu.expectWrites('POST /v1/tasks');
    const file = join(dir, 'partly-bad.txt');
    const lines = Array.from({ length: 600 }, (_, i) => url(i));
    lines[550] = 'https://example.com/not-a-maps-url';
    writeFileSync(file, lines.join('\n'));
    const r = await sq(['tasks', 'add', '--squid', paris, '--file', file], { env: emu.env() });
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('adding tasks stopped at request 2 of 2');
    expect(r.stderr).toContain('The first 500 of 600 tasks were accepted (500 new, 0 duplicates)');
    const listed = await emu.api(`/v1/tasks?squid=${paris}&limit=1`);
    expect((listed as { total_results: number }).total_results).toBe(3 + 500);

    lines[550] = url(550);
    writeFileSync(file, lines.join('\n'));
    const again = await sq(['tasks', 'add', '--squid', paris, '--file', file, '--json'], { env: emu.env() });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).duplicated_count).toBe(500);
  });

  it('--dry-run shows every batch, in the same document shape as one request', async () => {
    const file = join(dir, 'dry.txt');
    writeFileSync(file, Array.from({ length: 501 }, (_, i) => url(i)).join('\n'));
    const r = await sq(['tasks', 'add', '--squid', paris, '--file', file, '--dry-run', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    const planned = JSON.parse(r.stdout) as {
      dry_run: boolean;
      requests: { method: string; path: string; body: { tasks: unknown[] } }[];
    };
    expect(Object.keys(planned).sort()).toEqual(['dry_run', 'requests']);
    expect(planned.dry_run).toBe(true);
    expect(planned.requests.map((p) => [p.method, p.path, p.body.tasks.length])).toEqual([
      ['POST', '/v1/tasks', 500],
      ['POST', '/v1/tasks', 1],
    ]);
    // One request: the same keys, a list of one.
    writeFileSync(file, url(0));
    const one = JSON.parse(
      (await sq(['tasks', 'add', '--squid', paris, '--file', file, '--dry-run', '--json'], { env: emu.env() })).stdout,
    ) as typeof planned;
    expect(Object.keys(one).sort()).toEqual(['dry_run', 'requests']);
    expect(one.requests.map((p) => p.body.tasks.length)).toEqual([1]);
    // NDJSON: one request per line, whatever the count.
    writeFileSync(file, Array.from({ length: 501 }, (_, i) => url(i)).join('\n'));
    const nd = await sq(['tasks', 'add', '--squid', paris, '--file', file, '--dry-run', '--format', 'ndjson'], {
      env: emu.env(),
    });
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { dry_run: boolean; body: { tasks: unknown[] } })
        .map((l) => [l.dry_run, l.body.tasks.length]),
    ).toEqual([
      [true, 500],
      [true, 1],
    ]);
    expect(await emu.requests()).toEqual([]);
  });
});

describe('tasks add', () => {
  it('counts added and duplicate tasks on stderr beside the rows; with --json they are in the answer, and stderr stays empty', async () => {
    emu.expectWrites('POST /v1/tasks');
    const url = 'https://www.google.com/maps/search/stderr+counts';
    const tsv = await sq(['tasks', 'add', '--squid', paris, url, url, '--format', 'tsv'], { env: emu.env() });
    expect(tsv.code).toBe(0);
    expect(tsv.stderr).toBe(`Added 1 task to squid ${paris}; 1 duplicate skipped.\n`);
    const json = await sq(['tasks', 'add', '--squid', paris, url, '--json'], { env: emu.env() });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ duplicated_count: 1, tasks: [] });
    expect(json.stderr).toBe('');
  });
});
