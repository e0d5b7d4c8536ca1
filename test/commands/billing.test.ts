// sq billing auto-reset: show, keep `enabled` unless told, confirmation before charges, validation before any
// request, dry run, and a POST that is never retried.
import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';

const emu = useEmulator({ each: 'reset' });
let env: Record<string, string>;
beforeAll(() => {
  env = emu.env();
});

const posts = async () =>
  (await emu.requests()).filter((r) => r.method === 'POST' && r.path === '/v1/plans/auto-reset');
const FIELDS = [
  'enabled',
  'threshold_pct',
  'max_resets_per_24h',
  'resets_used_in_window',
  'window_resets_at',
  'current_usage_pct',
];

describe('show', () => {
  it('--json is exactly the API object', async () => {
    const r = await sq(['billing', 'auto-reset', '--json'], { env });
    expect(r.code).toBe(0);
    const api = await emu.api('/v1/plans/auto-reset');
    expect(JSON.parse(r.stdout)).toEqual(api);
    expect(Object.keys(api).sort()).toEqual([...FIELDS].sort());
  });

  it('on a terminal, every field with what it means', async () => {
    const r = await sq(['billing', 'auto-reset'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    expect(r.code).toBe(0);
    for (const f of FIELDS) expect(r.stdout).toContain(f);
    expect(r.stdout).toMatch(/rolling 24 hours/);
    expect(r.stdout).toMatch(/window_resets_at\s+none/);
    expect(r.stderr).toMatch(/charges the card on file/);
  });

  it('on a terminal, beside the settings: allowance, usage, credits before the next reset and what it charges, resets left', async () => {
    const off = await sq(['billing', 'auto-reset'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    expect(off.stderr).toContain('Allowance: 10,000 credits (plan Premium); used now: 2,500 (25%).');
    expect(off.stderr).toContain('Automatic reset is off: no reset fires');
    const autoReset = {
      enabled: true,
      threshold_pct: 80,
      max_resets_per_24h: 3,
      reset_times: [emu.emu.clock.now() - 60_000],
    };
    await emu.control('POST', '/_emulator/billing', { auto_reset: autoReset });
    const on = await sq(['billing', 'auto-reset'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    expect(on.stderr).toContain(
      'The next reset fires after 5,500 more credits (usage above 80%) and charges the card on file for a renewal of plan Premium.',
    );
    expect(on.stderr).toContain('Resets left in the 24-hour window: 2 of 3.');
    // Piped or --json: the API object alone, and no balance request.
    await emu.clearRequests();
    await sq(['billing', 'auto-reset', '--json'], { env });
    expect((await emu.requests()).map((q) => q.path)).toEqual(['/v1/plans/auto-reset']);
  });

  it('settings without some of the spec\'s six fields: what they decide is UNKNOWN, never "off" or "0 left"', async () => {
    await emu.faults([
      {
        method: 'GET',
        path: '/v1/plans/auto-reset',
        action: 'status',
        status: 200,
        body: { threshold_pct: 80, current_usage_pct: 25 },
      },
    ]);
    const r = await sq(['billing', 'auto-reset'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Whether automatic reset is on is UNKNOWN (the API did not say)');
    expect(r.stderr).toContain(
      'Resets left in the 24-hour window: UNKNOWN (the API did not give max_resets_per_24h and resets_used_in_window).',
    );
    expect(r.stderr).not.toContain('Automatic reset is off');
    const st = await sq(['status'], { env: { ...env, NO_COLOR: '1' } });
    expect(st.stdout).toContain('UNKNOWN whether on (the API did not say); threshold 80%, at most ? resets in 24h');
  });
});

describe('validation before any request', () => {
  it.each([
    [['--threshold', '0'], /--threshold must be an integer from 1 to 100 \(got "0"\)/],
    [['--threshold', '101'], /--threshold must be an integer from 1 to 100/],
    [['--threshold', '1.5'], /--threshold must be an integer from 1 to 100/],
    [['--threshold', 'abc'], /--threshold must be an integer from 1 to 100/],
    [['--max-resets', '0'], /--max-resets must be an integer from 1 to 10/],
    [['--max-resets', '11'], /--max-resets must be an integer from 1 to 10/],
    [['--enable', '--disable'], /cannot be used together/],
  ])('%j → exit 2', async (flags, msg) => {
    const r = await sq(['billing', 'auto-reset', ...flags, '--yes'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(await emu.requests()).toEqual([]);
  });
});

describe('changing', () => {
  it('--enable without a terminal and without --yes: exit 2 naming --yes, GET only', async () => {
    const r = await sq(['billing', 'auto-reset', '--enable'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(await posts()).toEqual([]);
  });

  it('--enable --yes posts enabled:true; usage above the threshold warns and fires a reset at once', async () => {
    await emu.control('POST', '/_emulator/usage', { pct: 95 });
    const r = await sq(['billing', 'auto-reset', '--enable', '--threshold', '80', '--yes', '--json'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: current usage is 95%, above the 80% threshold: a reset fires/);
    const [p] = await posts();
    expect(p.body).toEqual({ enabled: true, threshold_pct: 80 });
    const out = JSON.parse(r.stdout);
    expect(out.resets_used_in_window).toBe(1);
    expect(out.window_resets_at).not.toBeNull();
  });

  it('keeps `enabled` as it is when neither --enable nor --disable is given', async () => {
    await sq(['billing', 'auto-reset', '--enable', '--yes'], { env });
    await emu.clearRequests();
    // A higher threshold cannot charge more: no confirmation needed, even without a terminal.
    const r = await sq(['billing', 'auto-reset', '--threshold', '90'], { env });
    expect(r.code).toBe(0);
    expect((await posts())[0].body).toEqual({ enabled: true, threshold_pct: 90 });
    await emu.clearRequests();
    await sq(['billing', 'auto-reset', '--disable'], { env });
    await emu.clearRequests();
    await sq(['billing', 'auto-reset', '--max-resets', '2'], { env });
    expect((await posts())[0].body).toEqual({ enabled: false, max_resets_per_24h: 2 });
  });

  it('a lower threshold while enabled needs confirmation', async () => {
    await sq(['billing', 'auto-reset', '--enable', '--yes'], { env });
    await emu.clearRequests();
    const r = await sq(['billing', 'auto-reset', '--threshold', '50'], { env });
    expect(r.code).toBe(2);
    expect(await posts()).toEqual([]);
  });

  it('--dry-run prints the POST and sends nothing, and needs no --yes', async () => {
    const r = await sq(['billing', 'auto-reset', '--enable', '--threshold', '70', '--dry-run', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      dry_run: true,
      requests: [{ method: 'POST', path: '/v1/plans/auto-reset', body: { enabled: true, threshold_pct: 70 } }],
    });
    expect(await posts()).toEqual([]);
  });

  it('an ambiguous POST failure is not retried and says the setting may or may not have changed', async () => {
    await emu.faults([{ method: 'POST', path: '/v1/plans/auto-reset', action: 'reset_mid_body', count: 5 }]);
    const r = await sq(['billing', 'auto-reset', '--enable', '--yes'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/may or may not have changed/);
    expect(r.stderr).toMatch(/sq billing auto-reset/);
    expect(await posts()).toHaveLength(1);
  });

  it('a 200 answer whose body is not JSON is ambiguous too, not "not valid JSON"', async () => {
    await emu.faults([{ method: 'POST', path: '/v1/plans/auto-reset', action: 'malformed', count: 5 }]);
    const r = await sq(['billing', 'auto-reset', '--disable'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 200 .*may or may not have changed/);
    expect(await posts()).toHaveLength(1);
  });

  it('a 503 on the POST is not retried either', async () => {
    await emu.faults([{ method: 'POST', path: '/v1/plans/auto-reset', action: 'status', status: 503, count: 5 }]);
    const r = await sq(['billing', 'auto-reset', '--disable'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/may or may not have changed/);
    expect(await posts()).toHaveLength(1);
  });
});
