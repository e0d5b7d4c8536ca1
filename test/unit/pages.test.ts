// Paging stop rules are pure logic over the envelope; a scripted client stands in for the server here only.
import { describe, expect, it } from 'vitest';
import { pages, items } from '../../src/api/pages.js';
import type { HttpClient } from '../../src/api/http.js';

function scripted(bodies: Record<number, unknown>) {
  const asked: number[] = [];
  const http = {
    async get(_path: string, o: { query: { page: number } }) {
      asked.push(o.query.page);
      return bodies[o.query.page] ?? { data: [] };
    },
  } as unknown as HttpClient;
  return { http, asked };
}

const env = (page: number, total_pages: number, data: unknown[], extra: object = {}) => ({ page, total_pages, total_results: 999, limit: 100, data, ...extra });

describe('pages()', () => {
  it('stops at total_pages', async () => {
    const { http, asked } = scripted({ 1: env(1, 2, [1]), 2: env(2, 2, [2]), 3: env(3, 2, [3]) });
    expect(await collect(items(http, '/v1/x'))).toEqual([1, 2]);
    expect(asked).toEqual([1, 2]);
  });

  it('stops on next: null even when total_pages says more (list-crawlers sample)', async () => {
    const { http, asked } = scripted({ 1: env(1, 2, [1], { next: null }), 2: env(2, 2, [2]) });
    expect(await collect(items(http, '/v1/x'))).toEqual([1]);
    expect(asked).toEqual([1]);
  });

  it('stops on an empty page whatever the counters say', async () => {
    const { http, asked } = scripted({ 1: env(1, 50, [1]), 2: env(2, 50, []) });
    expect(await collect(items(http, '/v1/x'))).toEqual([1]);
    expect(asked).toEqual([1, 2]);
  });

  it('never loops on a server that repeats the same page number', async () => {
    const body = { page: 1, total_pages: 1e9, data: [1], next: 'http://x/next' };
    const { http, asked } = scripted(new Proxy({}, { get: () => body }) as Record<number, unknown>);
    const got = await collect(items(http, '/v1/x', { maxItems: 1000 }));
    // total_results is absent: still bounded by maxItems, each page asked once
    expect(new Set(asked).size).toBe(asked.length);
    expect(got.length).toBeLessThanOrEqual(1000);
  });

  it('bounds the number of requests by total_results when counters lie', async () => {
    const { http, asked } = scripted(new Proxy({}, { get: (_t, p) => ({ page: Number(p), total_pages: 1e9, total_results: 250, data: [Number(p)] }) }) as Record<number, unknown>);
    await collect(items(http, '/v1/x'));
    expect(asked.length).toBe(Math.ceil(250 / 100) + 1);
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
