// The credit endpoints (changelog 2026-05-06 → 2026-06-02) and GET /v1/googlemaps/locations: the run breakdown
// against its docs sample (key sets, JSON types, the 404), and the inferred account views, whose numbers must be what
// the emulator's runs charged.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_TIMING } from '../../src/emulator/engine.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { useEmulator, finishRun, startTestEmulator } from '../helpers/emulator.js';
import type { J } from '../helpers/json.js';

const DAY = 86_400_000;
/** The get-run-credits page's samples, from the repository's copy of the vendor docs samples. */
const RUN_CREDITS_SAMPLES: J[] = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/docs-samples.json'), 'utf8'),
).pages['get-run-credits'].samples;

// A fresh emulator for each test.
const e = useEmulator({ each: 'new' });

const finish = (run: string): Promise<J> => finishRun(e, run);

async function runOf(name: string): Promise<J> {
  return finish((await e.api('POST', '/v1/runs', { squid: e.squidId(name) })).body.id);
}

/** JSON type names, with integers and floats both "number" (the sample's 116 and a 20.5 are the same JSON type). */
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 1e6) / 1e6;

describe('GET /v1/runs/{id}/credits', () => {
  const sample = RUN_CREDITS_SAMPLES;
  const ok = sample.find((s: J) => s.label === '200')!.body;

  it("has the sample's keys and JSON types, at every level", async () => {
    const run = await runOf(DEMO_SQUIDS.paris);
    const r = await e.api('GET', `/v1/runs/${run.id}/credits`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(Object.keys(ok).sort());
    for (const k of Object.keys(ok)) expect([k, typeOf(r.body[k])]).toEqual([k, typeOf(ok[k])]);
    for (const b of r.body.breakdown) expect(Object.keys(b).sort()).toEqual(Object.keys(ok.breakdown[0]).sort());
    for (const b of r.body.breakdown)
      expect([typeOf(b.function), typeOf(b.credits), typeOf(b.attempts)]).toEqual(['string', 'number', 'number']);
    expect(typeOf(r.body.rates.credits_per_row)).toBe('number');
    for (const c of Object.values(r.body.function_colors) as J[])
      expect(Object.keys(c).sort()).toEqual(['bg_color', 'txt_color']);
    expect(r.body.function_colors[r.body.base_function_label]).toBeDefined();
  });

  it("answers the sample's 404", async () => {
    const r = await e.api('GET', `/v1/runs/${'0'.repeat(32)}/credits`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual(sample.find((s: J) => s.label === '404')!.body);
  });

  it("breaks down what the run was charged, and keeps it after the squid's functions change", async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    await e.api('POST', `/v1/squids/${paris}`, { params: { functions: { extract_emails_from_website: true } } });
    const run = await runOf(DEMO_SQUIDS.paris);
    await e.api('POST', `/v1/squids/${paris}`, { params: { functions: { extract_emails_from_website: false } } });
    const c = (await e.api('GET', `/v1/runs/${run.id}/credits`)).body;
    expect(c.total_credits).toBe(run.credit_used);
    expect(c.total_results).toBe(run.total_results);
    expect(c.rates).toEqual({ credits_per_row: 2, extract_emails_from_website: 10 });
    // The attributes page's label of the crawler's base attributes.
    expect(c.base_function_label).toBe('Export Local Businesses');
    expect(c.breakdown).toEqual([
      { function: 'extract_emails_from_website', credits: run.total_results * 10, attempts: 3 },
      { function: 'base', credits: run.total_results * 2, attempts: 3 },
    ]);
    expect(sum(c.breakdown.map((b: J) => b.credits))).toBe(run.credit_used);
  });

  it('a seeded run keeps its breakdown too (the seed charges through the same ledger)', async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    const seeded = Object.values(e.emu.state.runs).find((r) => r.squid === paris && r.is_done === true)!;
    const before = (await e.api('GET', `/v1/runs/${String(seeded.id)}/credits`)).body;
    await e.api('POST', `/v1/squids/${paris}`, { params: { functions: { extract_emails_from_website: true } } });
    const after = (await e.api('GET', `/v1/runs/${String(seeded.id)}/credits`)).body;
    expect(after).toEqual(before);
    expect(after.breakdown.map((b: J) => b.function)).toEqual(['base']);
    expect(sum(after.breakdown.map((b: J) => b.credits))).toBe(seeded.credit_used);
  });
});

describe('GET /v1/credits/modules', () => {
  it('sums the completed runs per crawler and function; totals match what the runs charged', async () => {
    const before = (await e.api('GET', '/v1/credits/modules')).body;
    expect(Object.keys(before).sort()).toEqual(['data', 'days', 'total_credits', 'total_results']);
    expect(before.days).toBeNull();
    const runs = Object.values(e.emu.state.runs).filter((r) => r.is_done === true);
    expect(before.total_credits).toBe(sum(runs.map((r) => Number(r.credit_used))));
    for (const m of before.data) {
      expect(Object.keys(m).sort()).toEqual([
        'breakdown',
        'module',
        'name',
        'slug',
        'total_credits',
        'total_results',
        'total_runs',
      ]);
      expect(sum(m.breakdown.map((b: J) => b.credits))).toBe(m.total_credits);
    }
    const run = await runOf(DEMO_SQUIDS.paris);
    const after = (await e.api('GET', '/v1/credits/modules')).body;
    expect(after.total_credits).toBe(sum([before.total_credits, run.credit_used]));
    const gm = (b: J) => b.data.find((m: J) => m.slug === 'google-maps-search-export');
    expect(gm(after).total_runs).toBe(gm(before).total_runs + 1);
  });

  it('?days=N counts only runs that ended in the last N days', async () => {
    await e.advance(3 * DAY);
    const run = await runOf(DEMO_SQUIDS.paris);
    const recent = (await e.api('GET', '/v1/credits/modules?days=1')).body;
    expect(recent.days).toBe(1);
    expect(recent.total_credits).toBe(run.credit_used);
    expect(recent.data.map((m: J) => [m.slug, m.total_runs])).toEqual([['google-maps-search-export', 1]]);
  });

  it.each(['0', 'abc', '-2', '1.5'])('?days=%s is 400 {detail}', async (days) => {
    const r = await e.api('GET', `/v1/credits/modules?days=${days}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: 'days must be a positive integer.' });
  });
});

describe('GET /v1/credits/squids and /v1/squids/{id}/credits', () => {
  const ROW_KEYS = [
    'crawler',
    'crawler_name',
    'deleted_at',
    'id',
    'is_deleted',
    'name',
    'total_credits',
    'total_results',
    'total_runs',
  ];

  it('a page of squids; a deleted one stays 30 days with is_deleted and its credits, then goes', async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    const page = (await e.api('GET', '/v1/credits/squids?limit=100')).body;
    expect(page).toMatchObject({ page: 1, total_results: Object.keys(e.emu.state.squids).length });
    for (const r of page.data) expect(Object.keys(r).sort()).toEqual(ROW_KEYS);
    const row = page.data.find((r: J) => r.id === paris);
    const charged = Object.values(e.emu.state.runs).filter((r) => r.squid === paris);
    expect(row).toMatchObject({
      is_deleted: false,
      deleted_at: null,
      total_runs: charged.length,
      total_credits: sum(charged.map((r) => Number(r.credit_used))),
    });

    expect((await e.api('DELETE', `/v1/squids/${paris}`)).status).toBe(200);
    const gone = (await e.api('GET', '/v1/credits/squids?limit=100')).body.data.find((r: J) => r.id === paris);
    expect(gone).toMatchObject({
      is_deleted: true,
      total_credits: row.total_credits,
      total_runs: row.total_runs,
      name: DEMO_SQUIDS.paris,
    });
    expect(gone.deleted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Its runs still count in the per-crawler view while it is kept.
    const modules = (await e.api('GET', '/v1/credits/modules')).body;
    expect(modules.data.find((m: J) => m.slug === 'google-maps-search-export').total_credits).toBeGreaterThanOrEqual(
      row.total_credits,
    );

    await e.advance(29 * DAY);
    expect((await e.api('GET', '/v1/credits/squids?limit=100')).body.data.some((r: J) => r.id === paris)).toBe(true);
    await e.advance(1 * DAY);
    expect((await e.api('GET', '/v1/credits/squids?limit=100')).body.data.some((r: J) => r.id === paris)).toBe(false);
  });

  it('a squid\'s finished runs, newest first, each with its final status (an aborted run is "aborted")', async () => {
    const paris = e.squidId(DEMO_SQUIDS.paris);
    const started = (await e.api('POST', '/v1/runs', { squid: paris })).body.id;
    await e.advance(RUN_TIMING.startMs + RUN_TIMING.taskMs);
    expect((await e.api('POST', `/v1/runs/${started}/abort`)).status).toBe(200);
    const r = await e.api('GET', `/v1/squids/${paris}/credits`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1 });
    const [first, ...rest] = r.body.data;
    expect(first).toMatchObject({ run: started, status: 'aborted' });
    for (const row of r.body.data) {
      expect(Object.keys(row).sort()).toEqual([
        'breakdown',
        'ended_at',
        'run',
        'started_at',
        'status',
        'total_credits',
        'total_results',
      ]);
      expect(row.total_credits).toBe(e.emu.state.runs[row.run].credit_used);
    }
    expect(rest.map((x: J) => x.status)).toEqual(rest.map(() => 'done'));
  });

  it("an unknown squid is the squid endpoints' 404", async () => {
    const r = await e.api('GET', `/v1/squids/${'0'.repeat(32)}/credits`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: { message: 'Squid not found.', type: 'not_found_error', param: 'squid_hash' } });
  });
});

describe('--state persistence', () => {
  it('a restart keeps the ledger and the deleted squids', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sq-emu-credits-'));
    const file = join(dir, 'state.json');
    const a = await startTestEmulator({ stateFile: file });
    const paris = a.squidId(DEMO_SQUIDS.paris);
    await a.api('POST', `/v1/squids/${paris}`, { params: { functions: { extract_emails_from_website: true } } });
    const run = (await a.api('POST', '/v1/runs', { squid: paris })).body.id;
    await a.advance(RUN_TIMING.startMs + 3 * RUN_TIMING.taskMs + RUN_TIMING.finishMs);
    const credits = (await a.api('GET', `/v1/runs/${run}/credits`)).body;
    expect(credits.breakdown.map((b: J) => b.function)).toEqual(['extract_emails_from_website', 'base']);
    const jobs = a.squidId(DEMO_SQUIDS.jobs);
    await a.api('DELETE', `/v1/squids/${jobs}`);
    await a.close();
    const b = await startTestEmulator({ stateFile: file });
    try {
      await b.api('POST', `/v1/squids/${paris}`, { params: { functions: { extract_emails_from_website: false } } });
      expect((await b.api('GET', `/v1/runs/${run}/credits`)).body).toEqual(credits);
      expect(
        (await b.api('GET', '/v1/credits/squids?limit=100')).body.data.find((r: J) => r.id === jobs),
      ).toMatchObject({ is_deleted: true });
    } finally {
      await b.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /v1/googlemaps/locations (examples/google-maps-leads-scraper/get-geolocation: an array of names)', () => {
  it('regions of a country, cities of a region, districts of a city (case-insensitive names)', async () => {
    const regions = (await e.api('GET', '/v1/googlemaps/locations?country_code=us')).body;
    expect(regions).toContain('California');
    expect(regions.every((r: unknown) => typeof r === 'string')).toBe(true);
    const cities = (await e.api('GET', '/v1/googlemaps/locations?country_code=FR&region=%C3%AEle-de-france')).body;
    expect(cities).toContain('Paris');
    const districts = (
      await e.api('GET', '/v1/googlemaps/locations?country_code=US&region=New%20York&city=New%20York%20City')
    ).body;
    expect(districts).toContain('Brooklyn');
  });

  it.each([
    ['', 'country_code is required.'],
    ['?country_code=ZZ', 'Unknown country_code "ZZ". Allowed: US, FR, DE, GB.'],
    ['?country_code=DE&region=Hessen', 'Unknown region "Hessen". Allowed: Berlin, Bayern.'],
    ['?country_code=US&city=Austin', 'region is required with city or district.'],
  ])('%s → 400 naming what is allowed', async (q, message) => {
    const r = await e.api('GET', `/v1/googlemaps/locations${q}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: message });
  });
});
