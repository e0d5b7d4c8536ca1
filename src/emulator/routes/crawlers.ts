import { crawlerAttributes, crawlerDetail, crawlerParams, crawlerSummary } from '../crawlers.js';
import type { EmuCore } from '../emu.js';
import { paginate } from '../pagination.js';
import type { EmuRequest } from '../types.js';
import { detail, json } from '../util.js';
import * as store from '../model/store.js';

export function registerCrawlers(emu: EmuCore): void {
  const find = (req: EmuRequest) => store.record(emu, 'crawlers', req.params.hash);
  const missing = () => detail(404, 'Crawler not found.');
  // The free plan caps the account's own records, not the platform's catalogue: the list-crawlers sample pages through
  // 53 crawlers (limit 50, total_pages 2), and 60 here would leave a free account unable to see them all.
  emu.route('GET', '/v1/crawlers', (req) =>
    paginate(req, store.records(emu, 'crawlers'), crawlerSummary, { freePlan: false, style: 'detail' }),
  );
  emu.route('GET', '/v1/crawlers/:hash', (req) => {
    const c = find(req);
    return c ? json(200, crawlerDetail(c)) : missing();
  });
  emu.route('GET', '/v1/crawlers/:hash/params', (req) => {
    const c = find(req);
    return c ? json(200, crawlerParams(c)) : missing();
  });
  emu.route('GET', '/v1/crawlers/:hash/attributes', (req) => {
    const c = find(req);
    return c ? json(200, { data: crawlerAttributes(c) }) : missing();
  });
}
