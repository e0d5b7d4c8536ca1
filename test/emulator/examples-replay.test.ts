// Replays every page of the vendor's examples/ docs (test/fixtures/docs-examples.json, a copy of
// ../shared/docs-examples.json: 57 crawlers, 175 pages) against the emulator, as a user following the pages would:
// a squid of the page's crawler (an account linked where the crawler needs one), then the page's own request (add
// tasks, update settings, configure a chain, a locations lookup) or, for get-results, the crawler's tasks run to the
// end and its results read. The answer is compared with the page's sample: status, keys, nesting and JSON types
// (test/helpers/shapes.ts). A page with no sample is identical when its request succeeds and, for get-results, when
// every row's columns are the crawler's attributes. Every page that differs is named in EXCEPTIONS with the docs
// conflict that explains it (docs/emulator.md lists them); an exception that no longer applies fails too.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlerDef, crawlerId } from '../../src/emulator/crawlers.js';
import { RUN_TIMING } from '../../src/emulator/engine.js';
import { startTestEmulator, type Reply, type TestEmu } from '../helpers/emulator.js';
import { jsonType, shapeDiff } from '../helpers/shapes.js';
import type { J } from '../helpers/json.js';

interface Sample {
  label: string;
  body: unknown;
}
interface Page {
  api: [string, string];
  samples: Sample[];
}
const PAGES = (
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/docs-examples.json'), 'utf8')) as {
    pages: Record<string, Page>;
  }
).pages;

/** Row keys every result has (the get-results reference page), besides the crawler's columns. */
const ROW_KEYS = new Set(['id', 'object', 'squid', 'run', 'scraping_time']);

const BARE =
  'a bare task ({keyword}, no squid and no tasks list) sent to POST /v1/tasks and answered 200 with one task ' +
  '({id, squid_id, status, keyword, created_at}), where the add-tasks reference page and the other examples of /v1/tasks send ' +
  '{squid, tasks} and answer {duplicated_count, tasks}: the emulator answers the reference page (400: squid is required); six ' +
  'other pages send the same bare body to POST /v2/squid/{squid_id}/task, which the emulator serves';
const SQUID_ID =
  'its POST /v2/squid/{squid_id}/task answer carries squid_id, which the five other pages of that request leave out';
/** The crawler answers its updates with the whole squid, as its page shows (docs/emulator.md); the page's squid differs. */
const SQUID_FORM = 'its whole squid differs from the five other pages answering the whole squid: ';
/** Pages that are not identical, each with the docs conflict that explains it. */
const EXCEPTIONS: Record<string, string> = {
  'examples/linkedin-profile-scraper/add-tasks': SQUID_ID,
  'examples/tiktok-top-ads-scraper/add-tasks': BARE,
  'examples/facebook-marketplace-scraper/add-tasks':
    'answered 201 with a list of {id, squid, url, status}; the add-tasks ' +
    'reference page answers 200 {duplicated_count, tasks}',
  'examples/instagram-posts-scraper/add-tasks':
    "its tasks show {id, status, params}; the add-tasks reference page's show " +
    '{id, object, created_at, is_active, params, module}',
  'examples/facebook-marketplace-scraper/update-settings': `${SQUID_FORM}it has no created_at and updated_at`,
  'examples/tripadvisor-reviews-scraper/update-settings': `${SQUID_FORM}its crawler.id is an integer (132), theirs (and every crawler sample's id) a string`,
  'examples/amazon-reviews-scraper/update-settings':
    "the request sends media_type and format_type and the answer's params " +
    'leave them out; the other pages answer the params whole',
};

/** The count of identical pages this emulator reaches (the test fails if it falls). */
const IDENTICAL = 168;

let e: TestEmu;
const accountOf: Record<string, string> = {};
beforeAll(async () => {
  e = await startTestEmulator();
});
afterAll(async () => {
  await e.close();
});

/** A healthy account of a type, synchronized once (the demo seed's Sales Navigator one is at its daily limit). */
async function account(type: string): Promise<string> {
  if (accountOf[type]) return accountOf[type];
  const cookies = {
    'twitter-sync': { auth_token: 'a', ct0: 'b' },
    'sales-nav-sync': { li_at: 'a', JSESSIONID: 'b', li_a: 'c' },
    'facebook-sync': { c_user: '1', xs: '2' },
  }[type];
  const sync = (await e.api('POST', '/v1/accounts/cookies', { type, cookies })).body.id;
  await e.advance(5000);
  accountOf[type] = (await e.api('GET', `/v1/synchronize/${sync}`)).body.account_hash;
  return accountOf[type];
}

/** A fresh squid of the page's crawler, its account linked where it needs one. */
async function squidOf(slug: string): Promise<string> {
  const r = await e.api('POST', '/v1/squids', {
    crawler: crawlerId(slug),
    name: `${slug} ${Math.random().toString(36).slice(2, 8)}`,
  });
  expect(r.status, r.text).toBe(200);
  const type = crawlerDef(slug)?.account?.type;
  if (type) await e.api('POST', `/v1/squids/${r.body.id}`, { accounts: [await account(type)] });
  return r.body.id;
}

function fill(v: unknown, squid: string, accounts: string): unknown {
  return JSON.parse(
    JSON.stringify(v)
      .replaceAll('YOUR_SQUID_HASH', squid)
      .replaceAll('YOUR_SALES_NAV_ACCOUNT_HASH', accounts)
      .replaceAll('GOOGLE_MAPS_REVIEWS_CRAWLER_HASH', crawlerId('google-maps-reviews-scraper')),
  );
}

const answerOf = (p: Page) => p.samples.find((s) => /^\d+$/.test(s.label));
const keysOf = (t: unknown) =>
  Object.keys((t ?? {}) as J)
    .sort()
    .join();

/** The page's request; of several (yelp-search-export sends a URL task, then a keyword one), the one its answer shows. */
function requestOf(p: Page): J | undefined {
  const sent = p.samples.filter((s) => s.label.startsWith('Request')).map((s) => s.body as J);
  const shown = ((answerOf(p)?.body as J | undefined)?.tasks ?? [])[0]?.params;
  return sent.find((b) => shown && keysOf(b.tasks?.[0]) === keysOf(shown)) ?? sent[0];
}

/** The settings a page sends: its request, or (a page showing only the answer) the fields its answer shows. */
function settingsOf(slug: string): J | undefined {
  const p = PAGES[`examples/${slug}/update-settings`];
  if (!p) return undefined;
  const body = structuredClone(requestOf(p) ?? (answerOf(p)?.body as J | undefined));
  if (!body) return undefined;
  for (const k of ['id', 'crawler', 'status', 'created_at', 'updated_at']) delete body[k];
  return body;
}

/** The tasks the crawler's add-tasks pages send (or their answers show), else one of the crawler's own example. */
function tasksOf(slug: string): J[] {
  for (const [key, p] of Object.entries(PAGES)) {
    if (!key.startsWith(`examples/${slug}/add-task`)) continue;
    const req = requestOf(p);
    if (Array.isArray(req?.tasks)) return req.tasks;
    const shown = (answerOf(p)?.body as J | undefined)?.tasks;
    if (Array.isArray(shown) && shown[0]?.params) return shown.map((t: J) => t.params);
  }
  const def = crawlerDef(slug)!;
  const [name, param] = Object.entries(def.task)[0];
  return [{ [name]: param.example }];
}

async function finish(run: string): Promise<J> {
  for (let i = 0; i < 60; i++) {
    const r = (await e.api('GET', `/v1/runs/${run}`)).body;
    if (['done', 'error', 'aborted'].includes(r.status)) return r;
    await e.advance(10 * RUN_TIMING.taskMs);
  }
  throw new Error(`run ${run} did not finish`);
}

/** get-results: the page's settings and tasks, a run to its end, then the squid's results (or the step that failed). */
async function results(slug: string, squid: string): Promise<{ reply: Reply; problems: string[] }> {
  const settings = settingsOf(slug);
  const steps: [string, () => Promise<Reply>][] = [
    ['settings', () => e.api('POST', `/v1/squids/${squid}`, { params: fill(settings?.params ?? {}, squid, '') })],
    ['tasks', () => e.api('POST', '/v1/tasks', { squid, tasks: tasksOf(slug) })],
    ['run', () => e.api('POST', '/v1/runs', { squid })],
  ];
  for (const [what, step] of steps) {
    if (what === 'settings' && !settings?.params) continue;
    const r = await step();
    if (r.status >= 300) return { reply: r, problems: [`${what}: ${r.status} ${r.text}`] };
    if (what === 'run') expect((await finish(r.body.id)).status).toBe('done');
  }
  return { reply: await e.api('GET', `/v1/results?squid=${squid}&limit=100`), problems: [] };
}

/** Where a result row does not fit the crawler's attributes (a column it does not list, or of another JSON type). */
function rowProblems(slug: string, rows: J[]): string[] {
  const attrs = new Map(crawlerDef(slug)!.attributes.map((a) => [a.name, a.type]));
  const fits: Record<string, string[]> = {
    string: ['string'],
    text: ['string'],
    integer: ['number'],
    float: ['number'],
    boolean: ['boolean'],
    json: ['object', 'array'],
  };
  const out: string[] = [];
  if (!rows.length) out.push('no rows');
  for (const row of rows) {
    for (const [k, v] of Object.entries(row)) {
      if (ROW_KEYS.has(k)) continue;
      const type = attrs.get(k);
      if (!type) out.push(`column ${k} is not an attribute`);
      else if (v !== null && !fits[type].includes(jsonType(v)))
        out.push(`column ${k}: ${jsonType(v)}, attribute of type ${type}`);
    }
  }
  return [...new Set(out)];
}

/** The page's request against the emulator: the answer, or the differences found on the way. */
async function replay(key: string, page: Page): Promise<{ reply: Reply; problems: string[] }> {
  const [, slug, kind] = key.split('/');
  const squid = await squidOf(slug);
  try {
    const path = decodeURIComponent(new URL(page.api[1]).pathname).replace(/\{squid_(hash|id)\}/, squid);
    if (kind === 'get-results') {
      const { reply, problems } = await results(slug, squid);
      return {
        reply,
        problems: problems.length || answerOf(page) ? problems : rowProblems(slug, reply.body?.data ?? []),
      };
    }
    if (kind === 'get-geolocation') {
      const query =
        path === '/v1/googlemaps/locations'
          ? 'country_code=US&region=California'
          : 'q=Alabama&country_name=United%20States';
      return { reply: await e.api('GET', `${path}?${query}`), problems: [] };
    }
    const body =
      kind === 'update-settings'
        ? settingsOf(slug)
        : (requestOf(page) ?? { squid: 'YOUR_SQUID_HASH', tasks: tasksOf(slug) });
    const filled = fill(body, squid, accountOf['sales-nav-sync'] ?? (await account('sales-nav-sync'))) as J;
    if (typeof filled.name === 'string') filled.name = `${filled.name} ${squid.slice(0, 6)}`;
    return { reply: await e.api(page.api[0], path, filled), problems: [] };
  } finally {
    // Every squid holds a slot: the replays make more squids than the plan has.
    await e.api('DELETE', `/v1/squids/${squid}`);
  }
}

/** Each page's differences (status first), as the replays find them. */
const found = new Map<string, string[]>();

describe('examples/ pages replayed against the emulator (docs-examples.json)', () => {
  const keys = Object.keys(PAGES);

  it('the docs have 175 pages of 57 crawlers, and every exception names a page', () => {
    expect(keys).toHaveLength(175);
    expect(new Set(keys.map((k) => k.split('/')[1])).size).toBe(57);
    expect(Object.keys(EXCEPTIONS).filter((k) => !PAGES[k])).toEqual([]);
  });

  for (const key of keys) {
    it(key, async () => {
      const page = PAGES[key];
      const { reply, problems } = await replay(key, page);
      const answer = answerOf(page);
      const want = answer ? Number(answer.label) : 200;
      const status = reply.status === want ? [] : [`status ${reply.status}, sampled ${want}`];
      const diffs = [
        ...problems,
        ...(answer
          ? shapeDiff(answer.body, reply.body)
          : reply.status < 300
            ? []
            : [`status ${reply.status}: ${reply.text}`]),
      ];
      found.set(key, [...status, ...diffs]);
      if (EXCEPTIONS[key]) expect(found.get(key), `${key} is identical now: drop its exception`).not.toEqual([]);
      else expect(found.get(key)).toEqual([]);
    });
  }

  it(`counts: at least ${IDENTICAL} of 175 identical, every other page a named exception`, () => {
    expect(found.size).toBe(175);
    const identical = [...found].filter(([, d]) => !d.length).length;
    const exceptions = Object.keys(EXCEPTIONS).length;
    console.log(`examples pages: ${identical} of 175 identical; ${exceptions} named exceptions`);
    expect(identical).toBeGreaterThanOrEqual(IDENTICAL);
    expect(identical + exceptions).toBe(175);
  });
});
