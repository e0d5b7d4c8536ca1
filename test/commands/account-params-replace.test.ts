// sq apply against a params update that REPLACES the squid's params (api-changelog, what the vendor's clients rely
// on; update-squid page): the file's params are compared key by key, so the write carries the live params with the
// file's laid over them, and a new squid's follow the crawler's defaults. Nothing set outside the file is lost.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempFiles } from '../helpers/fs.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
// Each document as YAML in a file of its own (test/helpers/fs.ts).
const write = tempFiles('sq-params-replace-');
let n = 0;
const file = (doc: unknown): string => write(`f${++n}.yaml`, stringify(doc));
const run = (args: string[]) => sq(args, { env: emu.env() });

describe('apply: params updates replace (api-changelog 2026-09 SDK facts; update-squid page)', () => {
  it('a param set earlier (outside the file) survives an apply of another key; the next plan is empty', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    expect(
      (
        await run([
          'squids',
          'update',
          paris,
          '--param',
          'ratings=4.5+',
          '--param',
          'functions.fetch_business_images=true',
        ])
      ).code,
    ).toBe(0);
    const doc = { squids: { [DEMO_SQUIDS.paris]: { params: { max_results: 50 } } } };
    const a = await run(['apply', '-f', file(doc), '--yes']);
    expect(a.code, a.stderr).toBe(0);
    const live = (await emu.api(`/v1/squids/${paris}`)).params;
    expect(live).toMatchObject({
      ratings: '4.5+',
      max_results: 50,
      country: 'United States',
      functions: { fetch_business_images: true },
    });
    const p = await run(['plan', '-f', file(doc)]);
    expect(p.code, p.stdout).toBe(0);
  });

  it("a new squid: the file's params are laid over the crawler's defaults, not sent alone", async () => {
    const doc = {
      squids: {
        'Replace test': {
          crawler: 'google-maps-search-export',
          params: { ratings: '4.5+', functions: { collect_business_details: true } },
        },
      },
    };
    const a = await run(['apply', '-f', file(doc), '--yes']);
    expect(a.code, a.stderr).toBe(0);
    const id = emu.squidId('Replace test');
    // The write itself carries the defaults the create answered with: a strict replace would keep them too.
    const write = (await emu.requests('POST')).find((r) => r.path === `/v1/squids/${id}`);
    expect(write?.body).toMatchObject({
      params: {
        ratings: '4.5+',
        max_results: 200,
        country: 'United States',
        functions: { collect_business_details: true },
      },
    });
    const live = (await emu.api(`/v1/squids/${id}`)).params;
    expect(live).toMatchObject({
      ratings: '4.5+',
      max_results: 200,
      language: 'English (United States)',
      functions: { collect_business_details: true },
    });
    const p = await run(['plan', '-f', file(doc)]);
    expect(p.code, p.stdout).toBe(0);
  });
});
