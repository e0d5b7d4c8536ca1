// --dry-run lives in the HTTP client: reads go out, writes (DELETE included) are recorded and stop the verb.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/api/http.js';
import { DryRunStop } from '../../src/errors.js';
import { useEmulator } from '../helpers/emulator.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
let squid: string;

describe('HttpClient in a dry run', () => {
  let http: HttpClient;
  beforeEach(() => {
    squid = emu.squidId(DEMO_SQUIDS.paris);
    http = new HttpClient({ baseUrl: emu.baseUrl, token: emu.token, dryRun: true });
  });
  afterEach(() => http.close());

  it('sends a GET, records a POST and stops there, sends no write', async () => {
    const rec = await http.get<Record<string, unknown>>(`/v1/squids/${squid}`);
    expect(rec.id).toBe(squid);
    const err = await http.post('/v1/runs', { squid }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DryRunStop);
    expect((err as DryRunStop).planned).toEqual([{ method: 'POST', path: '/v1/runs', body: { squid } }]);
    expect(http.sendsWrites).toBe(false);
    expect((await emu.requests()).map((r) => r.method)).toEqual(['GET']);
  });

  it('a DELETE is a write even though it is retry-safe; dryRunAnswer plans a write and goes on', async () => {
    expect(await http.post('/v1/tasks', { squid, tasks: [{ url: 'a' }] }, { dryRunAnswer: { ok: 1 } })).toEqual({
      ok: 1,
    });
    const err = (await http.delete(`/v1/squids/${squid}`).catch((e: unknown) => e)) as DryRunStop;
    expect(err.planned.map((p) => `${p.method} ${p.path}`)).toEqual(['POST /v1/tasks', `DELETE /v1/squids/${squid}`]);
    expect(await emu.requests()).toEqual([]);
  });

  it('a multipart body is planned as its fields and <file, size>', async () => {
    const form = new FormData();
    form.append('file', new Blob(['url\nhttps://a\n']), 'tasks.csv');
    form.append('squid', squid);
    const err = (await http.post('/v1/tasks/upload', form).catch((e: unknown) => e)) as DryRunStop;
    expect(err.planned[0].body).toEqual({ squid, file: '<tasks.csv, 14 bytes>' });
  });
});
