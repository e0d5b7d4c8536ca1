// In-process against the emulator: a schedule starts runs, each charged, so whatever turns one on (`squids activate`
// of a scheduled squid, `squids update --schedule` or `--timezone` of an active one) says what each run costs, its
// next run time, honours the cap (exit 9, nothing written) and asks on a terminal above confirm-above, as `runs start`
// does. Without a cap and a terminal it costs one request: the estimate.
import { describe, expect, it } from 'vitest';
import { berlinSquid } from '../helpers/spend.js';
import { useEmulator } from '../helpers/emulator.js';
import { sq, tempConfigDir } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const emu = useEmulator({ each: 'reset' });

/** A Google Maps squid with emails on by default and two tasks (about 100 credits a run). */
async function berlin(
  opts: { tasks?: boolean; active?: boolean; schedule?: string } = {},
): Promise<{ id: string; total: number }> {
  const s = { id: await berlinSquid(emu, { tasks: opts.tasks }) };
  let total = 0;
  if (opts.tasks !== false) {
    total = (await emu.api('/v1/squid/estimate', { method: 'POST', body: { squid: s.id } })).total_credits;
  }
  if (opts.schedule)
    await emu.api(`/v1/squids/${s.id}`, {
      method: 'POST',
      body: { cron_expression: opts.schedule, timezone: 'Europe/Paris' },
    });
  if (opts.active === false) await emu.api(`/v1/squids/${s.id}`, { method: 'POST', body: { is_active: false } });
  await emu.clearRequests();
  return { id: s.id, total };
}

const posts = async () => (await emu.requests('POST')).map((r) => r.path);
const squidState = async (id: string) => emu.api(`/v1/squids/${id}`);

describe('sq squids update --schedule: what each scheduled run costs, before the write', () => {
  it("no cap, no terminal: the schedule, its next run and one run's estimate on stderr, for one request more", async () => {
    const { id, total } = await berlin();
    const r = await sq(
      ['squids', 'update', 'Berlin cafés', '--schedule', '0 9 * * 1', '--timezone', 'Europe/Paris', '--json'],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Schedule: Mondays at 09:00 Europe\/Paris; next run \d{4}-\d\d-\d\dT\d\d:\d\dZ \(UTC\)\./);
    expect(r.stderr).toContain(`Each scheduled run is estimated at ${total} credits (base`);
    expect(r.stderr).toContain('extract_emails_from_website');
    expect(r.stderr).toContain('Auto Billing Reset: off (nothing is charged to the card automatically).');
    // The estimate and the account's side before the write (whether a run would charge the card).
    expect(await posts()).toEqual(['/v1/squid/estimate', `/v1/squids/${id}`]);
    expect(
      (await emu.requests('GET'))
        .map((q) => q.path)
        .filter((p) => /balance|auto-reset/.test(p))
        .sort(),
    ).toEqual(['/v1/plans/auto-reset', '/v1/user/balance']);
  });

  it("--max-credits below one run's estimate: exit 9, the schedule not written", async () => {
    const { id, total } = await berlin();
    const r = await sq(
      ['squids', 'update', 'Berlin cafés', '--schedule', '0 * * * *', '--max-credits', String(total - 1)],
      { env: emu.env() },
    );
    expect(r.code).toBe(9);
    expect(r.stderr).toContain(
      `over budget: each scheduled run is estimated at ${total} credits, above the cap of ${total - 1} (--max-credits); the schedule was not turned on`,
    );
    expect(await posts()).toEqual(['/v1/squid/estimate']);
    expect((await squidState(id)).schedule).toBeNull();
  });

  it('--timezone alone on a scheduled, active squid moves its runs: the cap applies (SQ_MAX_CREDITS)', async () => {
    const { id } = await berlin({ schedule: '0 9 * * *' });
    const r = await sq(['squids', 'update', 'Berlin cafés', '--timezone', 'America/New_York'], {
      env: emu.env({ SQ_MAX_CREDITS: '5' }),
    });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('above the cap of 5 (SQ_MAX_CREDITS)');
    expect(await posts()).toEqual(['/v1/squid/estimate']);
    expect((await squidState(id)).schedule.timezone).toBe('Europe/Paris');
  });

  it('--param with --schedule refused by the cap: the params are put back and the message says so', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const { id } = await berlin();
    const before = (await squidState(id)).params;
    const r = await sq(
      [
        'squids',
        'update',
        'Berlin cafés',
        '--param',
        'max_results=50',
        '--schedule',
        '*/5 * * * *',
        '--max-credits',
        '1',
      ],
      { env: emu.env() },
    );
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('the schedule was not turned on');
    expect(r.stderr).toContain(
      "The new params were written for the estimate, then put back as they were: the squid's params are unchanged.",
    );
    const after = await squidState(id);
    expect(after.params).toEqual(before);
    expect(after.schedule).toBeNull();
  });

  it("--param on an active scheduled squid raises each run's cost: held to the cap (exit 9, params put back)", async () => {
    emu.expectWrites('POST /v1/squids/*');
    const { id } = await berlin({ schedule: '0 9 * * 1' });
    const before = (await squidState(id)).params;
    const r = await sq(['squids', 'update', 'Berlin cafés', '--param', 'max_results=500'], {
      env: emu.env({ SQ_MAX_CREDITS: '5' }),
    });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('above the cap of 5 (SQ_MAX_CREDITS)');
    expect((await squidState(id)).params).toEqual(before);
  });

  it('--param with --schedule: the params go first, the estimate is of the squid the runs will find, then the schedule', async () => {
    const { id, total } = await berlin();
    const r = await sq(
      [
        'squids',
        'update',
        'Berlin cafés',
        '--param',
        'functions.extract_emails_from_website=false',
        '--schedule',
        '0 9 * * 1',
      ],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    const m = /Each scheduled run is estimated at ([\d.,]+) credits/.exec(r.stderr);
    expect(Number(m?.[1].replace(/,/g, ''))).toBeLessThan(total);
    expect(r.stderr).not.toContain('extract_emails_from_website');
    const sent = await emu.requests('POST');
    expect(sent.map((q) => q.path)).toEqual([`/v1/squids/${id}`, '/v1/squid/estimate', `/v1/squids/${id}`]);
    expect(sent[2].body).toEqual({ cron_expression: '0 9 * * 1' });
  });

  it("an inactive squid's schedule fires nothing: no estimate; a squid without tasks has none and says so", async () => {
    emu.expectWrites('POST /v1/squids/*');
    await berlin({ active: false });
    const off = await sq(['squids', 'update', 'Berlin cafés', '--schedule', '0 9 * * 1', '--max-credits', '1'], {
      env: emu.env(),
    });
    expect(off.code, off.stderr).toBe(0);
    expect(await posts()).not.toContain('/v1/squid/estimate');
    await emu.clearRequests();
    const lyon = await sq(['squids', 'update', DEMO_SQUIDS.lyon, '--schedule', '0 9 * * 1', '--max-credits', '1'], {
      env: emu.env(),
    });
    expect(lyon.code, lyon.stderr).toBe(0);
    expect(lyon.stderr).toContain('it has none yet, so there is no estimate');
    // Under a cap, the cap that cannot be checked is said, never passed over in silence.
    expect(lyon.stderr).toContain(
      'warning: the cap (--max-credits, 1 credits) cannot be checked against the scheduled runs: the squid has no tasks',
    );
  });

  it('on a terminal above confirm-above: --no-input is exit 2 naming --yes with the estimate; --yes writes it', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const { id, total } = await berlin();
    const cfg = tempConfigDir();
    await sq(['config', 'set', 'confirm-above', String(total - 1)], { env: emu.env({ SQ_CONFIG_DIR: cfg }) });
    const r = await sq(['squids', 'update', 'Berlin cafés', '--schedule', '0 9 * * 1', '--no-input'], {
      env: emu.env({ SQ_CONFIG_DIR: cfg }),
      tty: true,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    expect(r.stderr).toContain(`Estimate: ${total} credits`);
    expect(r.stderr).toContain('Auto Billing Reset');
    expect((await squidState(id)).schedule).toBeNull();
    const yes = await sq(['squids', 'update', 'Berlin cafés', '--schedule', '0 9 * * 1', '--yes'], {
      env: emu.env({ SQ_CONFIG_DIR: cfg }),
      tty: true,
    });
    expect(yes.code, yes.stderr).toBe(0);
    expect((await squidState(id)).schedule.cron_expression).toBe('0 9 * * 1');
  });
});

describe('sq squids activate of a scheduled squid', () => {
  it('over the cap: exit 9, is_active not written', async () => {
    const { id, total } = await berlin({ schedule: '0 9 * * 1', active: false });
    const r = await sq(['squids', 'activate', 'Berlin cafés', '--max-credits', String(total - 1)], { env: emu.env() });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('the schedule was not turned on');
    expect(await posts()).toEqual(['/v1/squid/estimate']);
    expect((await squidState(id)).is_active).toBe(false);
  });

  it('under the cap: the schedule, next run and the estimate, then the write', async () => {
    const { id, total } = await berlin({ schedule: '0 9 * * 1', active: false });
    const r = await sq(['squids', 'activate', 'Berlin cafés', '--max-credits', String(total)], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Schedule: Mondays at 09:00 Europe/Paris; next run');
    expect(r.stderr).toContain(`Each scheduled run is estimated at ${total} credits`);
    expect(await posts()).toEqual(['/v1/squid/estimate', `/v1/squids/${id}`]);
  });

  it('a squid without a schedule: no estimate, as before', async () => {
    await berlin({ active: false });
    const r = await sq(['squids', 'activate', 'Berlin cafés', '--max-credits', '1'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(await posts()).not.toContain('/v1/squid/estimate');
  });
});

describe('sq tasks add on an active scheduled squid', () => {
  it('under a cap, tasks that lift a scheduled run above it are removed again (exit 9); without a cap nothing more is sent', async () => {
    emu.expectWrites('POST /v1/tasks', 'DELETE /v1/tasks/*');
    const { id } = await berlin({ schedule: '0 9 * * 1' });
    const before = Object.values(emu.emu.state.tasks).filter((t) => t.squid === id).length;
    const r = await sq(['tasks', 'add', '--squid', 'Berlin cafés', 'https://www.google.com/maps/search/bar+berlin'], {
      env: emu.env({ SQ_MAX_CREDITS: '5' }),
    });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('above the cap of 5 (SQ_MAX_CREDITS); the new tasks were removed again');
    expect(r.stderr).toContain("The 1 new task was removed: the squid's tasks are as they were.");
    expect(Object.values(emu.emu.state.tasks).filter((t) => t.squid === id && t.is_active !== false)).toHaveLength(
      before,
    );
    await emu.clearRequests();
    const free = await sq(
      ['tasks', 'add', '--squid', 'Berlin cafés', 'https://www.google.com/maps/search/bar+berlin'],
      { env: emu.env() },
    );
    expect(free.code, free.stderr).toBe(0);
    expect((await emu.requests('POST')).map((q) => q.path)).toEqual(['/v1/tasks']);
  });
});

describe('sq tasks upload on an active scheduled squid', () => {
  // The upload is processed in the background on the emulator's clock: sq's waits move it.
  const moving = { now: () => emu.emu.clock.now(), sleep: async (ms: number) => void (await emu.advance(ms)) };
  const csv = (name: string, rows: string[]) => {
    const f = join(tempConfigDir(), name);
    writeFileSync(f, `url\n${rows.join('\n')}\n`);
    return f;
  };
  const active = (id: string) =>
    Object.values(emu.emu.state.tasks).filter((t) => t.squid === id && t.is_active !== false).length;

  it('a next run above the cap already: exit 9 and nothing uploaded', async () => {
    const { id } = await berlin({ schedule: '0 9 * * 1' });
    const f = csv('up.csv', ['https://www.google.com/maps/search/bar+berlin']);
    const r = await sq(['tasks', 'upload', '--squid', 'Berlin cafés', f], {
      env: emu.env({ SQ_MAX_CREDITS: '5' }),
      clock: moving,
    });
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(
      new RegExp(
        /over budget: each scheduled run is already estimated at \d+ credits, above the cap of 5 /.source +
          /\(SQ_MAX_CREDITS\), and new tasks only add to it; the file was not uploaded/.source,
      ),
    );
    expect(await posts()).toEqual(['/v1/squid/estimate']);
    expect(active(id)).toBe(2);
  });

  it('tasks that lift the next run above the cap: exit 9, the new tasks removed again, the squid as it was', async () => {
    emu.expectWrites('POST /v1/tasks/upload', 'DELETE /v1/tasks/*');
    const { id, total } = await berlin({ schedule: '0 9 * * 1' });
    const f = csv('up.csv', [
      'https://www.google.com/maps/search/bar+berlin',
      'https://www.google.com/maps/search/pub+berlin',
    ]);
    const r = await sq(['tasks', 'upload', '--squid', 'Berlin cafés', f, '--max-credits', String(total)], {
      env: emu.env(),
      clock: moving,
    });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain(`above the cap of ${total} (--max-credits); the new tasks were removed again`);
    expect(r.stderr).toContain("The 2 new tasks were removed: the squid's tasks are as they were.");
    expect(active(id)).toBe(2);
    expect((await emu.requests('DELETE')).length).toBe(2);
  });

  it('under the cap the tasks stay; without a cap nothing more is sent than the upload', async () => {
    emu.expectWrites('POST /v1/tasks/upload');
    const { id } = await berlin({ schedule: '0 9 * * 1' });
    const r = await sq(
      [
        'tasks',
        'upload',
        '--squid',
        'Berlin cafés',
        csv('a.csv', ['https://www.google.com/maps/search/bar+berlin']),
        '--max-credits',
        '100000',
      ],
      { env: emu.env(), clock: moving },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Upload done: 1 inserted');
    expect(active(id)).toBe(3);
    await emu.clearRequests();
    const free = await sq(
      ['tasks', 'upload', '--squid', 'Berlin cafés', csv('b.csv', ['https://www.google.com/maps/search/pub+berlin'])],
      { env: emu.env(), clock: moving },
    );
    expect(free.code, free.stderr).toBe(0);
    expect(await posts()).toEqual(['/v1/tasks/upload']);
  });
});

describe('a schedule whose runs would set off an Auto Billing Reset (a card charge): off a terminal it needs --yes', () => {
  /** 750 of 1,000 used at 80 %: one run of the squid (about 100 credits) pushes usage above 800. */
  const resetsOn = () =>
    emu.control('POST', '/_emulator/billing', {
      available: 1000,
      consumed: 750,
      auto_reset: { enabled: true, threshold_pct: 80, max_resets_per_24h: 2 },
    });

  it('squids update --schedule: exit 9 naming --yes, the schedule not written; --yes writes it', async () => {
    const { id } = await berlin();
    await resetsOn();
    const r = await sq(['squids', 'update', 'Berlin cafés', '--schedule', '0 9 * * 1'], { env: emu.env() });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain(
      'Each scheduled run would set off an Auto Billing Reset (a card charge); the schedule was not turned on: pass --yes to accept the charge',
    );
    expect(await posts()).toEqual(['/v1/squid/estimate']);
    expect((await squidState(id)).schedule).toBeNull();
    emu.expectWrites('POST /v1/squids/*');
    const yes = await sq(['squids', 'update', 'Berlin cafés', '--schedule', '0 9 * * 1', '--yes'], { env: emu.env() });
    expect(yes.code, yes.stderr).toBe(0);
    expect((await squidState(id)).schedule.cron_expression).toBe('0 9 * * 1');
  });

  it('squids activate of a scheduled squid: exit 9 naming --yes, is_active not written', async () => {
    const { id } = await berlin({ schedule: '0 9 * * 1', active: false });
    await resetsOn();
    const r = await sq(['squids', 'activate', 'Berlin cafés'], { env: emu.env() });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('pass --yes to accept the charge');
    expect(await posts()).toEqual(['/v1/squid/estimate']);
    expect((await squidState(id)).is_active).toBe(false);
  });
});
