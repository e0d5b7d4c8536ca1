// In-process: validation (exit 2, zero requests), confirmation and --dry-run for crawlers and squids.
import { beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { parseParams } from '../../src/api/squids.js';

const emu = useEmulator({ each: 'reset' });
/** The seeded Paris squid's params (the crawler's defaults): a params update carries them all. */
const PARIS_PARAMS = {
  max_results: 200,
  country: 'United States',
  ratings: 'Any rating',
  language: 'English (United States)',
  functions: { collect_business_details: false, fetch_business_images: false, extract_emails_from_website: false },
};
let paris: string;
beforeEach(() => {
  paris = emu.squidId(DEMO_SQUIDS.paris);
});

describe('validation happens before any request', () => {
  it.each([
    [
      ['squids', 'update', 'Paris restaurants', '--concurrency', '0'],
      '--concurrency must be an integer from 1 to 20 (got "0")',
    ],
    [['squids', 'update', 'Paris restaurants', '--concurrency', '21'], '--concurrency must be an integer from 1 to 20'],
    [['squids', 'update', 'Paris restaurants', '--concurrency', 'two'], '--concurrency must be an integer'],
    [['squids', 'update', 'Paris restaurants'], 'nothing to update'],
    [['squids', 'update', 'Paris restaurants', '--param', 'novalue'], '--param must look like key=value'],
    [['squids', 'update', 'Paris restaurants', '--param', 'functions.contacts=maybe'], 'must be true or false'],
    [['squids', 'list', '--limit', '0'], '--limit must be an integer'],
    [['squids', 'list', '--page', '0'], '--page must be an integer'],
    [['squids', 'list', '--all', '--limit', '5'], '--all and --limit cannot be used together'],
    [['squids', 'list', '--all', '--page', '2'], '--all and --page cannot be used together'],
    [['squids', 'list', '--page', '2', '--limit', '101'], '--limit must be an integer from 1 to 100'],
    [['crawlers', 'list', '--limit', '-3'], '--limit must be an integer'],
    [
      ['squids', 'empty', 'Paris restaurants', '--type', 'everything', '--yes'],
      "argument 'everything' is invalid. Allowed choices are url, params",
    ],
    [['squids', 'empty', 'Paris restaurants', '--yes'], '--type is required'],
    [['squids', 'create', '--name', 'x'], '--crawler is required'],
    [
      ['squids', 'create', '--crawler', 'google-maps-search-export', '--name', '  '],
      '--name must be a non-empty value',
    ],
  ])('%j → exit 2', async (args, message) => {
    const r = await sq(args, { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await emu.requests()).toEqual([]);
  });
});

describe('confirmation', () => {
  it.each([[['squids', 'delete', 'Paris restaurants']], [['squids', 'empty', 'Paris restaurants', '--type', 'url']]])(
    '%j without --yes and without a terminal: exit 2 naming --yes, zero requests',
    async (args) => {
      const r = await sq(args, { env: emu.env() });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('pass --yes');
      expect(await emu.requests()).toEqual([]);
    },
  );

  it.each([['--yes'], ['-y']])('%s skips the question', async (flag) => {
    emu.expectWrites('DELETE /v1/squids/*');
    const r = await sq(['squids', 'delete', paris, flag, '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: paris, object: 'squid', deleted: true });
  });
});

describe('--dry-run sends nothing', () => {
  it.each([
    [['squids', 'delete', 'PARIS'], { method: 'DELETE', path: '/v1/squids/PARIS', body: null }],
    [
      ['squids', 'empty', 'PARIS', '--type', 'params'],
      { method: 'POST', path: '/v1/squids/PARIS/empty', body: { type: 'params' } },
    ],
    [
      ['squids', 'update', 'PARIS', '--name', 'New'],
      { method: 'POST', path: '/v1/squids/PARIS', body: { name: 'New' } },
    ],
    [
      ['squids', 'create', '--crawler', 'GM', '--name', 'Z'],
      { method: 'POST', path: '/v1/squids', body: { crawler: 'GM', name: 'Z' } },
    ],
  ])('%j with full hashes: no request at all', async (args, planned) => {
    const sub = (s: string) => (s === 'PARIS' ? paris : s === 'GM' ? DEMO_CRAWLERS.googleMaps : s);
    const r = await sq([...args.map(sub), '--dry-run', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    const fix = JSON.parse(
      JSON.stringify(planned).replaceAll('PARIS', paris).replaceAll('"GM"', `"${DEMO_CRAWLERS.googleMaps}"`),
    );
    expect(JSON.parse(r.stdout)).toEqual({ dry_run: true, requests: [fix] });
    expect(r.stderr).toContain('Dry run: nothing was sent.');
    expect(await emu.requests()).toEqual([]);
  });

  it("update --param: reads the squid and its crawler's params to check the keys (GETs only), no write", async () => {
    const r = await sq(
      ['squids', 'update', paris, '--name', 'New', '--param', 'language=01234', '--dry-run', '--json'],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      dry_run: true,
      requests: [
        {
          method: 'POST',
          path: `/v1/squids/${paris}`,
          body: { name: 'New', params: { ...PARIS_PARAMS, language: '01234' } },
        },
      ],
    });
    expect((await emu.requests()).map((q) => `${q.method} ${q.path}`)).toEqual([
      `GET /v1/squids/${paris}`,
      `GET /v1/crawlers/${DEMO_CRAWLERS.googleMaps}/params`,
    ]);
  });

  it('with a name: only the read that resolves it, no write', async () => {
    const r = await sq(['squids', 'delete', 'Paris restaurants', '--dry-run'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`DELETE /v1/squids/${paris}\n`);
    expect((await emu.requests()).map((q) => q.method)).toEqual(['GET']);
  });
});

describe('--param keys', () => {
  it('a key the crawler does not declare is exit 2 with a did-you-mean and the allowed keys; nothing is written', async () => {
    const r = await sq(
      [
        'squids',
        'update',
        'Paris restaurants',
        '--param',
        'max_result=100',
        '--param',
        'functions.extract_email_from_website=true',
        '--param',
        'language=Français (France)',
      ],
      { env: emu.env() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--param max_result: crawler "Google Maps Search Export" has no parameter "max_result"; did you mean "max_results"?',
    );
    expect(r.stderr).toContain(
      '(allowed: max_results, country, ratings, language, functions.collect_business_details, functions.fetch_business_images, ' +
        'functions.extract_emails_from_website)',
    );
    expect(r.stderr).toContain(
      '--param functions.extract_email_from_website: crawler "Google Maps Search Export" has no ' +
        'parameter "functions.extract_email_from_website"; did you mean "functions.extract_emails_from_website"?',
    );
    expect(r.stderr).not.toContain('"language"');
    expect((await emu.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('declared keys go through', async () => {
    const r = await sq(
      [
        'squids',
        'update',
        'Paris restaurants',
        '--param',
        'max_results=100',
        '--param',
        'functions.collect_business_details=true',
      ],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    // The API replaces params whole (api-changelog: the vendor's clients send them whole): the others go along.
    expect((await emu.requests('POST'))[0].body).toEqual({
      params: {
        ...PARIS_PARAMS,
        max_results: 100,
        functions: { ...PARIS_PARAMS.functions, collect_business_details: true },
      },
    });
  });

  it('a param set earlier survives a --param of another key (params updates replace, api-changelog SDK facts)', async () => {
    emu.expectWrites('POST /v1/squids/*');
    expect(
      (await sq(['squids', 'update', 'Paris restaurants', '--param', 'ratings=4.5+'], { env: emu.env() })).code,
    ).toBe(0);
    expect(
      (await sq(['squids', 'update', 'Paris restaurants', '--param', 'max_results=50'], { env: emu.env() })).code,
    ).toBe(0);
    expect(
      (
        await sq(['squids', 'update', 'Paris restaurants', '--param', 'functions.fetch_business_images=true'], {
          env: emu.env(),
        })
      ).code,
    ).toBe(0);
    expect(
      (
        await sq(['squids', 'update', 'Paris restaurants', '--param', 'functions.collect_business_details=true'], {
          env: emu.env(),
        })
      ).code,
    ).toBe(0);
    const live = (await emu.api(`/v1/squids/${emu.squidId('Paris restaurants')}`)).params;
    expect(live).toMatchObject({
      ratings: '4.5+',
      max_results: 50,
      functions: { fetch_business_images: true, collect_business_details: true },
    });
  });
});

describe('--param values', () => {
  it.each([
    ['zip=01234', { zip: '01234' }],
    ['max=5', { max: 5 }],
    ['flag=true', { flag: true }],
    ['ratio=0.5', { ratio: 0.5 }],
    ['empty=', { empty: '' }],
    ['q=a=b', { q: 'a=b' }],
    ['tags=["a","b"]', { tags: ['a', 'b'] }],
    ['text=hello world', { text: 'hello world' }],
    ['none=null', { none: null }],
    ['functions.contacts=false', { functions: { contacts: false } }],
  ])('%s', (pair, expected) => {
    expect(parseParams([pair])).toEqual(expected);
  });
});

describe('paging', () => {
  it('--all fetches every page at 100 and prints no hint', async () => {
    const r = await sq(['squids', 'list', '--all', '--format', 'ndjson'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(6);
    expect(r.stderr).toBe('');
    expect((await emu.requests())[0].query).toEqual({ page: '1', limit: '100' });
  });

  it('--page 2 --limit 2 reads page 2 of size 2 and says which range it showed', async () => {
    const r = await sq(['squids', 'list', '--page', '2', '--limit', '2', '--fields', 'name'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(r.stderr).toContain('Showing 3-4 of 6 squids');
    expect((await emu.requests())[0].query).toEqual({ page: '2', limit: '2' });
  });

  it('--page reads exactly that page, however many records --limit would allow', async () => {
    const r = await sq(['squids', 'list', '--page', '3', '--limit', '2', '--fields', 'name'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(r.stderr).toBe('');
    expect((await emu.requests()).map((q) => q.query)).toEqual([{ page: '3', limit: '2' }]);
  });

  it('--page past the last page says how many records exist', async () => {
    const r = await sq(['squids', 'list', '--page', '9', '--limit', '2', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toBe('Page 9 is past the end: there are 6 squids.\n');
  });

  it('the free-plan warning is printed once on stderr across pages; JSON stdout stays clean', async () => {
    const warning = 'Free plan: only 50 results returned. Upgrade at https://app.lobstr.io/dashboard/pricing';
    const page = {
      total_results: 4,
      total_pages: 2,
      limit: 2,
      data: [
        { id: 'c1', name: 'one' },
        { id: 'c2', name: 'two' },
      ],
      warning,
    };
    await emu.faults([{ method: 'GET', path: '/v1/crawlers', action: 'status', status: 200, body: page }]);
    try {
      const r = await sq(['crawlers', 'list', '--all', '--json'], { env: emu.env() });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).map((c: { id: string }) => c.id)).toEqual(['c1', 'c2', 'c1', 'c2']);
      expect(r.stderr.match(/warning: Free plan: only 50 results returned/g)).toHaveLength(1);
    } finally {
      await emu.clearFaults();
    }
  });
});

describe('squids create', () => {
  it('names the next step on a terminal only: a script reading --json or TSV gets nothing on stderr', async () => {
    emu.expectWrites('POST /v1/squids');
    const onTty = await sq(['squids', 'create', '--crawler', 'google-maps-search-export', '--name', 'Hint A'], {
      env: emu.env(),
      tty: true,
    });
    expect(onTty.code).toBe(0);
    expect(onTty.stderr).toMatch(/^Next: sq tasks add --squid [0-9a-f]{32} <url>…\n$/m);
    for (const format of [['--json'], ['--format', 'tsv']]) {
      const r = await sq(
        ['squids', 'create', '--crawler', 'google-maps-search-export', '--name', `Hint ${format.join('')}`, ...format],
        { env: emu.env() },
      );
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
    }
  });
});
