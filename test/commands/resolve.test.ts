// Resolution of squid/crawler references: pure matching rules, then through the CLI against the emulator
// (every page searched, exit codes, candidates listed).
import { beforeEach, describe, expect, it } from 'vitest';
import { pick } from '../../src/api/resolve.js';
import { NotFoundError, UsageError } from '../../src/errors.js';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';

const A = 'aaaa1111000000000000000000000001';
const B = 'aaaa2222000000000000000000000002';
const C = 'cccc0000000000000000000000000003';
const list = [
  { id: A, name: 'Paris' },
  { id: B, name: 'paris' },
  { id: C, name: 'Lyon', slug: 'lyon-slug' },
];
const squidKind = { noun: 'squid', keys: ['name'] };
const crawlerKind = { noun: 'crawler', keys: ['name', 'slug'] };

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describe('pick (matching rules)', () => {
  it.each([
    ['exact id', A, A],
    ['exact name, case-sensitive first', 'Paris', A],
    ['exact name, other case', 'paris', B],
    ['unique case-insensitive name', 'LYON', C],
    ['unique id prefix', 'aaaa1', A],
    ['unique id prefix, upper case', 'CCCC', C],
  ])('%s: %s', (_label, ref, id) => {
    expect(pick(list, ref, squidKind).id).toBe(id);
  });

  it('slug resolves for crawlers only', () => {
    expect(pick(list, 'lyon-slug', crawlerKind).id).toBe(C);
    expect(thrown(() => pick(list, 'lyon-slug', squidKind))).toBeInstanceOf(NotFoundError);
  });

  it('an ambiguous prefix is a usage error listing every candidate', () => {
    const e = thrown(() => pick(list, 'aaaa', squidKind)) as UsageError;
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toContain('"aaaa" is ambiguous: 2 squids');
    expect(e.details).toEqual([`  ${A}  Paris`, `  ${B}  paris`]);
  });

  it("an exact name of one squid that is also another's id prefix is ambiguous, not the name's", () => {
    const named = [...list, { id: 'dddd0000000000000000000000000004', name: 'cccc0000' }];
    const e = thrown(() => pick(named, 'cccc0000', squidKind)) as UsageError;
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toContain('"cccc0000" is ambiguous: 2 squids match it by exact name or id prefix');
    expect(e.details).toEqual(['  dddd0000000000000000000000000004  cccc0000', `  ${C}  Lyon  (lyon-slug)`]);
    // The full id still wins, and so does a name that is no other record's prefix.
    expect(pick(named, C, squidKind).id).toBe(C);
    expect(pick([...list, { id: 'dddd0000000000000000000000000004', name: 'dddd' }], 'dddd', squidKind).id).toBe(
      'dddd0000000000000000000000000004',
    );
  });

  it('a case-insensitive name matching two squids is ambiguous', () => {
    const e = thrown(() => pick(list, 'PARIS', squidKind)) as UsageError;
    expect(e).toBeInstanceOf(UsageError);
    expect(e.details).toHaveLength(2);
  });

  it('prefixes shorter than 4 characters do not match, and the message says so', () => {
    const e = thrown(() => pick(list, 'ccc', squidKind)) as NotFoundError;
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.message).toBe(
      'no squid matches "ccc" (searched 3 squids by id, name; id prefixes need at least 4 characters)',
    );
  });

  it('tolerates records without ids or names', () => {
    expect(pick([{ name: null }, { hash_value: C, name: 'x' }] as never, 'cccc', squidKind).hash_value).toBe(C);
  });
});

describe('resolution through the CLI', () => {
  const emu = useEmulator({ each: 'reset' });
  let paris: string;
  beforeEach(() => {
    paris = emu.squidId(DEMO_SQUIDS.paris);
  });

  it('a name and an id prefix found only on page 2 of the list still resolve', async () => {
    // Created first, so newest-first listing puts it on page 2 once 100 more exist. Its name is hex-like, so the
    // name filter is not used and the full list is scanned.
    // 101 new squids need more slots than the demo plan's 20 (SlotsLimitExceeded otherwise).
    await emu.control('POST', '/_emulator/slots', { total: 200 });
    const old = await emu.api('/v1/squids', {
      method: 'POST',
      body: { crawler: DEMO_CRAWLERS.googleMaps, name: 'deadbeef' },
    });
    for (let i = 0; i < 100; i++)
      await emu.api('/v1/squids', { method: 'POST', body: { crawler: DEMO_CRAWLERS.googleMaps, name: `filler ${i}` } });
    await emu.clearRequests();

    const byName = await sq(['squids', 'get', 'deadbeef', '--json'], { env: emu.env() });
    expect(byName.code).toBe(0);
    expect(JSON.parse(byName.stdout).id).toBe(old.id);
    const reqs = await emu.requests();
    expect(reqs.map((r) => [r.path, (r.query as Record<string, string>).page ?? null])).toEqual([
      ['/v1/squids', '1'],
      ['/v1/squids', '2'],
      [`/v1/squids/${String(old.id)}`, null],
    ]);

    const byPrefix = await sq(['squids', 'get', String(old.id).slice(0, 10), '--fields', 'id', '--format', 'tsv'], {
      env: emu.env(),
    });
    expect(byPrefix.code).toBe(0);
    expect(byPrefix.stdout).toBe(`id\n${String(old.id)}\n`);
  });

  it('an exact name uses the name filter and is case-insensitive when unique', async () => {
    const r = await sq(['squids', 'get', 'paris RESTAURANTS', '--fields', 'id', '--format', 'tsv'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`id\n${paris}\n`);
    expect((await emu.requests())[0].query).toEqual({ name: 'paris RESTAURANTS', page: '1', limit: '100' });
  });

  it('an ambiguous prefix exits 2 and lists the candidates; nothing else is requested', async () => {
    const twins = [
      { id: 'beef0000000000000000000000000001', name: 'Twin one' },
      { id: 'beef0000000000000000000000000002', name: 'Twin two' },
    ];
    await emu.faults([
      {
        method: 'GET',
        path: '/v1/squids',
        action: 'status',
        status: 200,
        body: { total_results: 2, total_pages: 1, page: 1, limit: 100, data: twins, next: null },
      },
    ]);
    const r = await sq(['squids', 'delete', 'beef', '--yes'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"beef" is ambiguous: 2 squids match it');
    expect(r.stderr).toContain('beef0000000000000000000000000001  Twin one');
    expect(r.stderr).toContain('beef0000000000000000000000000002  Twin two');
    expect((await emu.requests()).map((q) => q.method)).toEqual(['GET']);
  });

  it("a squid named like another squid's id prefix: that prefix is ambiguous (exit 2), and nothing is deleted", async () => {
    const prefix = paris.slice(0, 8);
    const other = await emu.api('/v1/squids', {
      method: 'POST',
      body: { crawler: DEMO_CRAWLERS.googleMaps, name: prefix },
    });
    await emu.clearRequests();
    const r = await sq(['squids', 'delete', prefix, '--yes'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"${prefix}" is ambiguous: 2 squids match it by exact name or id prefix`);
    expect(r.stderr).toContain(`${String(other.id)}  ${prefix}`);
    expect(r.stderr).toContain(`${paris}  ${DEMO_SQUIDS.paris}`);
    expect((await emu.requests()).map((q) => q.method)).toEqual(['GET']);
    const full = await sq(['squids', 'get', paris, '--fields', 'id', '--format', 'tsv'], { env: emu.env() });
    expect(full.stdout).toBe(`id\n${paris}\n`);
  });

  it('an unknown squid exits 3 naming what was searched', async () => {
    const r = await sq(['squids', 'get', 'No such squid'], { env: emu.env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no squid matches "No such squid" (searched 6 squids by id, name)');
  });

  it('crawlers resolve by slug, name and prefix; unknown exits 3', async () => {
    for (const ref of [
      'google-maps-search-export',
      'Google Maps Search Export',
      'google maps search export',
      DEMO_CRAWLERS.googleMaps.slice(0, 6),
    ]) {
      const r = await sq(['crawlers', 'get', ref, '--fields', 'id', '--format', 'tsv'], { env: emu.env() });
      expect([ref, r.code, r.stdout]).toEqual([ref, 0, `id\n${DEMO_CRAWLERS.googleMaps}\n`]);
    }
    const r = await sq(['crawlers', 'get', 'nope-crawler'], { env: emu.env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no crawler matches "nope-crawler" (searched 60 crawlers by id, name, slug)');
  });
});
