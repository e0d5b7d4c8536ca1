// Every paged list reads pages through pages(): an answer that is not a page is an error naming the page and the
// HTTP status (exit 1), never an empty or shorter list, and never a misleading "not found".
import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'clear' });
let runId: string;

beforeAll(async () => {
  const squid = emu.squidId(DEMO_SQUIDS.paris);
  runId = (await emu.api(`/v1/runs?squid=${squid}&limit=1`)).data[0].id;
});

const NOT_A_PAGE =
  'page 1 (HTTP 200): expected a page of records, got an object without data — stopping after 0 records';

describe('a 200 answer that is not a page', () => {
  it.each([
    ['squids list --all', () => ['squids', 'list', '--all'], '/v1/squids'],
    ['crawlers list', () => ['crawlers', 'list'], '/v1/crawlers'],
    ['runs tasks --all', () => ['runs', 'tasks', runId, '--all'], '/v1/runs/'],
    ['api --paginate', () => ['api', '/v1/squids', '--paginate'], '/v1/squids'],
    // Resolving a name reads the squid list: a broken page is not "no squid by that name" (exit 3).
    ['runs list --squid <name>', () => ['runs', 'list', '--squid', DEMO_SQUIDS.paris], '/v1/squids'],
  ])('%s exits 1 naming the page and status', async (_label, args, prefix) => {
    await emu.faults([{ method: 'GET', path: prefix, action: 'status', status: 200, body: {}, count: 1 }]);
    const r = await sq(args(), { env: emu.env() });
    const path = prefix === '/v1/runs/' ? `/v1/runs/${runId}/tasks` : prefix;
    expect(r.stderr).toBe(`error: GET ${path} ${NOT_A_PAGE}\n`);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
  });
});

describe('a 2xx answer to a write that lacks what the endpoint promises', () => {
  it('runs start: no run id is "may have reached the server" (non-zero, recent runs listed), never "Started run "', async () => {
    emu.expectWrites('POST /v1/runs');
    await emu.faults([
      { method: 'POST', path: '/v1/runs', action: 'status', status: 201, body: { detail: 'ok' }, count: 1 },
    ]);
    const r = await sq(['runs', 'start', '--squid', DEMO_SQUIDS.paris], { env: emu.env() });
    expect(r.code).not.toBe(0);
    // {"detail": "ok"} is an error message, no run (issue 33, E9): the generic check names it before the id check.
    expect(r.stderr).toContain(
      'the API answered POST /v1/runs with HTTP 201, but the answer is an error message, not a document: "ok"',
    );
    expect(r.stderr).toContain('may have reached the server');
    expect(r.stderr).not.toContain('Started run');
  });

  it('tasks add: neither tasks nor duplicated_count is an error, never "Added 0 tasks"', async () => {
    emu.expectWrites('POST /v1/tasks');
    await emu.faults([
      { method: 'POST', path: '/v1/tasks', action: 'status', status: 201, body: { detail: 'ok' }, count: 1 },
    ]);
    const r = await sq(
      [
        'tasks',
        'add',
        '--squid',
        DEMO_SQUIDS.paris,
        'https://www.google.com/maps/search/a',
        'https://www.google.com/maps/search/b',
      ],
      { env: emu.env() },
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'the API answered POST /v1/tasks with HTTP 201, but the answer is an error message, not a document: "ok"',
    );
    expect(r.stderr + r.stdout).not.toContain('Added 0');
  });
});

// Issue 25 item 2: a listing whose signals disagree about a full page stops with exit 1, never exit 0 with a warning.
describe('a full page whose paging signals disagree', () => {
  it('results list --all to stdout: exit 1 naming the page and the signals, the pages read so far printed', async () => {
    const run = (await emu.control('POST', '/_emulator/generate', {
      squid: emu.squidId(DEMO_SQUIDS.headphones),
      results: 250,
    })) as { id: string };
    await emu.faults([{ path: '/v1/results', action: 'envelope', body: { next: null, total_pages: 1 } }]);
    const r = await sq(['results', 'list', '--run', run.id, '--all', '--format', 'ndjson'], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toHaveLength(200);
    expect(JSON.parse(r.stderr).error.message).toBe(
      'GET /v1/results page 2 (HTTP 200): the page is full and total_results says 250, but next ' +
        "is null and total_pages says 1: the listing's signals disagree — stopping after 200 of 250 records",
    );
  });
});

describe('--page reads exactly that API page (cli/paging.ts)', () => {
  it('a short page whose envelope says more follow is shown as the API gave it: not an error, not topped up from the next page', async () => {
    const all = (await emu.api('/v1/squids?limit=100')).data as { id: string }[];
    // Page 1 (limit 3) with one row and a next link: a server may answer a short page before the end.
    await emu.faults([
      {
        method: 'GET',
        path: '/v1/squids',
        action: 'status',
        status: 200,
        count: 1,
        body: {
          total_results: all.length,
          limit: 3,
          page: 1,
          total_pages: 2,
          next: 'http://127.0.0.1/v1/squids?page=2&limit=3',
          data: all.slice(0, 1),
        },
      },
    ]);
    await emu.clearRequests();
    const r = await sq(['squids', 'list', '--page', '1', '--limit', '3', '--json'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((s: { id: string }) => s.id)).toEqual([all[0].id]);
    expect((await emu.requests('GET')).map((q) => q.path)).toEqual(['/v1/squids']);
  });
});
