// What the agent tools say (issue 48): nicknames find a platform's crawlers, and an error names the tool's own
// arguments rather than the CLI flags the tool ran.
import { describe, expect, it } from 'vitest';
import { searchCrawlers } from '../../src/mcp/tools/crawlers.js';
import { argNames } from '../../src/mcp/calls.js';
import { deliverySftp } from '../../src/mcp/tools/delivery.js';
import { tasksAdd } from '../../src/mcp/tools/tasks.js';
import { z } from '../../src/mcp/sdk.js';
import type { Crawler } from '../../src/api/records.js';

const crawlers = [
  { id: '1', name: 'Sales Navigator Leads Scraper', slug: 'sales-navigator-leads-scraper' },
  { id: '2', name: 'Twitter Profile Scraper', slug: 'twitter-profile-scraper' },
  { id: '3', name: 'Google Maps Search Export', slug: 'google-maps-search-export' },
  { id: '4', name: 'Amazon Products Scraper', slug: 'amazon-products' },
] as Crawler[];

describe('crawlers_search: platform nicknames', () => {
  it.each([
    ['linkedin', '1'],
    ['x', '2'],
    ['gmaps', '3'],
    ['linkedin leads', '1'],
  ])('%s finds crawler %s', (query, id) => {
    const r = searchCrawlers(crawlers, query);
    expect(r.exact).toBe(true);
    expect(r.items.map((c) => c.id)).toEqual([id]);
  });
  it('"x" is a word, not a letter of "export"', () => {
    expect(searchCrawlers(crawlers, 'x').items.map((c) => c.id)).not.toContain('3');
  });
});

describe("tool errors name the tool's arguments", () => {
  it('--password-env is "password_env", --param is "params" where the tool has it; other flags stay', () => {
    const sftp = argNames(deliverySftp, { z });
    expect(sftp('--password-env SFTP_PW is not set; --port must be 1-65535; --show-secrets')).toBe(
      '"password_env" SFTP_PW is not set; "port" must be 1-65535; --show-secrets',
    );
    expect(sftp('set it with `sq delivery sftp --password-env X`')).toBe(
      'set it with `sq delivery sftp --password-env X`',
    );
    const tasks = argNames(tasksAdd, { z });
    expect(tasks('--key "city" is not a task input; --file: not JSON')).toBe(
      '"key" "city" is not a task input; "tasks": not JSON',
    );
  });
});
