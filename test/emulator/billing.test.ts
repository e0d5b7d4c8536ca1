// Auto Billing Reset over real HTTP against the emulator on a virtual clock: every row of the spec's state table.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import type { J } from '../helpers/json.js';

type Started = TestEmulator;

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

let e: Started;

const call = (method: string, path: string, body?: unknown) => jsonCall(e, method, path, body);

const get = () => call('GET', '/v1/plans/auto-reset');
const post = (body: unknown) => call('POST', '/v1/plans/auto-reset', body);
const usage = (pct: number) => call('POST', '/_emulator/usage', { pct });
const payment = (outcome: string) => call('POST', '/_emulator/payment', { outcome });
async function advance(ms: number): Promise<void> {
  const r = await call('POST', '/_emulator/clock/advance', { ms });
  expect(r.status).toBe(200);
}
const now = () => e.emu.clock.now();
const outbox = async () => (await call('GET', '/_emulator/outbox')).body as J[];
/** The plan's state, set through the control plane (POST /_emulator/billing). */
async function plan(body: J): Promise<void> {
  const r = await call('POST', '/_emulator/billing', body);
  expect(r.status).toBe(200);
}

beforeEach(async () => {
  e = await startTestEmulator({ seed: 'empty', rateLimits: 'on' });
  // A known plan: 1000 credits, a cycle that started now and ends in 30 days.
  const t = now();
  await plan({
    available: 1000,
    consumed: 0,
    subscription: { active: true, cycle_started_at: t, cycle_ends_at: t + 30 * DAY },
    email: 'owner@example.com',
    auto_reset: {
      enabled: false,
      threshold_pct: 80,
      max_resets_per_24h: 3,
      reset_times: [],
      suppressed_until: null,
      payment_outcome: 'ok',
    },
  });
});

afterEach(async () => {
  await e.close();
});

describe('GET /v1/plans/auto-reset', () => {
  it('returns the six fields with live usage rounded to 2 decimals', async () => {
    await plan({ consumed: 1000 / 3 });
    const r = await get();
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      enabled: false,
      threshold_pct: 80,
      max_resets_per_24h: 3,
      resets_used_in_window: 0,
      window_resets_at: null,
      current_usage_pct: 33.33,
    });
  });

  it('reports current_usage_pct null when there is no subscription', async () => {
    await plan({ subscription: null });
    await usage(95);
    const r = await get();
    expect(r.body.current_usage_pct).toBeNull();
    // Nothing to renew without a subscription, so enabling fires nothing.
    const p = await post({ enabled: true });
    expect(p.body).toMatchObject({ enabled: true, current_usage_pct: null, resets_used_in_window: 0 });
  });

  it('requires the API token', async () => {
    const res = await fetch(e.baseUrl + '/v1/plans/auto-reset');
    expect(res.status).toBe(401);
  });
});

describe('POST /v1/plans/auto-reset validation', () => {
  const bad: [J, string, RegExp][] = [
    [{}, 'enabled', /enabled/],
    [{ enabled: 'yes' }, 'enabled', /boolean/],
    [{ enabled: null }, 'enabled', /enabled/],
    [{ enabled: true, threshold_pct: 0 }, 'threshold_pct', /threshold_pct.*1 to 100/],
    [{ enabled: true, threshold_pct: 101 }, 'threshold_pct', /1 to 100/],
    [{ enabled: true, threshold_pct: 50.5 }, 'threshold_pct', /integer/],
    [{ enabled: true, threshold_pct: '50' }, 'threshold_pct', /integer/],
    [{ enabled: true, threshold_pct: -1 }, 'threshold_pct', /1 to 100/],
    [{ enabled: true, max_resets_per_24h: 0 }, 'max_resets_per_24h', /max_resets_per_24h.*1 to 10/],
    [{ enabled: true, max_resets_per_24h: 11 }, 'max_resets_per_24h', /1 to 10/],
    [{ enabled: true, max_resets_per_24h: 2.5 }, 'max_resets_per_24h', /integer/],
    [{ enabled: true, max_resets_per_24h: null }, 'max_resets_per_24h', /integer/],
  ];
  for (const [body, param, msg] of bad) {
    it(`rejects ${JSON.stringify(body)} naming ${param}`, async () => {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe('validation_error');
      expect(r.body.error.param).toBe(param);
      expect(r.body.error.message).toMatch(msg);
      // A refused update changes nothing.
      expect((await get()).body).toMatchObject({ enabled: false, threshold_pct: 80, max_resets_per_24h: 3 });
    });
  }

  it('accepts the bounds, keeps omitted fields and ignores unknown ones', async () => {
    let r = await post({ enabled: false, threshold_pct: 1, max_resets_per_24h: 10, colour: 'blue' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ enabled: false, threshold_pct: 1, max_resets_per_24h: 10 });
    expect(r.body).not.toHaveProperty('colour');
    r = await post({ enabled: true, threshold_pct: 100 });
    expect(r.body).toMatchObject({ enabled: true, threshold_pct: 100, max_resets_per_24h: 10 });
    r = await post({ enabled: false });
    expect(r.body).toMatchObject({ enabled: false, threshold_pct: 100, max_resets_per_24h: 10 });
    expect(Object.keys(r.body).sort()).toEqual([
      'current_usage_pct',
      'enabled',
      'max_resets_per_24h',
      'resets_used_in_window',
      'threshold_pct',
      'window_resets_at',
    ]);
  });
});

describe('state table', () => {
  it('row 1: enabling while usage is above the threshold resets at once, before answering', async () => {
    await usage(90);
    const t = now();
    const r = await post({ enabled: true, threshold_pct: 80 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      enabled: true,
      threshold_pct: 80,
      max_resets_per_24h: 3,
      resets_used_in_window: 1,
      window_resets_at: new Date(t + DAY).toISOString(),
      current_usage_pct: 0,
    });
    // The plan renewed: consumed back to zero, a new 30-day cycle from now.
    expect(e.emu.state.balance.consumed).toBe(0);
    expect(e.emu.state.subscription).toEqual({ active: true, cycle_started_at: t, cycle_ends_at: t + 30 * DAY });
    expect(new Date(e.emu.state.balance.reset_time).getTime()).toBe(t + 30 * DAY);
    const bal = await call('GET', '/v1/user/balance');
    expect(bal.body.consumed).toBe(0);
  });

  it('row 1: enabling at or below the threshold does not reset', async () => {
    await usage(80);
    const r = await post({ enabled: true, threshold_pct: 80 });
    expect(r.body).toMatchObject({ enabled: true, resets_used_in_window: 0, current_usage_pct: 80 });
    expect(e.emu.state.balance.consumed).toBe(800);
  });

  it('row 1 applies when already enabled: re-posting enabled=true with usage above fires a reset', async () => {
    await post({ enabled: true });
    await usage(95);
    const r = await post({ enabled: true });
    expect(r.body).toMatchObject({ resets_used_in_window: 1, current_usage_pct: 0 });
  });

  it('row 2: disabling stops the periodic check from resetting', async () => {
    await post({ enabled: true });
    const r = await post({ enabled: false });
    expect(r.body.enabled).toBe(false);
    await usage(99);
    await advance(10 * MIN);
    expect((await get()).body).toMatchObject({ enabled: false, resets_used_in_window: 0, current_usage_pct: 99 });
  });

  it('row 3: the periodic check (every 60 s of business time) resets when usage exceeds the threshold', async () => {
    await post({ enabled: true, threshold_pct: 50 });
    const u = await usage(75);
    // Setting usage does not reset by itself; the background check does.
    expect(u.body).toMatchObject({ resets_used_in_window: 0, current_usage_pct: 75 });
    const before = now();
    await advance(60_000);
    const r = await get();
    expect(r.body).toMatchObject({ resets_used_in_window: 1, current_usage_pct: 0 });
    const resetAt = new Date(r.body.window_resets_at).getTime() - DAY;
    expect(resetAt).toBeGreaterThan(before);
    expect(resetAt).toBeLessThanOrEqual(before + 60_000);
    expect(e.emu.state.subscription?.cycle_started_at).toBe(resetAt);
  });

  it('row 3: the rolling 24 h cap refuses the 4th reset until the oldest leaves the window', async () => {
    const t0 = now();
    for (let i = 0; i < 3; i++) {
      await usage(95);
      const r = await post({ enabled: true });
      expect(r.body).toMatchObject({ resets_used_in_window: i + 1, current_usage_pct: 0 });
      expect(r.body.window_resets_at).toBe(new Date(t0 + DAY).toISOString());
      await advance(HOUR);
    }
    // t0 + 3 h: the cap is reached; neither enabling nor the periodic check resets.
    await usage(95);
    let r = await post({ enabled: true });
    expect(r.body).toMatchObject({ resets_used_in_window: 3, current_usage_pct: 95 });
    await advance(t0 + DAY - 1 - now());
    r = await get();
    expect(r.body).toMatchObject({ resets_used_in_window: 3, current_usage_pct: 95 });
    expect(r.body.window_resets_at).toBe(new Date(t0 + DAY).toISOString());
    // The first reset leaves the window at t0 + 24 h; the next check may reset again.
    await advance(60_001);
    r = await get();
    expect(r.body).toMatchObject({ resets_used_in_window: 3, current_usage_pct: 0 });
    expect(r.body.window_resets_at).toBe(new Date(t0 + HOUR + DAY).toISOString());
    expect(e.emu.state.autoReset.reset_times.filter((t) => t > t0 + DAY - 1).length).toBe(1);
  });

  it('window_resets_at goes back to null and the counter to 0 once every reset left the window', async () => {
    await usage(95);
    const t = now();
    await post({ enabled: true });
    await advance(DAY - 1);
    expect((await get()).body).toMatchObject({
      resets_used_in_window: 1,
      window_resets_at: new Date(t + DAY).toISOString(),
    });
    await advance(1);
    expect((await get()).body).toMatchObject({ resets_used_in_window: 0, window_resets_at: null });
  });

  for (const [outcome, why] of [
    ['declined', /declined/],
    ['requires_3ds', /3-D Secure/],
  ] as const) {
    it(`row 4: a failed charge (${outcome}) suppresses resets until the cycle ends and sends one e-mail`, async () => {
      const cycleEnd = e.emu.state.subscription!.cycle_ends_at;
      expect((await payment(outcome)).status).toBe(200);
      await usage(95);
      const r = await post({ enabled: true });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ enabled: true, resets_used_in_window: 0, current_usage_pct: 95 });
      expect(e.emu.state.balance.consumed).toBe(950);
      expect(e.emu.state.autoReset.suppressed_until).toBe(cycleEnd);
      let mails = await outbox();
      expect(mails).toHaveLength(1);
      expect(mails[0].to).toBe('owner@example.com');
      expect(mails[0].subject).toMatch(/Automatic billing reset failed/);
      expect(mails[0].subject).toMatch(why);
      expect(mails[0].body).toMatch(why);

      // The card is fixed, but the rest of this cycle stays suppressed: no reset, no more mail.
      await payment('ok');
      await advance(2 * DAY);
      await post({ enabled: true });
      expect((await get()).body).toMatchObject({ enabled: true, resets_used_in_window: 0, current_usage_pct: 95 });
      mails = await outbox();
      expect(mails).toHaveLength(1);

      // The cycle ends: the plan renews on schedule (credits back to zero, no automatic reset, no charge) and the
      // suppression ends with it.
      await advance(cycleEnd - now() + 60_000);
      const renewed = await get();
      expect(renewed.body).toMatchObject({ resets_used_in_window: 0, current_usage_pct: 0 });
      expect(e.emu.state.autoReset.suppressed_until).toBeNull();
      expect(e.emu.state.subscription!.cycle_started_at).toBe(cycleEnd);

      // Next cycle: usage crosses the threshold again and the periodic check resets.
      await usage(95);
      await advance(60_000);
      const after = await get();
      expect(after.body).toMatchObject({ resets_used_in_window: 1, current_usage_pct: 0 });
      expect(await outbox()).toHaveLength(1);
    });
  }
});

describe('control plane', () => {
  it('POST /_emulator/usage sets consumed from a percentage and validates', async () => {
    const r = await usage(42.5);
    expect(r.status).toBe(200);
    expect(e.emu.state.balance.consumed).toBe(425);
    expect((await get()).body.current_usage_pct).toBe(42.5);
    const bad = await call('POST', '/_emulator/usage', { pct: 'lots' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('pct');
  });

  it('POST /_emulator/payment accepts only ok, declined, requires_3ds', async () => {
    for (const o of ['ok', 'declined', 'requires_3ds']) {
      const r = await payment(o);
      expect(r.status).toBe(200);
      expect(e.emu.state.autoReset.payment_outcome).toBe(o);
    }
    const bad = await payment('maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('outcome');
    expect(e.emu.state.autoReset.payment_outcome).toBe('requires_3ds');
  });

  it('POST /_emulator/billing sets the plan, its subscription and Auto Billing Reset; a bad field changes nothing', async () => {
    const t = now();
    const r = await call('POST', '/_emulator/billing', {
      available: 500,
      consumed: 450,
      subscription: { active: true, cycle_started_at: t, cycle_ends_at: t + DAY },
      auto_reset: { reset_times: [t - 1000], payment_outcome: 'declined' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      available: 500,
      consumed: 450,
      reset_time: new Date(t + DAY).toISOString(),
      email: 'owner@example.com',
    });
    expect(r.body.auto_reset).toMatchObject({
      enabled: false,
      threshold_pct: 80,
      reset_times: [t - 1000],
      payment_outcome: 'declined',
    });
    expect((await get()).body).toMatchObject({ current_usage_pct: 90, resets_used_in_window: 1 });
    for (const [body, param] of [
      [{ consumed: -1 }, 'consumed'],
      [{ available: 10, subscription: { active: true, cycle_started_at: t, cycle_ends_at: t } }, 'subscription'],
      [{ consumed: 0, auto_reset: { threshold_pct: 0 } }, 'threshold_pct'],
      [{ consumed: 0, auto_reset: { payment_outcome: 'maybe' } }, 'auto_reset.payment_outcome'],
      [{ email: 'nobody' }, 'email'],
    ] as const) {
      const bad = await call('POST', '/_emulator/billing', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.param).toBe(param);
    }
    expect((await get()).body).toMatchObject({ threshold_pct: 80, current_usage_pct: 90 });
  });
});

describe('lifecycle', () => {
  it('keeps the periodic check after POST /_emulator/reset', async () => {
    await post({ enabled: true, threshold_pct: 50 });
    expect((await call('POST', '/_emulator/reset')).status).toBe(200);
    // The reset restored the seed's settings; enable again and let the re-armed check fire.
    await plan({ subscription: { active: true, cycle_started_at: now(), cycle_ends_at: now() + 30 * DAY } });
    await post({ enabled: true, threshold_pct: 50 });
    await usage(60);
    await advance(60_000);
    expect((await get()).body).toMatchObject({ resets_used_in_window: 1, current_usage_pct: 0 });
  });

  it('survives a restart with --state: settings, the window and the outbox are kept, and checks go on', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sq-billing-'));
    const stateFile = path.join(dir, 'state.json');
    try {
      await e.close();
      e = await startTestEmulator({ seed: 'empty', rateLimits: 'on', stateFile });
      await plan({ available: 1000 });
      await usage(90);
      const t = now();
      await post({ enabled: true, threshold_pct: 70, max_resets_per_24h: 2 });
      await payment('declined');
      await call('POST', '/v1/delivery/test-email', { email: 'a@example.com' });
      await e.close();

      e = await startTestEmulator({ seed: 'empty', rateLimits: 'on', stateFile });
      expect((await get()).body).toMatchObject({
        enabled: true,
        threshold_pct: 70,
        max_resets_per_24h: 2,
        resets_used_in_window: 1,
        window_resets_at: new Date(t + DAY).toISOString(),
        current_usage_pct: 0,
      });
      expect(await outbox()).toHaveLength(1);
      // The check was re-armed and the declined card is remembered.
      await usage(90);
      await advance(60_000);
      expect(e.emu.state.autoReset.suppressed_until).not.toBeNull();
      expect((await outbox()).map((m) => m.subject)).toEqual([
        expect.stringContaining('Test'),
        expect.stringContaining('declined'),
      ]);
    } finally {
      await e.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
