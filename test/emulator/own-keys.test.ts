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
