// The crawler catalogue against the docs: generated from the examples pages (scripts/gen-crawlers.mjs, up to date),
// every crawler of those pages served, every sampled result row fitting its crawler's attributes, and the Google Maps
// crawlers serving every column the reference pages name.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlerId } from '../../src/emulator/crawlers.js';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';
import { jsonType } from '../helpers/shapes.js';
import type { J } from '../helpers/json.js';

type Pages = Record<string, { samples: { label: string; body: J }[] }>;
const fixture = (name: string) =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, `../fixtures/${name}`), 'utf8')).pages as Pages;
const EXAMPLES = fixture('docs-examples.json');
const SAMPLES = fixture('docs-samples.json');
const SLUGS = [...new Set(Object.keys(EXAMPLES).map((k) => k.split('/')[1]))];
const ROW_KEYS = new Set(['id', 'object', 'squid', 'run', 'scraping_time']);

let e: TestEmu;
beforeAll(async () => {
  e = await startTestEmulator();
});
afterAll(async () => {
  await e.close();
});

/** Every crawler the emulator lists, following the pages. */
async function listed(): Promise<J[]> {
  const all: J[] = [];
  for (let page = 1; ; page++) {
    const r = (await e.api('GET', `/v1/crawlers?limit=100&page=${page}`)).body;
    all.push(...r.data);
    if (!r.next) return all;
  }
}

/** Where a sampled row does not fit the attributes: a column they do not list, or a value of another JSON type. */
function misfits(rows: J[], attrs: J[]): string[] {
  const types = new Map(attrs.map((a) => [a.name, a.type]));
  const fits: Record<string, string[]> = {
    string: ['string'],
    text: ['string'],
    integer: ['number'],
    float: ['number'],
    boolean: ['boolean'],
    json: ['object', 'array'],
  };
  return rows.flatMap((row) =>
    Object.entries(row).flatMap(([k, v]) => {
      if (ROW_KEYS.has(k)) return [];
      const t = types.get(k);
      if (!t) return [`${k}: not an attribute`];
      return v === null || fits[t]?.includes(jsonType(v)) ? [] : [`${k}: ${jsonType(v)} for an attribute of type ${t}`];
    }),
  );
}

describe("the crawler catalogue (scripts/gen-crawlers.mjs from the docs' examples pages)", () => {
  it('src/emulator/docs-crawlers.ts is what the generator makes of the docs today', () => {
    const check = () =>
      execFileSync(process.execPath, ['scripts/gen-crawlers.mjs', '--check'], {
        cwd: resolve(import.meta.dirname, '../..'),
        stdio: 'pipe',
      });
    expect(check).not.toThrow();
  });

  it('serves every crawler of the 175 examples pages (57), by slug, on the demo seed', async () => {
    expect(SLUGS).toHaveLength(57);
    const slugs = new Set((await listed()).map((c) => c.slug));
    expect(SLUGS.filter((s) => !slugs.has(s))).toEqual([]);
  });

  it("every get-results sample's rows fit their crawler's attributes (names and JSON types)", async () => {
    const pages = Object.entries(EXAMPLES).filter(([k, p]) => k.endsWith('/get-results') && p.samples.length);
    expect(pages.length).toBeGreaterThanOrEqual(7);
    for (const [key, page] of pages) {
      const attrs = (await e.api('GET', `/v1/crawlers/${crawlerId(key.split('/')[1])}/attributes`)).body.data as J[];
      expect(misfits(page.samples[0].body.data, attrs), key).toEqual([]);
    }
  });

  it('the fit check finds a column the attributes do not list and a value of another type', () => {
    const attrs = [{ name: 'price', type: 'integer' }];
    expect(misfits([{ id: 'x', price: '5', colour: 'red' }], attrs)).toEqual([
      'price: string for an attribute of type integer',
      'colour: not an attribute',
    ]);
  });

  it("the Google Maps crawlers serve every column the reference pages name: details' result list, get-results, attributes", async () => {
    const named = new Set<string>([
      ...SAMPLES['get-crawler-details'].samples[0].body.result,
      ...Object.keys(SAMPLES['get-results'].samples[0].body.data[0]).filter((k) => !ROW_KEYS.has(k)),
      ...SAMPLES['get-crawler-attributes'].samples[0].body.data.map((a: J) => a.name),
      // collect_business_details' description: "Extract attributes like plus_code, poi, health, and last_opening_hours_updated_at."
      'plus_code',
      'poi',
      'health',
      'last_opening_hours_updated_at',
    ]);
    const attributesPage = SAMPLES['get-crawler-attributes'].samples[0].body.data.map((a: J) => a.name);
    const resultColumns = Object.keys(SAMPLES['get-results'].samples[0].body.data[0]).filter((k) => !ROW_KEYS.has(k));
    for (const slug of ['google-maps-search-export', 'google-maps-leads-scraper']) {
      const attrs = (await e.api('GET', `/v1/crawlers/${crawlerId(slug)}/attributes`)).body.data.map((a: J) => a.name);
      expect(
        [...named].filter((n) => !attrs.includes(n)),
        slug,
      ).toEqual([]);
      // Only those (generated from the pages, none made up), the attributes page's first in its order, then the
      // get-results sample's others in its rows' order.
      expect(attrs, slug).toHaveLength(named.size);
      expect(attrs.slice(0, attributesPage.length)).toEqual(attributesPage);
      const others = resultColumns.filter((c) => !attributesPage.includes(c));
      expect(attrs.slice(attributesPage.length, attributesPage.length + others.length)).toEqual(others);
    }
  });

  it("a run of the Google Maps Leads Scraper with every function on fills every column but a parameter task's match_filters", async () => {
    const squid = (
      await e.api('POST', '/v1/squids', { crawler: crawlerId('google-maps-leads-scraper'), name: 'All columns' })
    ).body.id;
    const functions = {
      collect_business_details: true,
      fetch_business_images: true,
      extract_emails_from_website: true,
    };
    await e.api('POST', `/v1/squids/${squid}`, { params: { max_results: 20, functions } });
    await e.api('POST', '/v1/tasks', {
      squid,
      tasks: [{ url: 'https://www.google.com/maps/search/restaurant/@43.3928346,5.2662584,14z' }],
    });
    const run = (await e.api('POST', '/v1/runs', { squid })).body.id;
    for (let i = 0; i < 50 && (await e.api('GET', `/v1/runs/${run}`)).body.status !== 'done'; i++)
      await e.advance(60_000);
    const rows = (await e.api('GET', `/v1/results?run=${run}&limit=100`)).body.data as J[];
    const attrs = (
      await e.api('GET', `/v1/crawlers/${crawlerId('google-maps-leads-scraper')}/attributes`)
    ).body.data.map((a: J) => a.name);
    const seen = new Set(rows.flatMap((r) => Object.keys(r)));
    expect(attrs.filter((a: string) => !seen.has(a))).toEqual(['match_filters']);
    expect(attrs.length).toBeGreaterThanOrEqual(32);
  });
});
