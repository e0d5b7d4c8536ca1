// An id or a param name that is a prototype member ("constructor", "toString", "hasOwnProperty") names nothing: the
// model's store looks records up by own key only (src/emulator/model/store.ts), and a task's params are checked as
// own keys of its crawler's. Before, such ids found Object.prototype's members: a task, an account, a sync and an
// upload "existed", deletes answered 200, a chain targeted the crawler "Object", and crawler pages crashed (500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';

let e: TestEmu;
beforeAll(async () => {
  e = await startTestEmulator();
});
afterAll(async () => {
  await e.close();
});

describe('prototype names are not ids', () => {
  it.each([
    ['GET', '/v1/tasks/constructor'],
    ['DELETE', '/v1/tasks/toString'],
    ['GET', '/v1/runs/constructor'],
    ['GET', '/v1/accounts/constructor'],
    ['DELETE', '/v1/accounts/hasOwnProperty'],
    ['GET', '/v1/crawlers/constructor'],
    ['GET', '/v1/crawlers/constructor/params'],
    ['GET', '/v1/synchronize/constructor'],
    ['GET', '/v1/tasks/upload/constructor'],
    ['GET', '/v1/squids/constructor/chain'],
  ])('%s %s is 404', async (method, path) => {
    expect((await e.api(method, path)).status).toBe(404);
  });

  it('a squid of crawler "constructor", or a chain to it, is refused as an unknown crawler', async () => {
    const squid = await e.api('POST', '/v1/squids', { crawler: 'constructor', name: 'x' });
    expect(squid.status).toBe(404);
    expect(squid.body.error.message).toMatch(/ModuleNotFound/);
    const chain = await e.api('POST', `/v1/squids/${e.squidId('Paris restaurants')}/chain`, {
      target_module_id: 'constructor',
      field_map: { url: 'url' },
    });
    expect(chain.status).toBe(404);
  });

  it('a task param named "constructor" is unknown to the crawler', async () => {
    const r = await e.api('POST', '/v1/tasks', {
      squid: e.squidId('Paris restaurants'),
      tasks: [{ constructor: 'x' }],
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/Unknown task parameter "constructor"/);
  });
});

// Every key the emulator checks against a table is an own key of it (Object.hasOwn): the update's fields, a crawler's
// squid params, a location's country code, a webhook's events. A body's "__proto__" is sent as JSON text, so that it
// arrives as the own key JSON.parse makes of it.
describe('prototype names are not fields, params or codes', () => {
  const squid = () => e.squidId('Paris restaurants');
  const post = (path: string, json: string) => e.api('POST', path, json, { 'Content-Type': 'application/json' });

  it.each(['constructor', 'toString', '__proto__'])(
    'an update field or a squid param "%s" is refused (400)',
    async (k) => {
      const field = await post(`/v1/squids/${squid()}`, `{${JSON.stringify(k)}: {}}`);
      expect(field.status, field.text).toBe(400);
      expect(field.body.error.message).toContain(`Unknown field "${k}"`);
      const param = await post(`/v1/squids/${squid()}`, `{"params": {${JSON.stringify(k)}: 1}}`);
      expect(param.status, param.text).toBe(400);
      expect(param.body.error.message).toContain(`Unknown parameter "${k}"`);
    },
  );

  it.each(['constructor', 'toString', '__proto__'])('a task param "%s" is refused (400)', async (k) => {
    const r = await post('/v1/tasks', `{"squid": "${squid()}", "tasks": [{${JSON.stringify(k)}: "x"}]}`);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.message).toContain(`Unknown task parameter "${k}"`);
  });

  it('a country code "__proto__" or "constructor" is unknown (400)', async () => {
    for (const code of ['__proto__', 'constructor']) {
      const r = await e.api('GET', `/v1/googlemaps/locations?country_code=${code}`);
      expect(r.status, code).toBe(400);
      expect(r.text).toMatch(/Unknown country_code/);
    }
  });
});
