// POST /v1/squid/estimate (api-changelog "What the vendor's own clients rely on"): the vendor's shape, the run that
// follows charges what it said, and the squid rules that guard spending: is_active false refuses and stops runs,
// used_slots/total_slots are enforced (SlotsLimitExceeded), credit_used is a float to 4 decimals.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_TIMING } from '../../src/emulator/engine.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { useEmulator, finishRun } from '../helpers/emulator.js';
import type { J } from '../helpers/json.js';

/** The vendor SDK's estimate object, in the docs samples' style (no docs page has one): keys and JSON types. */
const DOCS_STYLE_ESTIMATE: J = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/squid-estimate.json'), 'utf8'),
).body;

// A fresh emulator for each test.
const e = useEmulator({ each: 'new' });

const finish = (run: string): Promise<J> => finishRun(e, run);

/** A new squid of the crawler with its params set (defaults unless given) and these tasks. */
async function squidWith(crawler: string, tasks: J[], params: J = {}): Promise<string> {
  const s = (await e.api('POST', '/v1/squids', { crawler, name: `est ${Math.random()}` })).body;
  expect((await e.api('POST', `/v1/squids/${s.id}`, { params })).status).toBeLessThan(300);
  expect((await e.api('POST', '/v1/tasks', { squid: s.id, tasks })).status).toBeLessThan(300);
  return s.id;
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

describe('POST /v1/squid/estimate', () => {
  it('answers the vendor shape: base service first, total, a time range, max_results, tasks count and preview', async () => {
    const id = await squidWith(DEMO_CRAWLERS.googleMaps, [
      { url: 'https://www.google.com/maps/search/cafe+berlin' },
      { url: 'https://www.google.com/maps/search/bar+berlin' },
    ]);
    const r = await e.api('POST', '/v1/squid/estimate', { squid: id });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(Object.keys(DOCS_STYLE_ESTIMATE).sort());
    for (const [k, v] of Object.entries(DOCS_STYLE_ESTIMATE))
      if (v !== null) expect([k, typeOf(r.body[k])]).toEqual([k, typeOf(v)]);
    expect(Object.keys(r.body.services[0]).sort()).toEqual(Object.keys(DOCS_STYLE_ESTIMATE.services[0]).sort());
    for (const s of r.body.services)
      for (const [k, v] of Object.entries(DOCS_STYLE_ESTIMATE.services[0])) expect(typeOf(s[k])).toBe(typeOf(v));
    expect(Object.keys(r.body.tasks).sort()).toEqual(Object.keys(DOCS_STYLE_ESTIMATE.tasks).sort());
    expect(r.body.services.map((s: J) => s.name)).toEqual(['base', 'extract_emails_from_website']);
    expect(r.body.estimated_time).toMatch(/^\d+ (sec|min|hour)s? - \d+ (sec|min|hour)s?$/);
    expect(r.body.max_results).toBe(200);
    expect(r.body.tasks.count).toBe(2);
    expect(r.body.recommended_upgrade_plan).toBeNull();
    const [base, emails] = r.body.services;
    expect(emails.credits).toBe(base.results * 10);
    expect(r.body.total_credits).toBe(base.credits + emails.credits);
  });

  it('a squid without tasks is 400 NoTasksPresent, an unknown one 404, both in the error shape', async () => {
    const none = await e.api('POST', '/v1/squid/estimate', { squid: e.squidId(DEMO_SQUIDS.lyon) });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ type: 'validation_error', param: 'squid' });
    expect(none.body.error.message).toMatch(/NoTasksPresent/);
    const missing = await e.api('POST', '/v1/squid/estimate', { squid: 'f'.repeat(32) });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: 'not_found_error' });
  });

  it('recommends an upgrade when the balance cannot cover the estimate', async () => {
    const id = await squidWith(DEMO_CRAWLERS.googleMaps, [{ url: 'https://www.google.com/maps/search/cafe+berlin' }]);
    await e.ctl('POST', '/_emulator/usage', { pct: 99.99 });
    const r = await e.api('POST', '/v1/squid/estimate', { squid: id });
    expect(r.body.recommended_upgrade_plan).toMatchObject({ name: expect.any(String) });
  });

  const cases: [string, string, J[], J][] = [
    [
      'Google Maps, a paid function on by default',
      DEMO_CRAWLERS.googleMaps,
      [
        { url: 'https://www.google.com/maps/search/cafe+berlin' },
        { url: 'https://www.google.com/maps/search/bakery+berlin' },
      ],
      {},
    ],
    [
      'Google Maps, paid functions off',
      DEMO_CRAWLERS.googleMaps,
      [{ url: 'https://www.google.com/maps/search/cafe+berlin' }],
      { functions: { extract_emails_from_website: false } },
    ],
    [
      'Google Maps, max_results caps each task',
      DEMO_CRAWLERS.googleMaps,
      [
        { url: 'https://www.google.com/maps/search/cafe+berlin' },
        { url: 'https://www.google.com/maps/search/pub+berlin' },
      ],
      { max_results: 2 },
    ],
    [
      'Amazon, no paid function',
      DEMO_CRAWLERS.amazon,
      [{ url: 'https://www.amazon.com/s?k=keyboard' }, { url: 'https://www.amazon.com/s?k=mouse' }],
      {},
    ],
    [
      'Sales Navigator, a half-credit function',
      DEMO_CRAWLERS.salesNav,
      [{ url: 'https://www.linkedin.com/sales/search/people?query=cfo' }],
      { functions: { email_enrichment: true } },
    ],
  ];
  for (const [what, crawler, tasks, params] of cases) {
    it(`equals what the run then charges (GET /v1/runs/{id}/credits): ${what}`, async () => {
      const id = await squidWith(crawler, tasks, params);
      const est = (await e.api('POST', '/v1/squid/estimate', { squid: id })).body;
      const run = await finish((await e.api('POST', '/v1/runs', { squid: id })).body.id);
      expect(run.status).toBe('done');
      const credits = (await e.api('GET', `/v1/runs/${run.id}/credits`)).body;
      expect(credits.total_credits).toBe(est.total_credits);
      expect(run.credit_used).toBe(est.total_credits);
      expect(run.total_results).toBe(est.services[0].results);
      const byFn = Object.fromEntries(credits.breakdown.map((b: J) => [b.function, b.credits]));
      expect(byFn).toEqual(Object.fromEntries(est.services.map((s: J) => [s.name, s.credits])));
      if (params.max_results) expect(est.services[0].results).toBeLessThanOrEqual(params.max_results * tasks.length);
    });
  }

  it('credit_used is a float to 4 decimals when the rates make fractions', async () => {
    const id = await squidWith(
      DEMO_CRAWLERS.salesNav,
      [{ url: 'https://www.linkedin.com/sales/search/people?query=cto' }],
      { functions: { email_enrichment: true } },
    );
    const est = (await e.api('POST', '/v1/squid/estimate', { squid: id })).body;
    const run = await finish((await e.api('POST', '/v1/runs', { squid: id })).body.id);
    expect(Number.isInteger(run.credit_used * 1e4)).toBe(true);
    expect(run.credit_used).toBe(est.services[0].results * 3.5);
    const listed = (await e.api('GET', `/v1/runs?squid=${id}`)).body.data[0];
    expect(listed.credit_used).toBe(run.credit_used);
  });
});

describe('is_active: false', () => {
  it('refuses a new run (400, the error shape) and runs again once activated', async () => {
    const id = e.squidId(DEMO_SQUIDS.paris);
    expect((await e.api('POST', `/v1/squids/${id}`, { is_active: false })).status).toBe(200);
    const r = await e.api('POST', '/v1/runs', { squid: id });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'validation_error', param: 'squid' });
    expect(r.body.error.message).toMatch(/deactivated/);
    expect((await e.api('POST', `/v1/squids/${id}`, { is_active: true })).status).toBe(200);
    expect((await e.api('POST', '/v1/runs', { squid: id })).status).toBe(200);
  });

  it('stops the run in progress', async () => {
    const id = e.squidId(DEMO_SQUIDS.paris);
    const run = (await e.api('POST', '/v1/runs', { squid: id })).body;
    await e.advance(RUN_TIMING.startMs);
    await e.api('POST', `/v1/squids/${id}`, { is_active: false });
    const ended = await finish(run.id);
    expect(ended.status).toBe('aborted');
  });
});

describe('slots', () => {
  async function balance(): Promise<J> {
    return (await e.api('GET', '/v1/user/balance')).body;
  }

  it('an active squid holds its concurrency in slots; creating, activating or raising concurrency past them is SlotsLimitExceeded', async () => {
    const used = (await balance()).used_slots;
    await e.ctl('POST', '/_emulator/slots', { total: used + 1 });
    const made = await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.amazon, name: 'last slot' });
    expect(made.status).toBe(200);
    expect((await balance()).used_slots).toBe(used + 1);
    const over = await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.amazon, name: 'one too many' });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toMatch(/SlotsLimitExceeded/);
    const raise = await e.api('POST', `/v1/squids/${made.body.id}`, { concurrency: 2 });
    expect(raise.status).toBe(400);
    expect(raise.body.error).toMatchObject({ param: 'concurrency' });
    expect(raise.body.error.message).toMatch(/SlotsLimitExceeded/);
    // Deactivating frees the slot; activating again needs one.
    expect((await e.api('POST', `/v1/squids/${made.body.id}`, { is_active: false })).status).toBe(201);
    expect((await balance()).used_slots).toBe(used);
    expect(
      (await e.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.amazon, name: 'takes the freed slot' })).status,
    ).toBe(200);
    const back = await e.api('POST', `/v1/squids/${made.body.id}`, { is_active: true });
    expect(back.status).toBe(400);
    expect(back.body.error.message).toMatch(/SlotsLimitExceeded/);
  });
});
