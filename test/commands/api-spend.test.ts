// In-process against the emulator: `sq api` keeps the money rules. A raw POST /v1/runs is estimated, capped and, when
// it may set off an Auto Billing Reset, needs --yes off a terminal, as `sq runs start` is (test/commands/spend-guard);
// a raw POST /v1/plans/auto-reset that can charge the card more than the current setting needs a yes, as
// `sq billing auto-reset` does. The emulator's request log shows what was sent. (The y/N question: test/system/tty.)
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });

const posts = async () => (await emu.requests('POST')).map((r) => r.path);
const headphones = () => emu.squidId(DEMO_SQUIDS.headphones);

describe('sq api POST /v1/runs', () => {
  it('--max-credits below the estimate: exit 9, the estimate on stderr, no POST /v1/runs', async () => {
    const r = await sq(['api', '/v1/runs', '-f', `squid=${headphones()}`, '--max-credits', '1'], { env: emu.env() });
    expect(r.code).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/over budget: the run is estimated at \d+ credits, above the cap of 1 \(--max-credits\)/);
    expect(r.stderr).toMatch(/^Estimate: \d+ credits/m);
    expect(await posts()).toEqual(['/v1/squid/estimate']);
  });

  it('SQ_MAX_CREDITS caps it too, whatever the path is spelt (runs, a trailing slash, --input)', async () => {
    for (const args of [
      ['runs', '-f', `squid=${headphones()}`],
      ['/v1/runs/', '-X', 'POST', '-F', `squid="${headphones()}"`],
    ]) {
      const r = await sq(['api', ...args], { env: emu.env({ SQ_MAX_CREDITS: '1' }) });
      expect(r.code).toBe(9);
      expect(r.stderr).toContain('above the cap of 1 (SQ_MAX_CREDITS)');
    }
    const input = await sq(['api', '/v1/runs', '--input', '-'], {
      env: emu.env({ SQ_MAX_CREDITS: '1' }),
      stdin: JSON.stringify({ squid: headphones() }),
    });
    expect(input.code).toBe(9);
    expect((await posts()).filter((p) => p === '/v1/runs')).toEqual([]);
  });

  it('no cap, no terminal: the estimate line on stderr, then the run starts', async () => {
    emu.expectWrites('POST /v1/runs');
    const r = await sq(['api', '/v1/runs', '-f', `squid=${headphones()}`], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^estimated \d+ credits \(base \d+\), sets off no reset$/m);
    expect(JSON.parse(r.stdout).object).toBe('run');
    expect(await posts()).toEqual(['/v1/squid/estimate', '/v1/runs']);
  });

  it('a run that would set off an Auto Billing Reset, off a terminal: exit 9 naming --yes, nothing started; --yes starts it', async () => {
    await emu.control('POST', '/_emulator/billing', { auto_reset: { enabled: true, threshold_pct: 80 } });
    await emu.control('POST', '/_emulator/usage', { pct: 79.99 });
    const r = await sq(['api', '/v1/runs', '-f', `squid=${headphones()}`], { env: emu.env() });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain(
      'would set off an Auto Billing Reset (a card charge); no run was started: pass --yes to accept the charge',
    );
    expect(r.stderr).toMatch(/Auto Billing Reset: this run sets off 1 reset/);
    expect((await posts()).filter((p) => p === '/v1/runs')).toEqual([]);
    emu.expectWrites('POST /v1/runs');
    const yes = await sq(['api', '/v1/runs', '-f', `squid=${headphones()}`, '--yes'], { env: emu.env() });
    expect(yes.code).toBe(0);
    expect((await posts()).filter((p) => p === '/v1/runs')).toEqual(['/v1/runs']);
  });

  it('--max-credits on anything but POST /v1/runs, or not a number, is exit 2 before any request', async () => {
    for (const [args, message] of [
      [
        ['/v1/me', '--max-credits', '5'],
        '--max-credits applies to a request that starts runs (POST /v1/runs; POST /v1/squids/{id} turning a schedule on; POST or PATCH /v1/squids/{id}/chain) only',
      ],
      [['/v1/squids', '-f', 'name=x', '--max-credits', '5'], '--max-credits applies to a request that starts runs'],
      [['/v1/runs', '-f', 'squid=x', '--max-credits', 'lots'], '--max-credits must be a number of credits'],
    ] as const) {
      const r = await sq(['api', ...args], { env: emu.env() });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(await emu.requests()).toEqual([]);
  });

  it('a GET of /v1/runs, or a POST elsewhere, estimates nothing', async () => {
    const r = await sq(['api', '/v1/runs', '-f', `squid=${headphones()}`, '-X', 'GET'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(await posts()).toEqual([]);
    emu.expectWrites('POST /v1/squids/*');
    const u = await sq(['api', `/v1/squids/${headphones()}`, '-F', 'concurrency=2'], { env: emu.env() });
    expect(u.code).toBe(0);
    expect(await posts()).toEqual([`/v1/squids/${headphones()}`]);
  });
});

describe('sq api POST /v1/squids/{id} turning a schedule on', () => {
  it('no cap, no terminal: the schedule and what each run costs on stderr, then the write', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const r = await sq(['api', `/v1/squids/${headphones()}`, '-f', 'cron_expression=0 9 * * 1'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Schedule: Mondays at 09:00 UTC; next run \d{4}-\d\d-\d\dT\d\d:\d\dZ \(UTC\)\./);
    expect(r.stderr).toMatch(/Each scheduled run is estimated at \d+ credits/);
    expect(await posts()).toEqual(['/v1/squid/estimate', `/v1/squids/${headphones()}`]);
  });

  it("--max-credits below a run's estimate: exit 9, the schedule not written; with new params, the estimate says it is of the old ones", async () => {
    const r = await sq(['api', `/v1/squids/${headphones()}`, '-f', 'cron_expression=0 9 * * 1', '--max-credits', '1'], {
      env: emu.env(),
    });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('above the cap of 1 (--max-credits)');
    expect(await posts()).toEqual(['/v1/squid/estimate']);
    emu.expectWrites('POST /v1/squids/*');
    const p = await sq(
      ['api', `/v1/squids/${headphones()}`, '-F', 'cron_expression="0 9 * * 1"', '-F', 'params={"max_results":5}'],
      { env: emu.env() },
    );
    expect(p.code, p.stderr).toBe(0);
    expect(p.stderr).toContain("the estimate is of the squid's parameters before this request, which changes them");
  });

  it('a write that turns nothing on (deactivating, a name) estimates nothing', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const id = headphones();
    for (const f of ['is_active=false', 'name=Renamed']) {
      const r = await sq(['api', `/v1/squids/${id}`, '-F', f], { env: emu.env() });
      expect(r.code, r.stderr).toBe(0);
    }
    expect(await posts()).toEqual([`/v1/squids/${id}`, `/v1/squids/${id}`]);
  });
});

describe('sq api POST and PATCH /v1/squids/{id}/chain', () => {
  it("a new chain: what its runs cost (the target crawler's rate a row) on stderr, then the POST", async () => {
    emu.expectWrites('POST /v1/squids/*/chain');
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    const r = await sq(
      [
        'api',
        `/v1/squids/${paris}/chain`,
        '-f',
        `target_module_id=${DEMO_CRAWLERS.amazon}`,
        '-F',
        'field_map={"website":"url"}',
      ],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Costs too: each done run of ${paris} adds its results as tasks of the target squid`);
    expect(r.stderr).toContain('Amazon Products Scraper charges 1 credits a row');
  });

  it('autostart on a chain whose target run is estimated above --max-credits: exit 9, no PATCH', async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    await emu.api(`/v1/squids/${paris}/chain`, {
      method: 'POST',
      body: { target_module_id: DEMO_CRAWLERS.amazon, field_map: { website: 'url' }, autostart: false },
    });
    const run = await emu.api('/v1/runs', { method: 'POST', body: { squid: paris } });
    for (let i = 0; i < 20 && (await emu.api(`/v1/runs/${run.id}`)).status !== 'done'; i++) await emu.advance(10_000);
    await emu.clearRequests();
    const r = await sq(
      ['api', `/v1/squids/${paris}/chain`, '-X', 'PATCH', '-F', 'autostart=true', '--max-credits', '0'],
      {
        env: emu.env(),
      },
    );
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(
      /over budget: each run of the chained squid is estimated at \d+ credits, above the cap of 0/,
    );
    expect((await emu.requests()).filter((q) => q.method === 'PATCH')).toEqual([]);
    expect((await emu.api(`/v1/squids/${paris}/chain`)).autostart).toBe(false);
  });
});

describe('sq api POST /v1/plans/auto-reset', () => {
  it('turning resets on, off a terminal without --yes: exit 2 saying what it charges, nothing sent; --yes sends it', async () => {
    const r = await sq(['api', '/v1/plans/auto-reset', '-F', 'enabled=true'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'POST /v1/plans/auto-reset turns on or raises automatic billing resets (threshold 80%, up to 3 per 24 h): each reset charges the card on file; nothing was sent: pass --yes',
    );
    expect(await posts()).toEqual([]);
    emu.expectWrites('POST /v1/plans/auto-reset');
    const yes = await sq(['api', '/v1/plans/auto-reset', '-F', 'enabled=true', '--yes'], { env: emu.env() });
    expect(yes.code).toBe(0);
    expect(JSON.parse(yes.stdout).enabled).toBe(true);
  });

  it('a threshold under the current usage warns that a reset fires at once', async () => {
    await emu.control('POST', '/_emulator/usage', { pct: 50 });
    const r = await sq(['api', '/v1/plans/auto-reset', '-F', 'enabled=true', '-F', 'threshold_pct=20'], {
      env: emu.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('current usage is 50%, above the 20% threshold: a reset fires as soon as this is saved');
    expect(r.stderr).toContain('each reset charges the card on file, and one fires now; nothing was sent');
    expect(await posts()).toEqual([]);
  });

  it('a value the guard cannot read as off counts as on: enabled "yes" needs --yes too', async () => {
    const r = await sq(['api', '/v1/plans/auto-reset', '-f', 'enabled=yes'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(await posts()).toEqual([]);
  });

  it('turning resets off, or a change that charges no more, is sent without a question', async () => {
    emu.expectWrites('POST /v1/plans/auto-reset');
    const off = await sq(['api', '/v1/plans/auto-reset', '-F', 'enabled=false'], { env: emu.env() });
    expect(off.code).toBe(0);
    await emu.control('POST', '/_emulator/billing', { auto_reset: { enabled: true, threshold_pct: 80 } });
    const higher = await sq(['api', '/v1/plans/auto-reset', '-F', 'enabled=true', '-F', 'threshold_pct=90'], {
      env: emu.env(),
    });
    expect(higher.code).toBe(0);
    expect(await posts()).toEqual(['/v1/plans/auto-reset', '/v1/plans/auto-reset']);
  });
});
