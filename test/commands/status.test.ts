// `sq status` (issue 11 #7): the account on one screen from the emulator's real state, and one stable JSON object.
import { beforeEach, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });
const REASON = 'no_account_available: Every account reached its daily limit; the run resumes when it resets.';
let paused: J;
let failed: J;

beforeEach(async () => {
  // A paused run (its account's daily limit is spent), auto-reset on, and the seed's failed run of "Job board watch".
  paused = await emu.api('/v1/runs', { method: 'POST', body: { squid: emu.squidId(DEMO_SQUIDS.leads) } });
  for (let i = 0; i < 10 && (await emu.api(`/v1/runs/${paused.id}`)).status !== 'paused'; i++) await emu.advance(1000);
  expect((await emu.api(`/v1/runs/${paused.id}`)).status).toBe('paused');
  await emu.api('/v1/plans/auto-reset', {
    method: 'POST',
    body: { enabled: true, threshold_pct: 90, max_resets_per_24h: 2 },
  });
  failed = (await emu.api(`/v1/runs?squid=${emu.squidId(DEMO_SQUIDS.jobs)}`)).data.find((r: J) => r.status === 'error');
  expect(failed).toBeDefined();
  await emu.clearRequests();
});

it('prints one screen: user and plan, credits, auto-reset, the paused run with its reason, the failed run', async () => {
  const r = await sq(['status'], { env: emu.env() });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const out = r.stdout;
  expect(out).toContain('Account\n  Ada Demo <demo@sq-emulator.local>  plan Premium (active)\n');
  expect(out).toMatch(/\nCredits\n {2}[\d,]+ of 10,000 used \(\d+(\.\d)?%\), [\d,]+ remaining; resets \S+\n/);
  expect(out).toContain('\nAuto-reset\n  on at 90% usage; 0 of 2 resets used in 24h');
  expect(out).toContain(`\nRuns in progress (1)\n  ${paused.id}  paused  ${DEMO_SQUIDS.leads}  `);
  expect(out).toContain(`\n      ${REASON}\n`);
  expect(out).toContain(
    `\nLatest failed runs (1)\n  ${failed.id}  error  ${DEMO_SQUIDS.jobs}  ${failed.ended_at}\n      error: ${failed.done_reason_desc}\n`,
  );
  expect(out).toContain('\nFailing deliveries (0)\n  no failed export in the 20 most recent runs\n');
  expect(out).toContain('delivery outcomes are not reported by the API');
});

it('--json is one object with the documented keys, and the reads are bounded', async () => {
  const r = await sq(['status', '--json'], { env: emu.env() });
  expect(r.code).toBe(0);
  const s = JSON.parse(r.stdout);
  expect(Object.keys(s)).toEqual([
    'user',
    'credits',
    'auto_reset',
    'window_resets',
    'runs_in_progress',
    'failed_runs',
    'failing_deliveries',
    'partial',
  ]);
  expect(s.window_resets).toEqual([]);
  expect(s.user).toEqual({ name: 'Ada Demo', email: 'demo@sq-emulator.local', plan: 'Premium', plan_status: 'active' });
  expect(Object.keys(s.credits)).toEqual(['available', 'consumed', 'remaining', 'used_pct', 'reset_time']);
  expect(s.credits.remaining).toBe(s.credits.available - s.credits.consumed);
  expect(s.auto_reset).toMatchObject({
    enabled: true,
    threshold_pct: 90,
    max_resets_per_24h: 2,
    resets_used_in_window: 0,
  });
  expect(s.runs_in_progress).toEqual([
    expect.objectContaining({
      id: paused.id,
      status: 'paused',
      squid_name: DEMO_SQUIDS.leads,
      done_reason: 'no_account_available',
    }),
  ]);
  expect(s.failed_runs.map((x: J) => [x.id, x.done_reason_desc])).toEqual([[failed.id, failed.done_reason_desc]]);
  expect(s.failing_deliveries).toEqual([]);
  expect(s.partial).toBeNull();
  const reqs = await emu.requests();
  expect(reqs.every((q) => q.method === 'GET')).toBe(true);
  // me, balance, auto-reset, one squid page, and one runs read per squid that has runs (5 here: the demo seed's 4
  // and the paused one's) at most
  expect(reqs.length).toBeLessThanOrEqual(9);
});

it('a run whose export failed is listed under failing deliveries', async () => {
  const broken = {
    id: 'e1e1e1e1000000000000000000000001',
    squid: emu.squidId(DEMO_SQUIDS.paris),
    status: 'done',
    done_reason: 'export_failed',
    done_reason_desc: 'SFTP upload failed',
    created_at: '2099-01-01T00:00:00',
    ended_at: '2099-01-01T00:01:00',
  };
  await emu.faults([
    {
      method: 'GET',
      path: '/v1/runs',
      action: 'status',
      status: 200,
      body: { total_results: 1, total_pages: 1, page: 1, limit: 20, next: null, data: [broken] },
    },
  ]);
  const r = await sq(['status', '--json'], { env: emu.env() });
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).failing_deliveries).toEqual([
    expect.objectContaining({ id: broken.id, done_reason: 'export_failed', done_reason_desc: 'SFTP upload failed' }),
  ]);
  const text = await sq(['status'], { env: emu.env() });
  expect(text.stdout).toContain(`\nFailing deliveries (1)\n  ${broken.id}  done  `);
  expect(text.stdout).toContain('\n      export_failed: SFTP upload failed\n');
});

it('on a terminal, no line is wider than the screen', async () => {
  const r = await sq(['status'], { env: emu.env(), tty: true });
  expect(r.code).toBe(0);
  // eslint-disable-next-line no-control-regex
  for (const line of r.stdout.replace(/\x1b\[[0-9;]*m/g, '').split('\n'))
    expect([...line].length).toBeLessThanOrEqual(120);
});

it('--fields picks from the document in the default output too (a record), and an unknown name is exit 2', async () => {
  const r = await sq(['status', '--fields', 'user.email,auto_reset.enabled'], { env: emu.env() });
  expect([r.code, r.stdout]).toEqual([0, 'user.email\tauto_reset.enabled\ndemo@sq-emulator.local\ttrue\n']);
  const bad = await sq(['status', '--fields', 'bogus'], { env: emu.env() });
  expect(bad.code).toBe(2);
  expect(bad.stdout).toBe('');
  expect(bad.stderr).toContain('--fields: unknown field "bogus"; valid fields: user.name, user.email,');
});

it('on a narrow terminal every line fits the width, a cut one ending in "…"', async () => {
  const r = await sq(['status', '--no-color'], { env: emu.env(), tty: true, columns: 40 });
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines.every((l) => [...l].length <= 40)).toBe(true);
  expect(lines).toContain('Runs in progress (1)');
  const line = lines.find((l) => l.startsWith(`  ${paused.id.slice(0, 8)}`));
  expect(line).toMatch(new RegExp(`^ {2}${paused.id.slice(0, 8)} {2}paused {2}CTO leads {2}start.*…$`));
  expect([...line!].length).toBe(40);
});

it('on a terminal, for a person (issue 48): plan and credits with a bar, progress, short ids, the failure reason whole', async () => {
  const r = await sq(['status', '--no-color'], { env: emu.env(), tty: true, columns: 80 });
  expect(r.code).toBe(0);
  const out = r.stdout;
  expect(out).toMatch(/^Premium \(active\) {2}[█░]{12} \d+(\.\d)?% used {2}[\d,]+ of 10,000 credits left/m);
  expect(out).toMatch(/^Auto-reset on at 90% usage, charges the card: \d+ of 2 resets used in 24 h/m);
  // Short ids, relative times, the run's progress from its stats.
  expect(out).not.toMatch(/[0-9a-f]{32}/);
  expect(out).toMatch(
    new RegExp(
      `^ {2}${paused.id.slice(0, 8)} {2}paused {2}CTO leads {2}started (just now|\\d+ (s|min) ago) {2}\\d+%`,
      'm',
    ),
  );
  expect(out).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  // The reason in full, wrapped at the width, never cut.
  const reason = String(failed.done_reason_desc);
  expect(out.replace(/\n {4}/g, ' ')).toContain(reason);
  expect(out).not.toContain('…');
  for (const line of out.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
});

it('--json on a terminal is the same document as piped', async () => {
  const tty = await sq(['status', '--json'], { env: emu.env(), tty: true });
  const piped = await sq(['status', '--json'], { env: emu.env() });
  expect(Object.keys(JSON.parse(tty.stdout))).toEqual(Object.keys(JSON.parse(piped.stdout)));
  expect(Object.keys(JSON.parse(piped.stdout))).toEqual([
    'user',
    'credits',
    'auto_reset',
    'window_resets',
    'runs_in_progress',
    'failed_runs',
    'failing_deliveries',
    'partial',
  ]);
});
