// The dashboard pages `--web` opens (src/api/dashboard.ts has their URLs): a plain HTML page per record, so a browser
// pointed at the emulator shows what the command would have, and tests can fetch the URL sq printed. No key: a
// browser has none (the live dashboard signs in with a session); the pages show names and states, never secrets.
import type { EmuCore } from '../emu.js';
import type { EmuResponse } from '../types.js';
import * as store from '../model/store.js';

function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(status: number, title: string, rows: [string, unknown][]): EmuResponse {
  const body = rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('');
  return {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
    raw:
      `<!DOCTYPE html>\n<html><head><title>${esc(title)} · sq emulator dashboard</title></head>` +
      `<body><h1>${esc(title)}</h1><table>${body}</table></body></html>\n`,
  };
}

export function registerDashboard(emu: EmuCore): void {
  emu.route('GET', '/dashboard', () =>
    page(200, 'Dashboard', [
      ['user', store.user(emu).email],
      ['squids', store.recordIds(emu, 'squids').length],
    ]),
  );
  emu.route('GET', '/dashboard/squids/:id', (req) => {
    const s = store.record(emu, 'squids', req.params.id);
    if (!s) return page(404, 'Squid not found', [['id', req.params.id]]);
    return page(200, `Squid ${String(s.name)}`, [
      ['id', s.id],
      ['crawler', s.crawler],
      ['active', s.is_active],
    ]);
  });
  emu.route('GET', '/dashboard/runs/:id', (req) => {
    const r = store.record(emu, 'runs', req.params.id);
    if (!r) return page(404, 'Run not found', [['id', req.params.id]]);
    return page(200, `Run ${String(r.id)}`, [
      ['squid', r.squid],
      ['status', r.status],
      ['total_results', r.total_results],
    ]);
  });
  emu.route('GET', '/dashboard/billing/auto-reset', () => {
    const a = store.autoReset(emu);
    return page(200, 'Automatic billing reset', [
      ['enabled', a?.enabled],
      ['threshold_pct', a?.threshold_pct],
      ['max_resets_per_24h', a?.max_resets_per_24h],
    ]);
  });
}
