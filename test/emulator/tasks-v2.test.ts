// POST /v2/squid/{squid_id}/task, the add-task form of six examples/ pages (Instagram profile and reels, LaCentrale
// cars, LinkedIn posts commenters and profile, Sales Navigator companies): one task, its params the body, answered
// {id, status: "pending", created_at, ...params}. The task is the one POST /v1/tasks would add: listed, run, and
// checked against the crawler's task params.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlerId } from '../../src/emulator/crawlers.js';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';

let e: TestEmu;
let squid: string;
beforeAll(async () => {
  e = await startTestEmulator();
  squid = (await e.api('POST', '/v1/squids', { crawler: crawlerId('instagram-profile-scraper'), name: 'v2 tasks' }))
    .body.id;
});
afterAll(async () => {
  await e.close();
});

describe('POST /v2/squid/{squid_id}/task (examples/instagram-profile-scraper/add-tasks)', () => {
  it("adds the task the body gives, answered as the page shows, and the task is the squid's like any other", async () => {
    const r = await e.api('POST', `/v2/squid/${squid}/task`, { url: 'https://www.instagram.com/leomessi/' });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['created_at', 'id', 'status', 'url']);
    expect(r.body).toMatchObject({ status: 'pending', url: 'https://www.instagram.com/leomessi/' });
    expect(r.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const listed = (await e.api('GET', `/v1/tasks?squid=${squid}`)).body.data;
    expect(listed.map((t: { id: string }) => t.id)).toEqual([r.body.id]);
    expect((await e.api('GET', `/v1/tasks/${r.body.id}`)).status).toBe(200);
  });

  it('adds a task once: the same params again answer the task already there', async () => {
    const first = await e.api('POST', `/v2/squid/${squid}/task`, { url: 'https://www.instagram.com/natgeo/' });
    const again = await e.api('POST', `/v2/squid/${squid}/task`, { url: 'https://www.instagram.com/natgeo/' });
    expect(again.body.id).toBe(first.body.id);
    const urls = (await e.api('GET', `/v1/tasks?squid=${squid}`)).body.data.map(
      (t: { params: { url: string } }) => t.params.url,
    );
    expect(urls.filter((u: string) => u.endsWith('/natgeo/'))).toHaveLength(1);
  });

  it('refuses what POST /v1/tasks refuses, and an unknown squid, and asks for the key like the rest of the API', async () => {
    const unknown = await e.api('POST', `/v2/squid/${squid}/task`, { keyword: 'fitness' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('Unknown task parameter "keyword"');
    expect((await e.api('POST', `/v2/squid/${squid}/task`, {})).status).toBe(400);
    expect(
      (await e.api('POST', `/v2/squid/${'0'.repeat(32)}/task`, { url: 'https://www.instagram.com/x/' })).status,
    ).toBe(404);
    const noKey = await e.api(
      'POST',
      `/v2/squid/${squid}/task`,
      { url: 'https://www.instagram.com/y/' },
      { Authorization: 'Token wrong' },
    );
    expect(noKey.status).toBe(401);
  });
});
