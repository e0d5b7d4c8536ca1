// Paging stop rules are pure logic over the envelope: a scripted client stands in for the server in the first part.
// The second part reads real pages from the emulator, faults injected, through the real HTTP client.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pages, items, type PageOptions } from '../../src/api/pages.js';
import { HttpClient } from '../../src/api/http.js';
import { BadPageError } from '../../src/api/http-errors.js';
import { useEmulator } from '../helpers/emulator.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

function scripted(bodies: Record<number, unknown>) {
  const asked: number[] = [];
  const http = {
    async request(_method: string, _path: string, o: { query: { page: number } }) {
      asked.push(o.query.page);
      return { status: 200, headers: {}, url: '', data: bodies[o.query.page] ?? { data: [] } };
    },
  } as unknown as HttpClient;
  return { http, asked };
}

const env = (page: number, total_pages: number, data: unknown[], extra: object = {}) => ({
  page,
  total_pages,
  total_results: 999,
  limit: 100,
  data,
  ...extra,
});

describe('pages()', () => {
  it('stops at total_pages', async () => {
    const { http, asked } = scripted({
      1: env(1, 2, [1], { total_results: 2 }),
      2: env(2, 2, [2], { total_results: 2 }),
      3: env(3, 2, [3]),
    });
    expect(await collect(items(http, '/v1/x', { pageSize: 1 }))).toEqual([1, 2]);
    expect(asked).toEqual([1, 2]);
  });

  it('stops on next: null even when total_pages says more (list-crawlers sample)', async () => {
    const { http, asked } = scripted({ 1: env(1, 2, [1], { next: null }), 2: env(2, 2, [2]) });
    expect(await collect(items(http, '/v1/x'))).toEqual([1]);
    expect(asked).toEqual([1]);
  });

  it('stops on an empty page when no counter says more follow', async () => {
    const { http, asked } = scripted({ 1: { data: [1] }, 2: { data: [] } });
    expect(await collect(items(http, '/v1/x', { pageSize: 1 }))).toEqual([1]);
    expect(asked).toEqual([1, 2]);
  });

  it('stops on a short page when no counter says more follow', async () => {
    const { http, asked } = scripted({ 1: { data: [1, 2] }, 2: { data: [3] }, 3: { data: [4] } });
    expect(await collect(items(http, '/v1/x', { pageSize: 2 }))).toEqual([1, 2, 3]);
    expect(asked).toEqual([1, 2]);
  });

  it('never loops on a server that repeats the same page number', async () => {
    const body = { page: 1, total_pages: 1e9, data: [1], next: 'http://x/next' };
    const { http, asked } = scripted(new Proxy({}, { get: () => body }) as Record<number, unknown>);
    const got = await collect(items(http, '/v1/x', { maxItems: 1000, pageSize: 1 }));
    // total_results is absent: still bounded by maxItems, each page asked once
    expect(new Set(asked).size).toBe(asked.length);
    expect(got.length).toBeLessThanOrEqual(1000);
  });

  it('never loops on counters that disagree: one page past total_results, then an error naming both (not a silent end)', async () => {
    const { http, asked } = scripted(
      new Proxy(
        {},
        {
          get: (_t, p) => ({ page: Number(p), total_pages: 1e9, total_results: 250, data: Array(100).fill(Number(p)) }),
        },
      ) as Record<number, unknown>,
    );
    const got: unknown[] = [];
    const err = await (async () => {
      for await (const p of pages(http, '/v1/x')) got.push(...p.data);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadPageError);
    expect((err as Error).message).toBe(
      'GET /v1/x page 4 (HTTP 200): the page is full and total_pages says 1000000000, but total_results ' +
        "says 250: the listing's signals disagree — stopping after 400 of 250 records",
    );
    expect(asked).toEqual([1, 2, 3, 4]);
    // the pages read before the conflict were delivered (a resumable export keeps them)
    expect(got).toHaveLength(400);
  });

  // Issue 25 item 2: a full page is never the end while any of next, total_pages or total_results says more.
  it('an understated total_results does not end a listing whose next link and total_pages lead on', async () => {
    const bodies = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [
        i + 1,
        {
          total_results: 300,
          total_pages: 10,
          page: i + 1,
          next: i < 9 ? `http://x/?page=${i + 2}` : null,
          data: Array(100).fill(i + 1),
        },
      ]),
    );
    const warnings: string[] = [];
    const { http, asked } = scripted(bodies);
    expect(await collect(items(http, '/v1/results', { onWarning: (w) => warnings.push(w) }))).toHaveLength(1000);
    expect(asked).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(warnings).toEqual([]);
  });

  it('next: null on a full page while both counters say more reads on', async () => {
    const bodies = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [
        i + 1,
        {
          total_results: 1000,
          total_pages: 10,
          page: i + 1,
          next: i === 4 || i === 9 ? null : `http://x/?page=${i + 2}`,
          data: Array(100).fill(i + 1),
        },
      ]),
    );
    const { http, asked } = scripted(bodies);
    expect(await collect(items(http, '/v1/results'))).toHaveLength(1000);
    expect(asked).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it(
    'next: null and total_pages end a full page while total_results says more: one page more is ' +
      'read, and an empty one ends it with the counters warning',
    async () => {
      const warnings: string[] = [];
      const { http, asked } = scripted({
        1: { total_results: 250, total_pages: 2, page: 1, next: 'http://x/?page=2', data: Array(100).fill(1) },
        2: { total_results: 250, total_pages: 2, page: 2, next: null, data: Array(100).fill(2) },
        3: { total_results: 250, total_pages: 2, page: 3, next: null, data: [] },
      });
      expect(await collect(items(http, '/v1/results', { onWarning: (w) => warnings.push(w) }))).toHaveLength(200);
      expect(asked).toEqual([1, 2, 3]);
      expect(warnings).toEqual([
        "GET /v1/results: total_results said 250 but 200 records arrived (the API's counters are not always exact)",
      ]);
    },
  );

  it('full pages past where next and total_pages said the end, while total_results says more: an error after one page more', async () => {
    const { http, asked } = scripted(
      new Proxy(
        {},
        {
          get: (_t, p) => ({
            page: Number(p),
            total_pages: 3,
            total_results: 1000,
            next: null,
            data: Array(100).fill(Number(p)),
          }),
        },
      ) as Record<number, unknown>,
    );
    await expect(collect(items(http, '/v1/results'))).rejects.toThrow(
      'GET /v1/results page 4 (HTTP 200): the page is full and total_results says 1000, but next ' +
        "is null and total_pages says 3: the listing's signals disagree — stopping after 400 of 1000 records",
    );
    expect(asked).toEqual([1, 2, 3, 4]);
  });

  it('a next link that leads on past every counter: read one page past them, then an error', async () => {
    const { http, asked } = scripted(
      new Proxy(
        {},
        {
          get: (_t, p) => ({
            page: Number(p),
            total_pages: 3,
            total_results: 300,
            next: 'http://x/more',
            data: Array(100).fill(Number(p)),
          }),
        },
      ) as Record<number, unknown>,
    );
    await expect(collect(items(http, '/v1/results'))).rejects.toThrow(
      'page 4 (HTTP 200): the page is full and its next link points to another page, but total_pages ' +
        "says 3 and total_results says 300: the listing's signals disagree",
    );
    expect(asked).toEqual([1, 2, 3, 4]);
  });

  it('maxItems cuts the last page and stops', async () => {
    const { http, asked } = scripted({ 1: env(1, 3, [1, 2, 3]), 2: env(2, 3, [4, 5, 6]) });
    expect(await collect(items(http, '/v1/x', { maxItems: 4, pageSize: 3 }))).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual([1, 2]);
  });

  it('reports the free-plan warning once', async () => {
    const warnings: string[] = [];
    const { http } = scripted({ 1: env(1, 2, [1], { warning: 'cap' }), 2: env(2, 2, [2], { warning: 'cap' }) });
    await collect(items(http, '/v1/x', { onWarning: (w) => warnings.push(w) }));
    expect(warnings).toEqual(['cap']);
  });

  it('a server that serves smaller pages than asked (its limit says 50) is read to the end, not cut by the loop guard', async () => {
    const bodies = Object.fromEntries(
      Array.from({ length: 9 }, (_, i) => [
        i + 1,
        { total_results: 450, limit: 50, page: i + 1, total_pages: 9, data: Array(50).fill(i + 1) },
      ]),
    );
    const { http, asked } = scripted(bodies);
    expect(await collect(items(http, '/v1/x'))).toHaveLength(450);
    expect(asked).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('accepts a last page short of total_results (list-runs sample: total 4, 2 items), saying so once', async () => {
    const warnings: string[] = [];
    const { http, asked } = scripted({ 1: { total_results: 4, limit: 50, page: 1, total_pages: 1, data: [1, 2] } });
    expect(await collect(items(http, '/v1/runs', { pageSize: 50, onWarning: (w) => warnings.push(w) }))).toEqual([
      1, 2,
    ]);
    expect(asked).toEqual([1]);
    expect(warnings).toEqual([
      "GET /v1/runs: total_results said 4 but 2 records arrived (the API's counters are not always exact)",
    ]);
  });

  it('a listing that grows while it is read (total_results rising page by page) is read to its end, not cut at the first total', async () => {
    const totals = [150, 300, 500, 500, 500];
    const bodies = Object.fromEntries(
      totals.map((t, i) => [
        i + 1,
        {
          total_results: t,
          limit: 100,
          page: i + 1,
          next: i < 4 ? `http://x/?page=${i + 2}` : null,
          data: Array(100).fill(i + 1),
        },
      ]),
    );
    const warnings: string[] = [];
    const { http, asked } = scripted(bodies);
    expect(await collect(items(http, '/v1/results', { onWarning: (w) => warnings.push(w) }))).toHaveLength(500);
    expect(asked).toEqual([1, 2, 3, 4, 5]);
    expect(warnings).toEqual([]);
  });

  it('a listing that next: null ends short of its total_pages says so (no total_results to compare)', async () => {
    const warnings: string[] = [];
    const { http, asked } = scripted({
      1: { page: 1, total_pages: 3, data: Array(100).fill(1) },
      2: { page: 2, total_pages: 3, next: null, data: Array(10).fill(2) },
    });
    expect(await collect(items(http, '/v1/results', { onWarning: (w) => warnings.push(w) }))).toHaveLength(110);
    expect(asked).toEqual([1, 2]);
    expect(warnings).toEqual([
      "GET /v1/results: total_pages said 3 but the listing ended at page 2 (the API's counters are not always exact)",
    ]);
  });

  it('accepts a bare array', async () => {
    const { http } = scripted({ 1: [1, 2] });
    const got: unknown[] = [];
    for await (const p of pages(http, '/v1/x')) got.push(...p.data);
    expect(got).toEqual([1, 2]);
  });
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

// Against the real emulator over loopback, with a virtual clock for pacing and backoff so nothing waits.
describe('pages() against the emulator', () => {
  const emu = useEmulator({ each: 'clear' });
  const COUNT = 450;
  let runId: string;
  let expected: unknown[];
  let http: HttpClient;

  beforeAll(async () => {
    const run = (await emu.control('POST', '/_emulator/generate', {
      squid: emu.squidId(DEMO_SQUIDS.headphones),
      results: COUNT,
    })) as { id: string };
    runId = run.id;
    expected = [];
    for (let page = 1; expected.length < COUNT; page++)
      expected.push(...(await emu.api(`/v1/results?run=${runId}&page=${page}&limit=100`)).data);
  });
  beforeEach(() => {
    let t = Date.now();
    http = new HttpClient({
      baseUrl: emu.baseUrl,
      token: emu.token,
      now: () => t,
      sleep: async (ms) => void (t += ms),
    });
  });
  afterEach(() => http.close());

  const results = (o: PageOptions = {}) => collect(items(http, '/v1/results', { query: { run: runId }, ...o }));

  it('reads every record when nothing is wrong, the short last page included', async () => {
    expect(await results()).toEqual(expected);
  });

  it.each([
    [{}, 'expected a page of records, got an object without data'],
    [null, 'expected a page of records, got null'],
    [
      { detail: 'Request was throttled.' },
      'expected a page of records, got an object without data ("Request was throttled.")',
    ],
    [{ data: null }, 'expected a page of records, got data that is null, not a list'],
    [{ data: 'none' }, 'expected a page of records, got data that is a string, not a list'],
    ['ok', 'expected a page of records, got a string'],
  ])('a 200 answer %j on page 3 is an error naming page and status, not the last page', async (body, what) => {
    // The first two pages pass the rules by (a delay of 0 ms); the third request gets the body.
    await emu.faults([
      { path: '/v1/results', action: 'delay', ms: 0, count: 2 },
      { path: '/v1/results', action: 'status', status: 200, body, count: 1 },
    ]);
    const err = await results().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadPageError);
    expect((err as BadPageError).message).toBe(
      `GET /v1/results page 3 (HTTP 200): ${what} — stopping after 200 of 450 records`,
    );
    expect((err as BadPageError).exitCode).toBe(1);
  });

  it('an empty page while total_pages and next say more is an error', async () => {
    const body = {
      total_results: 450,
      limit: 100,
      page: 3,
      total_pages: 5,
      next: `${emu.baseUrl}/v1/results?page=4`,
      data: [],
    };
    await emu.faults([
      { path: '/v1/results', action: 'delay', ms: 0, count: 2 },
      { path: '/v1/results', action: 'status', status: 200, body, count: 1 },
    ]);
    await expect(results()).rejects.toThrow(
      'GET /v1/results page 3 (HTTP 200): the page is empty, but its next link points to another page — stopping after 200 of 450 records',
    );
  });

  it('an empty page while only total_pages says more is an error', async () => {
    await emu.faults([
      { path: '/v1/results', action: 'status', status: 200, body: { page: 1, total_pages: 5, data: [] }, count: 1 },
    ]);
    await expect(results()).rejects.toThrow(
      'GET /v1/results page 1 (HTTP 200): the page is empty, but total_pages says 5 — stopping after 0 records',
    );
  });

  it('a short page in the middle (counters and next unchanged) is an error', async () => {
    await emu.faults([
      { path: '/v1/results', action: 'delay', ms: 0, count: 1 },
      { path: '/v1/results', action: 'short_page', count: 1 },
    ]);
    await expect(results()).rejects.toThrow(
      'GET /v1/results page 2 (HTTP 200): 50 records on a page of 100, but its next link points to another page — stopping after 100 of 450 records',
    );
  });

  it('a short page while only total_results says more is an error', async () => {
    await emu.faults([
      {
        path: '/v1/results',
        action: 'status',
        status: 200,
        body: { total_results: 450, data: [{ id: 'a' }] },
        count: 1,
      },
    ]);
    await expect(results()).rejects.toThrow(
      'page 1 (HTTP 200): 1 records on a page of 100, but total_results says 450',
    );
  });

  it('the free-plan cap is not a fault: the capped records, the warning reported once', async () => {
    await emu.control('POST', '/_emulator/config', { freePlan: true });
    try {
      const warnings: string[] = [];
      const got = await results({ onWarning: (w) => warnings.push(w) });
      expect(got).toEqual(expected.slice(0, got.length));
      expect(got.length).toBeLessThan(COUNT);
      expect(warnings).toHaveLength(1);
    } finally {
      await emu.control('POST', '/_emulator/config', { freePlan: false });
    }
  });

  it('a short page that carries the free-plan warning ends the listing without an error', async () => {
    const body = {
      total_results: 450,
      limit: 100,
      page: 1,
      total_pages: 5,
      data: [{ id: 'a' }],
      warning: 'only 1 result returned',
    };
    await emu.faults([{ path: '/v1/results', action: 'status', status: 200, body, count: 1 }]);
    const warnings: string[] = [];
    expect(await results({ onWarning: (w) => warnings.push(w) })).toEqual([{ id: 'a' }]);
    expect(warnings).toEqual(['only 1 result returned']);
  });

  it('gives each page its own retry budget: 12 pages that each fail twice with 503 still read exactly', async () => {
    await emu.faults([{ path: '/v1/results', action: 'status', status: 503, count: 2 }]);
    const got: unknown[] = [];
    for await (const p of pages(http, '/v1/results', { query: { run: runId }, pageSize: 10, maxItems: 120 })) {
      got.push(...p.data);
      // The next page fails twice too.
      await emu.faults([{ path: '/v1/results', action: 'status', status: 503, count: 2 }]);
    }
    expect(got).toEqual(expected.slice(0, 120));
    const statuses = (await emu.requests()).map((r) => r.status);
    expect(statuses).toEqual(Array.from({ length: 12 }, () => [503, 503, 200]).flat());
  });

  it('a batch of separate calls still shares one process-wide budget', async () => {
    await emu.faults([{ path: '/v1/me', action: 'status', status: 503 }]);
    for (let i = 0; i < 4; i++) await expect(http.get('/v1/me')).rejects.toThrow('HTTP 503');
    // 4 retries, 4 retries, the last 2 of the 10 shared ones, then none.
    expect((await emu.requests()).length).toBe(5 + 5 + 3 + 1);
  });

  it('the first page of a listing spends the shared budget, so a batch of lookups cannot storm a failing server', async () => {
    await emu.faults([{ path: '/v1/results', action: 'status', status: 503 }]);
    for (let i = 0; i < 3; i++) await expect(results()).rejects.toThrow('HTTP 503');
    expect((await emu.requests()).length).toBe(5 + 5 + 3);
  });
});
