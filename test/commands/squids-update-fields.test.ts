// Every field the vendor's docs update a squid with has a `sq squids update` flag that sends it: the update-squid
// page's sample and the request bodies of the examples/ update-settings pages (test/fixtures), walked field by field.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { crawlerId } from '../../src/emulator/crawlers.js';

const emu = useEmulator();
const fixture = (name: string) =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures', name), 'utf8')) as {
    pages: Record<string, { samples: { label: string; body: unknown }[] }>;
  };

/** The update fields the docs send: the update-squid page's sample, and each update-settings page's request body. */
function documentedFields(): string[] {
  const keys = new Set<string>();
  const add = (body: unknown) => {
    if (body && typeof body === 'object' && !Array.isArray(body)) for (const k of Object.keys(body)) keys.add(k);
  };
  for (const s of fixture('docs-samples.json').pages['update-squid'].samples) add(s.body);
  for (const [page, p] of Object.entries(fixture('docs-examples.json').pages)) {
    if (page.endsWith('/update-settings')) for (const s of p.samples) if (s.label.startsWith('Request')) add(s.body);
  }
  // The update body of the API reference names the schedule's expression too (its zone is in a sample above).
  keys.add('cron_expression');
  return [...keys].sort();
}

/** The flags that send each field, and the value the request then carries. */
const FLAGS: Record<string, { args: string[]; value: unknown }> = {
  name: { args: ['--name', 'Renamed'], value: 'Renamed' },
  concurrency: { args: ['--concurrency', '3'], value: 3 },
  params: { args: ['--param', 'max_results=5'], value: expect.objectContaining({ max_results: 5 }) },
  to_complete: { args: ['--to-complete'], value: true },
  no_line_breaks: { args: ['--no-line-breaks'], value: true },
  export_unique_results: { args: ['--export-unique-results'], value: true },
  run_notify: { args: ['--run-notify', 'on_error'], value: 'on_error' },
  is_active: { args: ['--inactive'], value: false },
  cron_expression: { args: ['--schedule', '0 9 * * 1'], value: '0 9 * * 1' },
  timezone: { args: ['--timezone', 'Europe/Paris'], value: 'Europe/Paris' },
  accounts: { args: ['--no-accounts'], value: [] },
};

describe('sq squids update: a flag for every documented update field', () => {
  const fields = documentedFields();

  it('the docs name the fields this test knows (a new one fails here until it has a flag)', () => {
    expect(fields.length).toBeGreaterThanOrEqual(10);
    expect(
      fields.filter((f) => !(f in FLAGS)),
      'documented update fields without a flag',
    ).toEqual([]);
  });

  it.each(fields.filter((f) => f in FLAGS))('%s: its flag sends it (--dry-run)', async (field) => {
    const { args, value } = FLAGS[field];
    const r = await sq(['squids', 'update', 'Paris restaurants', ...args, '--dry-run', '--json'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    const bodies = JSON.parse(r.stdout).requests.map((q: { body: Record<string, unknown> }) => q.body);
    expect(bodies.find((b: Record<string, unknown>) => field in b)?.[field]).toEqual(value);
  });

  it('--run-notify none clears it; an unknown value is exit 2 naming the allowed ones, before any request', async () => {
    const none = await sq(
      [
        'squids',
        'update',
        'Paris restaurants',
        '--run-notify',
        'none',
        '--no-export-unique-results',
        '--dry-run',
        '--json',
      ],
      { env: emu.env() },
    );
    expect(JSON.parse(none.stdout).requests[0].body).toEqual({ run_notify: null, export_unique_results: false });
    await emu.clearRequests();
    const bad = await sq(['squids', 'update', 'Paris restaurants', '--run-notify', 'sometimes'], { env: emu.env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--run-notify must be one of on_success, on_error, none');
    const both = await sq(['squids', 'update', 'Paris restaurants', '--active', '--inactive'], { env: emu.env() });
    expect(both.code).toBe(2);
    expect(await emu.requests()).toEqual([]);
  });

  it('--active on a scheduled squid turns its schedule on: estimated and capped before the write (exit 9, still inactive)', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const id = emu.squidId('Paris restaurants');
    await emu.api(`/v1/squids/${id}`, {
      method: 'POST',
      body: { is_active: false, cron_expression: '0 9 * * 1', timezone: 'UTC' },
    });
    const r = await sq(['squids', 'update', id, '--active', '--max-credits', '0.0001'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(9);
    expect(r.stderr).toMatch(/estimate/i);
    expect((await emu.api(`/v1/squids/${id}`)).is_active).toBe(false);
    const ok = await sq(['squids', 'update', id, '--active', '--max-credits', '100000'], { env: emu.env() });
    expect(ok.code, ok.stderr).toBe(0);
    expect((await emu.api(`/v1/squids/${id}`)).is_active).toBe(true);
  });

  it('applied for real: the squid record has them', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const id = emu.squidId('Paris restaurants');
    const r = await sq(['squids', 'update', id, '--export-unique-results', '--run-notify', 'on_success', '--json'], {
      env: emu.env(),
    });
    expect(r.code, r.stderr).toBe(0);
    const s = await emu.api(`/v1/squids/${id}`);
    expect(s.export_unique_results).toBe(true);
    expect(s.notifications_params.run_notify).toBe('on_success');
  });
});

// A crawler answers its updates as its own update page shows (docs/emulator.md, "The update's answer"): the whole
// squid, the settings record (with 200 for the update-squid page's crawler) or an echo. sq's update takes any of them.
describe("sq squids update on each crawler's update answer", () => {
  it.each(['tiktok-video-scraper', 'google-news-search-export', 'google-maps-search-export', 'amazon-reviews-scraper'])(
    '%s: the update is made',
    async (slug) => {
      const id = (await emu.api('POST', '/v1/squids', { crawler: crawlerId(slug), name: `upd ${slug}` })).body.id;
      const name = `renamed ${slug}`;
      emu.expectWrites('POST /v1/squids/*');
      const r = await sq(['squids', 'update', id, '--name', name, '--to-complete', '--json'], { env: emu.env() });
      expect(r.code, r.stderr).toBe(0);
      expect((await emu.api('GET', `/v1/squids/${id}`)).body).toMatchObject({ name, to_complete: true });
      await emu.api('DELETE', `/v1/squids/${id}`);
    },
  );
});
