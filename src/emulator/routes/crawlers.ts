import { crawlerAttributes, crawlerDetail, crawlerParams, crawlerSummary } from '../crawlers.js';
import type { EmuCore } from '../emu.js';
import { paginate } from '../pagination.js';
import type { EmuRequest } from '../types.js';
import { detail, json } from '../util.js';

export function registerCrawlers(emu: EmuCore): void {
  const find = (req: EmuRequest) => emu.state.crawlers[req.params.hash];
  const missing = () => detail(404, 'Crawler not found.');
  emu.route('GET', '/v1/crawlers', (req) =>
    paginate(req, Object.values(emu.state.crawlers), crawlerSummary, { freePlan: emu.config.freePlan, style: 'detail' }),
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
