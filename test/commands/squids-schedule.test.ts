// Schedules and state (changelog: POST /v1/squids/{id} takes cron_expression (5 fields), timezone (IANA), is_active,
// to_complete, no_line_breaks): sq squids update's flags checked before any request, activate/deactivate, the
// schedule in words with its next run in get/list, and the emulator's scheduled runs (origin "schedule").
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });

describe('squids update --schedule/--timezone (changelog: cron_expression 5 fields, timezone IANA)', () => {
  it.each([
    [['--schedule', '0 9 * *'], '--schedule: "0 9 * *" has 4 fields; a schedule needs 5'],
    [['--schedule', '0 25 * * 1'], '--schedule: hour field "25": 25 is outside 0-23'],
    [
      ['--schedule', '0 9 * * 1', '--timezone', 'Europe/Pariss'],
      '--timezone: "Europe/Pariss" is not an IANA time zone name (e.g. Europe/Paris, America/New_York, UTC); did you mean Europe/Paris',
    ],
    [['--timezone', 'europe/pari'], 'did you mean Europe/Paris'],
    [['--timezone', 'CEST'], '--timezone: "CEST" is not an IANA time zone name'],
    [['--no-schedule', '--timezone', 'UTC'], '--timezone and --no-schedule cannot be used together'],
    // Issue 46, 9: the last one won (a schedule set, or removed).
    [['--no-schedule', '--schedule', '0 9 * * 1'], '--schedule and --no-schedule cannot be used together'],
    [['--schedule', '0 9 * * 1', '--no-schedule'], '--schedule and --no-schedule cannot be used together'],
    [['--schedule=0 9 * * 1', '--no-schedule'], '--schedule and --no-schedule cannot be used together'],
    [['--to-complete', '--no-to-complete'], '--to-complete and --no-to-complete cannot be used together'],
  ])('%j → exit 2 naming the flag, zero requests', async (flags, message) => {
    const r = await sq(['squids', 'update', DEMO_SQUIDS.paris, ...flags], { env: emu.env() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await emu.requests()).toEqual([]);
  });

  // The API takes the names of its zone list (api-reference §14), spelled as the list spells them.
  it.each([
    ['europe/paris', 'Europe/Paris'],
    ['AMERICA/NEW_YORK', 'America/New_York'],
    ['utc', 'UTC'],
    ['Europe/Paris', 'Europe/Paris'],
    // Aliases spelled right go as they are; one typed all in one case, as the zone it names.
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['US/Pacific', 'US/Pacific'],
    ['us/pacific', 'America/Los_Angeles'],
  ])('--timezone %s is sent as %s', async (typed, sent) => {
    const r = await sq(
      ['squids', 'update', DEMO_SQUIDS.paris, '--schedule', '0 9 * * 1', '--timezone', typed, '--json'],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    // The estimate of one scheduled run goes first (schedule-spend.test.ts); the update is the squid's own POST.
    const [post] = (await emu.requests('POST')).filter((q) => q.path !== '/v1/squid/estimate');
    expect(post.body).toEqual({ cron_expression: '0 9 * * 1', timezone: sent });
    expect(JSON.parse(r.stdout).schedule).toEqual({ cron_expression: '0 9 * * 1', timezone: sent });
  });

  it('sends cron_expression and timezone, and get shows it in words with the next run', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const r = await sq(
      [
        'squids',
        'update',
        DEMO_SQUIDS.paris,
        '--schedule',
        '0 9 * * 1',
        '--timezone',
        'Europe/Paris',
        '--to-complete',
        '--no-line-breaks',
        '--json',
      ],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    // The estimate of one scheduled run goes first (test/commands/schedule-spend.test.ts), then the update.
    const [est, post] = await emu.requests('POST');
    expect(est.path).toBe('/v1/squid/estimate');
    expect(post.body).toEqual({
      cron_expression: '0 9 * * 1',
      timezone: 'Europe/Paris',
      to_complete: true,
      no_line_breaks: true,
    });
    const s = JSON.parse(r.stdout);
    expect(s.schedule).toEqual({ cron_expression: '0 9 * * 1', timezone: 'Europe/Paris' });
    expect(s.to_complete).toBe(true);
    expect(s.no_line_breaks).toBe(true);
    // The next Monday 09:00 in Paris, as naive UTC.
    const next = Date.parse(`${s.next_launch_at}Z`);
    expect(new Date(next).getUTCDay()).toBe(1);
    expect(
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(next),
    ).toBe('09:00');

    const get = await sq(['squids', 'get', DEMO_SQUIDS.paris, '--format', 'table'], { env: emu.env() });
    expect(get.stdout).toContain('Mondays at 09:00 Europe/Paris');
    expect(get.stdout).toMatch(new RegExp(`next run\\s+${s.next_launch_at}`));
    const list = await sq(['squids', 'list', '--format', 'csv', '--fields', 'name,schedule,next_launch_at'], {
      env: emu.env(),
    });
    expect(list.stdout).toContain(`${DEMO_SQUIDS.paris},Mondays at 09:00 Europe/Paris,${s.next_launch_at}`);

    expect(
      (await sq(['squids', 'update', DEMO_SQUIDS.paris, '--no-schedule', '--json'], { env: emu.env() })).code,
    ).toBe(0);
    const after = await emu.api(`/v1/squids/${emu.squidId(DEMO_SQUIDS.paris)}`);
    expect(after.schedule).toBeNull();
    expect(after.next_launch_at).toBeNull();
  });
});

describe('squids activate|deactivate (changelog: is_active)', () => {
  it('sends is_active and shows the squid', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const off = await sq(['squids', 'deactivate', DEMO_SQUIDS.paris, '--json'], { env: emu.env() });
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout).is_active).toBe(false);
    expect((await emu.requests('POST'))[0].body).toEqual({ is_active: false });
    const on = await sq(['squids', 'activate', DEMO_SQUIDS.paris, '--json'], { env: emu.env() });
    expect(JSON.parse(on.stdout).is_active).toBe(true);
  });

  it('a squid with a run in progress: off a terminal, deactivate needs --yes (it stops the run, as runs abort does)', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const id = emu.squidId(DEMO_SQUIDS.paris);
    await emu.advance(3_600_000);
    const run = await emu.api('/v1/runs', { method: 'POST', body: { squid: id } });
    const r = await sq(['squids', 'deactivate', DEMO_SQUIDS.paris], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect((await emu.requests('POST')).map((q) => q.path)).toEqual(['/v1/runs']);
    expect((await emu.api(`/v1/runs/${run.id}`)).status).not.toBe('aborted');
    const yes = await sq(['squids', 'deactivate', DEMO_SQUIDS.paris, '--yes'], { env: emu.env() });
    expect(yes.code, yes.stderr).toBe(0);
    expect((await emu.api(`/v1/squids/${id}`)).is_active).toBe(false);
  });

  it('--dry-run sends nothing', async () => {
    const r = await sq(['squids', 'deactivate', DEMO_SQUIDS.paris, '--dry-run'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(await emu.requests('POST')).toEqual([]);
  });
});

describe('the emulator runs scheduled squids on its clock (origin "schedule"; api-reference §12 origin)', () => {
  it('starts a run at each firing while active, none while deactivated', async () => {
    const id = emu.squidId(DEMO_SQUIDS.paris);
    await emu.api(`/v1/squids/${id}`, { method: 'POST', body: { cron_expression: '0 * * * *', timezone: 'UTC' } });
    const runs = async () =>
      (await emu.api(`/v1/runs?squid=${id}&limit=100`)).data.filter((r: { origin: string }) => r.origin === 'schedule');
    expect(await runs()).toHaveLength(0);
    // To a minute past the next full hour of the emulator's clock (which starts at the real time): 61 minutes from
    // xx:59 would cross two hours and fire twice.
    const hour = 60 * 60_000;
    await emu.advance(hour - (emu.emu.clock.now() % hour) + 60_000);
    const first = await runs();
    expect(first).toHaveLength(1);
    // Let it finish, then the next hour fires again.
    await emu.advance(hour);
    expect((await runs()).length).toBe(2);
    await emu.api(`/v1/squids/${id}`, { method: 'POST', body: { is_active: false } });
    const before = (await runs()).length;
    await emu.advance(3 * 60 * 60_000);
    expect((await runs()).length).toBe(before);
    expect((await emu.api(`/v1/squids/${id}`)).next_launch_at).toBeNull();
  });
});
