// The one endpoint table (src/emulator/routes/endpoints.ts) against the routes the emulator registers and the docs
// pages (test/fixtures/docs-samples.json, docs-examples.json), in both directions.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmuCore } from '../../src/emulator/emu.js';
import { ENDPOINTS } from '../../src/emulator/routes/endpoints.js';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';

type Pages = Record<string, { api: [string, string] | null }>;
const fixture = (name: string) =>
  (JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures', name), 'utf8')) as { pages: Pages }).pages;
const SAMPLES = fixture('docs-samples.json');
const EXAMPLES = fixture('docs-examples.json');
/** Example pages whose request the emulator does not serve on this branch, each with its reason. */
const EXAMPLE_GAPS: Record<string, string> = {};

let e: TestEmu;
beforeAll(async () => {
  e = await startTestEmulator();
});
afterAll(async () => {
  await e.close();
});

const key = (method: string, path: string) => `${method} ${path}`;
/** The documented URL's path, each {param} a sample value. */
const docPath = (url: string) => new URL(url.replace(/\{[^}]+\}/g, 'x')).pathname.replace(/\/$/, '');
const routeOf = (method: string, url: string) => (e.emu as EmuCore).router.match(method, docPath(url))?.pattern;

describe('the endpoint table', () => {
  it('lists every registered route once, and every route it lists is registered', () => {
    const registered = (e.emu as EmuCore).router
      .list()
      .map((r) => key(r.method, r.pattern))
      .sort();
    const listed = ENDPOINTS.map((x) => key(x.method, x.path));
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.sort()).toEqual(registered);
  });

  it('each handler file under routes/ registers its route, and no file outside routes/ registers one', () => {
    for (const x of ENDPOINTS) {
      const file = resolve(import.meta.dirname, '../../src/emulator/routes', `${x.handler}.ts`);
      const text = readFileSync(file, 'utf8');
      const literal = x.path.startsWith('/v1/delivery/test-') ? '/v1/delivery/test-' : x.path;
      expect(text, `${key(x.method, x.path)} in ${x.handler}.ts`).toContain(literal);
    }
    expect(ENDPOINTS.filter((x) => x.handler.includes('/'))).toEqual([]);
    const emulator = resolve(import.meta.dirname, '../../src/emulator');
    const outside = readdirSync(emulator, { recursive: true, encoding: 'utf8' }).filter(
      (f) =>
        f.endsWith('.ts') && !f.startsWith('routes/') && /\bemu\.route\(/.test(readFileSync(join(emulator, f), 'utf8')),
    );
    expect(outside).toEqual([]);
  });

  it('a route no docs page documents says where it comes from', () => {
    for (const x of ENDPOINTS) if (!x.pages.length) expect(x.source, key(x.method, x.path)).toMatch(/\S/);
  });

  it('docs → table: each docs-samples request lands on a route that lists its page', () => {
    for (const [name, page] of Object.entries(SAMPLES)) {
      if (!page.api) continue;
      const pattern = page.api[1].includes('test-{route}')
        ? '/v1/delivery/test-webhook'
        : routeOf(page.api[0], page.api[1]);
      const entry = ENDPOINTS.find((x) => x.method === page.api?.[0] && x.path === pattern);
      expect(entry?.pages, name).toContain(name);
    }
  });

  it('table → docs: each page listed exists and documents that route', () => {
    for (const x of ENDPOINTS) {
      for (const name of x.pages) {
        const api = SAMPLES[name]?.api;
        expect(api, `${name} (${key(x.method, x.path)})`).toBeTruthy();
        expect(api?.[0]).toBe(x.method);
        if (name !== 'test-delivery') expect(routeOf(x.method, api?.[1] ?? ''), name).toBe(x.path);
      }
    }
  });

  it("each examples page's request lands on a route, but the named gaps", () => {
    const gaps = new Set<string>();
    for (const page of Object.values(EXAMPLES)) {
      if (!page.api || routeOf(page.api[0], page.api[1])) continue;
      gaps.add(key(page.api[0], decodeURI(new URL(page.api[1]).pathname).replace(/\{[^}]+\}/g, '{id}')));
    }
    expect([...gaps].sort()).toEqual(Object.keys(EXAMPLE_GAPS).sort());
  });
});
