import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CRAWLERS, DEMO_TOKEN } from '../../src/emulator/seed.js';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';

let e: TestEmu;
beforeAll(async () => {
  e = await startTestEmulator();
});
afterAll(async () => {
  await e.close();
});

describe('auth', () => {
  it('uses the documented demo token by default', () => {
    expect(e.token).toBe(DEMO_TOKEN);
    expect(DEMO_TOKEN).toBe('sq_emulator_demo_token');
  });

  it('answers 401 when the Authorization header is missing', async () => {
    const r = await e.ctl('GET', '/v1/me');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('answers 401 Invalid token for a wrong key', async () => {
    const r = await e.api('GET', '/v1/squids', undefined, { Authorization: 'Token not-the-key' });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ detail: 'Invalid token.' });
  });

  it('does not accept the Bearer scheme', async () => {
    const r = await e.api('GET', '/v1/me', undefined, { Authorization: `Bearer ${DEMO_TOKEN}` });
    expect(r.status).toBe(401);
  });

  it('accepts the right key', async () => {
    const r = await e.api('GET', '/v1/me');
    expect(r.status).toBe(200);
    expect(r.body.email).toBe('demo@sq-emulator.local');
  });

  it('serves crawler attributes without a key (the one public endpoint)', async () => {
    const r = await e.ctl('GET', `/v1/crawlers/${DEMO_CRAWLERS.googleMaps}/attributes`);
    expect(r.status).toBe(200);
    expect(r.body.data.map((a: { name: string }) => a.name)).toContain('score');
    const params = await e.ctl('GET', `/v1/crawlers/${DEMO_CRAWLERS.googleMaps}/params`);
    expect(params.status).toBe(401);
  });

  it('answers 404 {detail:"Not found."} for an unknown route', async () => {
    const r = await e.api('GET', '/v1/nope/nothing');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ detail: 'Not found.' });
    expect((await e.ctl('GET', '/_emulator/nothing')).status).toBe(404);
  });

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const r = await e.api('PUT', '/v1/squids');
    expect(r.status).toBe(405);
    expect(r.body).toEqual({ detail: 'Method "PUT" not allowed.' });
    const raw = await fetch(`${e.baseUrl}/v1/plans/auto-reset`, {
      method: 'DELETE',
      headers: { Authorization: `Token ${e.token}` },
    });
    expect(raw.status).toBe(405);
    expect(raw.headers.get('allow')).toBe('GET, POST');
  });

  it('answers 400 for a body that is not JSON', async () => {
    const r = await e.api('POST', '/v1/squids', '{"crawler": ', { 'Content-Type': 'application/json' });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/JSON parse error/);
  });
});
