// sq against the emulator: every crawler and squid verb, asserting the exact request received and the exact output.
// In-process (against: the requests and output are the CLI's own), but for a call with no key, run by the built
// binary.
import { beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { against, withNl } from '../helpers/bin.js';
import { sqBin } from '../helpers/cli.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const { run, calls } = against(emu);
const GM = DEMO_CRAWLERS.googleMaps;
let paris: string;
beforeEach(() => {
  paris = emu.squidId(DEMO_SQUIDS.paris);
});

describe('sq crawlers', () => {
  it('list prints TSV with id first and asks for one page of 30', async () => {
    const r = await run('crawlers', 'list', '--fields', 'id,slug,credits_per_row');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('id\tslug\tcredits_per_row');
    expect(r.stdout).toContain(`${GM}\tgoogle-maps-search-export\t2\n`);
    expect(await calls()).toEqual([
      { method: 'GET', path: '/v1/crawlers', query: { page: '1', limit: '30' }, body: null },
    ]);
  });

  it('get resolves a slug through the list, then reads the crawler', async () => {
    const r = await run('crawlers', 'get', 'google-maps-search-export', '--json');
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c).toMatchObject({ id: GM, slug: 'google-maps-search-export', name: 'Google Maps Search Export' });
    expect(Array.isArray(c.input)).toBe(true);
    expect((await calls()).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v1/crawlers', `GET /v1/crawlers/${GM}`]);
  });

  it('params lists task, squid and function rows, skipping the reserved functions key', async () => {
    const r = await run('crawlers', 'params', GM, '--fields', 'level,name,type');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'level\tname\ttype\n' +
        'task\turl\tstring\ntask\tcity\tstring\ntask\tregion\tstring\ntask\tcountry\tstring\ntask\tcategory\tstring\ntask\tdistrict\tstring\n' +
        'squid\tmax_results\tint\nsquid\tcountry\tstring\nsquid\tratings\tstring\nsquid\tlanguage\tstring\n' +
        'function\tcollect_business_details\t\nfunction\tfetch_business_images\t\nfunction\textract_emails_from_website\t\n',
    );
    expect(await calls()).toEqual([{ method: 'GET', path: `/v1/crawlers/${GM}/params`, query: {}, body: null }]);
  });

  it('attributes works without any API key when given a full id (public endpoint)', async () => {
    const r = withNl(
      await sqBin(['crawlers', 'attributes', GM, '--fields', 'name,type,is_main'], {
        env: { SQ_BASE_URL: emu.baseUrl },
      }),
    );
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['name\ttype\tis_main', 'match_filters\tboolean\ttrue']);
    expect(r.stdout).toContain('email\tstring\tfalse\n');
    const reqs = await emu.requests();
    expect(reqs).toHaveLength(1);
    expect(reqs[0].path).toBe(`/v1/crawlers/${GM}/attributes`);
    expect(reqs[0].headers.authorization).toBeUndefined();
  });
});

describe('sq squids', () => {
  it('list sends the name filter and prints matching squids', async () => {
    const r = await run('squids', 'list', '--name', 'PARIS', '--fields', 'id,name,crawler_name');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`id\tname\tcrawler_name\n${paris}\tParis restaurants\tGoogle Maps Search Export\n`);
    expect(await calls()).toEqual([
      { method: 'GET', path: '/v1/squids', query: { name: 'PARIS', page: '1', limit: '30' }, body: null },
    ]);
  });

  it('list --limit 2 shows two and hints at the rest on stderr only', async () => {
    const r = await run('squids', 'list', '--limit', '2', '--fields', 'name');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(r.stderr).toContain('Showing 2 of 6 squids — use --all or --limit N to see more.');
    expect((await calls())[0].query).toEqual({ page: '1', limit: '2' });
  });

  it('get by exact name prints the full record as JSON', async () => {
    const r = await run('squids', 'get', 'Paris restaurants', '--json');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ id: paris, name: 'Paris restaurants', crawler: GM, concurrency: 1 });
    expect((await calls()).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v1/squids', `GET /v1/squids/${paris}`]);
  });

  it('create resolves the crawler by name and posts its hash', async () => {
    const r = await run(
      'squids',
      'create',
      '--crawler',
      'Google Maps Search Export',
      '--name',
      'Berlin cafes',
      '--json',
    );
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ name: 'Berlin cafes', crawler: GM });
    expect(s.id).toMatch(/^[0-9a-f]{32}$/);
    const post = (await calls()).filter((c) => c.method === 'POST');
    expect(post).toEqual([
      { method: 'POST', path: '/v1/squids', query: {}, body: { crawler: GM, name: 'Berlin cafes' } },
    ]);
  });

  it('update sends only the touched fields with typed --param values (params whole: the API replaces them), then shows the full squid', async () => {
    const r = await run(
      'squids',
      'update',
      paris.slice(0, 8),
      '--concurrency',
      '4',
      // Keys the crawler declares (others are exit 2: squids.test.ts; zip=01234 staying text: the --param values tests).
      '--param',
      'language=Français (France)',
      '--param',
      'max_results=5',
      '--param',
      'functions.collect_business_details=true',
      '--json',
    );
    expect(r.code).toBe(0);
    const posts = (await calls()).filter((c) => c.method === 'POST');
    expect(posts).toEqual([
      {
        method: 'POST',
        path: `/v1/squids/${paris}`,
        query: {},
        // The other params go along (the API replaces params whole): the seeded squid's, the crawler's defaults.
        body: {
          concurrency: 4,
          params: {
            country: 'United States',
            ratings: 'Any rating',
            language: 'Français (France)',
            max_results: 5,
            functions: {
              collect_business_details: true,
              fetch_business_images: false,
              extract_emails_from_website: false,
            },
          },
        },
      },
    ]);
    const s = JSON.parse(r.stdout);
    // The API echoes only touched fields; the re-read record is complete.
    expect(s).toMatchObject({
      id: paris,
      name: 'Paris restaurants',
      concurrency: 4,
      crawler_name: 'Google Maps Search Export',
    });
    expect(s.params).toMatchObject({
      language: 'Français (France)',
      max_results: 5,
      functions: { collect_business_details: true },
    });
    expect((await calls()).at(-1)).toMatchObject({ method: 'GET', path: `/v1/squids/${paris}` });
  });

  it('empty --yes posts the type and reports the count', async () => {
    const r = await run('squids', 'empty', paris, '--type', 'url', '--yes', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: paris, object: 'squid', emptied: true, deleted_count: 2 });
    expect(await calls()).toEqual([
      { method: 'POST', path: `/v1/squids/${paris}/empty`, query: {}, body: { type: 'url' } },
    ]);
  });

  it('delete --yes deletes by full hash without a lookup', async () => {
    const r = await run('squids', 'delete', paris, '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`id\tobject\tdeleted\n${paris}\tsquid\ttrue\n`);
    expect(r.stderr).toContain('Deleted squid');
    expect(await calls()).toEqual([{ method: 'DELETE', path: `/v1/squids/${paris}`, query: {}, body: null }]);
  });

  it('delete without --yes and without a terminal: exit 2, nothing sent', async () => {
    const r = await run('squids', 'delete', 'Paris restaurants');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(await calls()).toEqual([]);
  });
});
