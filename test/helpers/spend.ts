// The squid the spend tests price: a Google Maps squid as a new user makes it (params at the crawler's defaults, so
// the paid emails function is on) with two tasks, about 100 credits a run.
import { DEMO_CRAWLERS } from '../../src/emulator/seed.js';
import type { TestEmulator } from './emulator.js';

/** Creates "Berlin cafés" (and its two tasks unless `tasks: false`) through the API; its id. */
export async function berlinSquid(emu: Pick<TestEmulator, 'api'>, opts: { tasks?: boolean } = {}): Promise<string> {
  const s = await emu.api('/v1/squids', {
    method: 'POST',
    body: { crawler: DEMO_CRAWLERS.googleMaps, name: 'Berlin cafés' },
  });
  await emu.api(`/v1/squids/${s.id}`, { method: 'POST', body: { params: {} } });
  if (opts.tasks !== false) {
    await emu.api('/v1/tasks', {
      method: 'POST',
      body: {
        squid: s.id,
        tasks: [
          { url: 'https://www.google.com/maps/search/cafe+berlin' },
          { url: 'https://www.google.com/maps/search/bakery+berlin' },
        ],
      },
    });
  }
  return s.id;
}
