import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_TIMING } from '../../src/emulator/routes/uploads.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';

let e: TestEmu;
beforeAll(async () => {
  e = await startTestEmulator();
});
afterAll(async () => {
  await e.close();
});

function form(squid: string, name: string, content: string | Uint8Array): FormData {
  const f = new FormData();
  f.append('squid', squid);
  f.append('file', new Blob([content]), name);
  return f;
}

describe('task upload', () => {
  it('CSV: 200 {id}, status 202 with meta null while in progress, then 200 SUCCESS with counts', async () => {
    const squid = e.squidId(DEMO_SQUIDS.lyon);
    const csv =
      'url\r\nhttps://www.google.com/maps/search/boulangerie+lyon\r\n"https://www.google.com/maps/search/croissant,lyon"\r\n' +
      'https://www.google.com/maps/search/boulangerie+lyon\r\nnot a url\r\n';
    const up = await e.api('POST', '/v1/tasks/upload', form(squid, 'tasks.csv', csv));
    expect(up.status).toBe(200);
    expect(Object.keys(up.body).sort()).toEqual(['id', 'object']);
    expect(up.body.object).toBe('task_upload');
    const first = await e.api('GET', `/v1/tasks/upload/${up.body.id}`);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ id: up.body.id, object: 'task_upload', state: 'PENDING', meta: null });
    await e.advance(UPLOAD_TIMING.progressMs);
    const mid = await e.api('GET', `/v1/tasks/upload/${up.body.id}`);
    expect(mid.status).toBe(202);
    expect(mid.body.state).toBe('PROGRESS');
    await e.advance(UPLOAD_TIMING.doneMs);
    const done = await e.api('GET', `/v1/tasks/upload/${up.body.id}`);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      id: up.body.id,
      object: 'task_upload',
      state: 'SUCCESS',
      meta: { duplicates: 1, inserted: 2, invalid: 1, valid: 3 },
    });
    const tasks = (await e.api('GET', `/v1/tasks?squid=${squid}`)).body.data.map(
      (t: { params: { url: string } }) => t.params.url,
    );
    expect(tasks).toContain('https://www.google.com/maps/search/croissant,lyon');
  });

  it('TSV with several columns', async () => {
    const squid = e.squidId(DEMO_SQUIDS.lyon);
    const up = await e.api(
      'POST',
      '/v1/tasks/upload',
      form(squid, 'tasks.tsv', 'category\tcity\nbakery\tLyon\npastry\tLyon\n'),
    );
    await e.advance(UPLOAD_TIMING.doneMs);
    const done = await e.api('GET', `/v1/tasks/upload/${up.body.id}`);
    expect(done.body.meta).toEqual({ duplicates: 0, inserted: 2, invalid: 0, valid: 2 });
  });

  it('rejects a missing file, bad encoding, unknown squid; unknown upload id is 404 ErrB', async () => {
    const squid = e.squidId(DEMO_SQUIDS.lyon);
    const f = new FormData();
    f.append('squid', squid);
    expect((await e.api('POST', '/v1/tasks/upload', f)).body.error.param).toBe('file');
    const latin1 = new Uint8Array([0x75, 0x72, 0x6c, 0x0a, 0xe9, 0xff, 0x0a]);
    const enc = await e.api('POST', '/v1/tasks/upload', form(squid, 't.csv', latin1));
    expect(enc.status).toBe(400);
    expect(enc.body.error.message).toMatch(/BadEncoding/);
    expect((await e.api('POST', '/v1/tasks/upload', form('z'.repeat(32), 't.csv', 'url\nx\n'))).status).toBe(404);
    const unknown = await e.api('GET', '/v1/tasks/upload/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ type: 'not_found_error', param: 'upload_task_id' });
  });
});
