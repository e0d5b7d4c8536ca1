// POST /v1/squid/estimate: the squid's estimate (estimate.ts) for the request's squid, which must hold a task.
import type { EmuCore } from '../emu.js';
import type { EmuResponse } from '../types.js';
import { defOf } from '../crawlers.js';
import { estimateSquid } from '../estimate.js';
import { errB, json } from '../util.js';
import { bodyObject, findSquid } from './common.js';
import * as store from '../model/store.js';

export function registerEstimate(emu: EmuCore): void {
  emu.route('POST', '/v1/squid/estimate', (req): EmuResponse => {
    const f = findSquid(emu, bodyObject(req).squid);
    if (f.res) return f.res;
    const crawler = store.record(emu, 'crawlers', String(f.rec.crawler));
    if (!crawler) return errB(404, 'Crawler not found (ModuleNotFound).', 'squid');
    if (!store.records(emu, 'tasks').some((t) => t.squid === f.rec.id && t.is_active !== false))
      return errB(400, 'This squid has no tasks; add tasks before estimating a run (NoTasksPresent).', 'squid');
    return json(200, estimateSquid(emu, f.rec, defOf(crawler)));
  });
}
