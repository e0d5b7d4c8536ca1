// The account's credit views from the changelog (2026-05-12, 2026-06-02); no docs page samples them, so their shapes
// are inferred (docs/emulator.md). GET /v1/runs/{id}/credits is with the runs.
import type { EmuCore } from '../emu.js';
import { modulesView, squidRows, squidRunRows } from '../credits.js';
import { paginate } from '../pagination.js';
import { detail, json } from '../util.js';
import { findSquid } from './common.js';

export function registerCredits(emu: EmuCore): void {
  emu.route('GET', '/v1/credits/modules', (req) => {
    const raw = req.query.get('days');
    if (raw !== null && !/^\s*\d+\s*$/.test(raw)) return detail(400, 'days must be a positive integer.');
    const days = raw === null ? null : Number(raw);
    if (days !== null && days < 1) return detail(400, 'days must be a positive integer.');
    return json(200, modulesView(emu, days));
  });

  emu.route('GET', '/v1/credits/squids', (req) =>
    paginate(req, squidRows(emu), (r) => r, { freePlan: emu.config.freePlan, style: 'detail' }),
  );

  emu.route('GET', '/v1/squids/:hash/credits', (req) => {
    const f = findSquid(emu, req.params.hash, 'squid_hash');
    return (
      f.res ??
      paginate(req, squidRunRows(emu, String(f.rec.id)), (r) => r, { freePlan: emu.config.freePlan, style: 'errB' })
    );
  });
}
