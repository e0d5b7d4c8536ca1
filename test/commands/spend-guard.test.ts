// In-process against the emulator: the spending guard of `sq runs start` and `sq go`. A cap (--max-credits,
// SQ_MAX_CREDITS, the profile's max-credits) estimates first and, above it, exits 9 with the estimate on stderr and no
// POST /v1/runs in the emulator's request log; below it the run starts. Without a cap and without a terminal nothing
// more is sent. A failed estimate with a cap set starts nothing. (The y/N question on a real terminal: test/system/tty.)
import { describe, expect, it } from 'vitest';
import { berlinSquid } from '../helpers/spend.js';
import { useEmulator } from '../helpers/emulator.js';
import { sq, tempConfigDir } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { InterruptedError } from '../../src/errors.js';

const emu = useEmulator({ each: 'reset' });

/** A Google Maps squid as a new user makes it (emails on by default), two tasks: about 100 credits. */
async function berlin(): Promise<{ id: string; total: number }> {
  const s = { id: await berlinSquid(emu) };
  const est = await emu.api('/v1/squid/estimate', { method: 'POST', body: { squid: s.id } });
  await emu.clearRequests();
  return { id: s.id, total: est.total_credits };
}

const posts = async () => (await emu.requests('POST')).map((r) => r.path);

describe('sq runs start: the cap', () => {
  it('--max-credits below the estimate: exit 9, the estimate on stderr, no POST /v1/runs', async () => {
    const { total } = await berlin();
    const r = await sq(['runs', 'start', '--squid', 'Berlin cafés', '--max-credits', String(total - 1)], {
      env: emu.env(),
    });
    expect(r.code).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `over budget: the run is estimated at ${total} credits, above the cap of ${total - 1} (--max-credits); no run was started`,
    );
    expect(r.stderr).toMatch(/Estimate: \d+ credits \(base \d+, extract_emails_from_website \d+\)/);
    expect(r.stderr).toContain(
      "Turn it off: sq squids update 'Berlin cafés' --param functions.extract_emails_from_website=false",
    );
    expect(await posts()).toEqual(['/v1/squid/estimate']);
  });

  it('--json: the error object carries exit code 9', async () => {
    const { total } = await berlin();
    const r = await sq(['runs', 'start', '--squid', 'Berlin cafés', '--max-credits', String(total - 1), '--json'], {
      env: emu.env(),
    });
    expect(r.code).toBe(9);
    expect(JSON.parse(r.stderr.trim().split('\n')[0]).error.code).toBe(9);
  });

  it('SQ_MAX_CREDITS is the cap when no flag is given; --max-credits overrides it', async () => {
    const { total } = await berlin();
    const r = await sq(['runs', 'start', '--squid', 'Berlin cafés'], { env: emu.env({ SQ_MAX_CREDITS: '10' }) });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('above the cap of 10 (SQ_MAX_CREDITS)');
    expect(await posts()).toEqual(['/v1/squid/estimate']);
    const over = await sq(['runs', 'start', '--squid', 'Berlin cafés', '--max-credits', String(total)], {
      env: emu.env({ SQ_MAX_CREDITS: '10' }),
    });
    expect(over.code).toBe(0);
    expect(await posts()).toEqual(['/v1/squid/estimate', '/v1/squid/estimate', '/v1/runs']);
  });

  it("the profile's max-credits (sq config set) is the cap too", async () => {
    await berlin();
    const cfg = tempConfigDir();
    expect((await sq(['config', 'set', 'max-credits', '5'], { env: emu.env({ SQ_CONFIG_DIR: cfg }) })).code).toBe(0);
    const r = await sq(['runs', 'start', '--squid', 'Berlin cafés'], { env: emu.env({ SQ_CONFIG_DIR: cfg }) });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('above the cap of 5 (max-credits of profile "default" (sq config))');
    expect(await posts()).toEqual(['/v1/squid/estimate']);
  });

  it('an estimate at or under the cap starts the run', async () => {
    const { total } = await berlin();
    const r = await sq(['runs', 'start', '--squid', 'Berlin cafés', '--max-credits', String(total), '--json'], {
      env: emu.env(),
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe('pending');
    expect(await posts()).toEqual(['/v1/squid/estimate', '/v1/runs']);
  });

  it('a bad --max-credits or SQ_MAX_CREDITS is exit 2 naming it, before any request', async () => {
    await berlin();
    for (const [args, env, name] of [
      [['--max-credits', 'lots'], {}, '--max-credits'],
      [['--max-credits', '-5'], {}, '--max-credits'],
      [[], { SQ_MAX_CREDITS: '1e3' }, 'SQ_MAX_CREDITS'],
    ] as const) {
      const r = await sq(['runs', 'start', '--squid', 'Berlin cafés', ...args], { env: emu.env(env) });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${name} must be a number of credits`);
    }
    expect(await emu.requests()).toEqual([]);
  });

  it('no cap and no terminal: the run is estimated and one estimate line goes to stderr; -q silences it', async () => {
    emu.expectWrites('POST /v1/runs');
    const { total } = await berlin();
    const r = await sq(['runs', 'start', '--squid', 'Berlin cafés'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `^estimated ${total} credits \\(base \\d+, extract_emails_from_website \\d+\\), sets off no reset$`,
        'm',
      ),
    );
    expect(await posts()).toEqual(['/v1/squid/estimate', '/v1/runs']);
    await emu.advance(3_600_000);
    const q = await sq(['runs', 'start', '--squid', 'Berlin cafés', '-q'], { env: emu.env() });
    expect(q.code).toBe(0);
    expect(q.stderr).not.toContain('estimated');
  });

  it('an estimate the API cannot give (503 after retries) with a cap set is exit 9 and starts nothing, --yes or not', async () => {
    await berlin();
    await emu.faults([{ path: '/v1/squid/estimate', action: 'status', status: 503 }]);
    const r = await sq(['runs', 'start', '--squid', 'Berlin cafés', '--max-credits', '1000', '--yes'], {
      env: emu.env(),
    });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('the cost of the run could not be estimated (');
    expect(r.stderr).toContain(
      'no run was started: the cap of 1,000 credits (--max-credits) can only be met by an estimate, and a run is never started without an estimate',
    );
    expect((await posts()).filter((p) => p === '/v1/runs')).toEqual([]);
    expect((await posts()).length).toBeGreaterThan(1);
  });

  it('no estimate (503) with Auto Billing Reset on, off a terminal: exit 9 naming --yes and no POST /v1/runs; --yes starts it', async () => {
    await berlin();
    await emu.control('POST', '/_emulator/billing', {
      auto_reset: { enabled: true, threshold_pct: 80, max_resets_per_24h: 2 },
    });
    await emu.faults([{ path: '/v1/squid/estimate', action: 'status', status: 503 }]);
    const r = await sq(['runs', 'start', '--squid', 'Berlin cafés'], { env: emu.env() });
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(
      new RegExp(
        /The cost of the run could not be estimated \(.*503.*\) and Auto Billing Reset is on, so it may /.source +
          /charge the card; no run was started: pass --yes to start the run anyway/.source,
      ),
    );
    expect(await posts()).not.toContain('/v1/runs');
    emu.expectWrites('POST /v1/runs');
    const yes = await sq(['runs', 'start', '--squid', 'Berlin cafés', '--yes'], { env: emu.env() });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).toContain('going on without an estimate (--yes)');
    expect((await posts()).filter((p) => p === '/v1/runs')).toHaveLength(1);
  });

  it('no estimate with Auto Billing Reset on, on a terminal: the question, and a no starts nothing', async () => {
    await berlin();
    await emu.control('POST', '/_emulator/billing', {
      auto_reset: { enabled: true, threshold_pct: 80, max_resets_per_24h: 2 },
    });
    await emu.faults([{ path: '/v1/squid/estimate', action: 'status', status: 503 }]);
    const r = await sq(['runs', 'start', '--squid', 'Berlin cafés'], {
      env: { ...emu.env(), CI: '' },
      tty: true,
      stdin: 'n\n',
    });
    expect(r.code).toBe(11);
    expect(r.stderr).toContain('Start the run? The cost of the run could not be estimated');
    expect(await posts()).not.toContain('/v1/runs');
  });

  it('no estimate with Auto Billing Reset off: a warning, and the run starts', async () => {
    await berlin();
    await emu.faults([{ path: '/v1/squid/estimate', action: 'status', status: 503 }]);
    emu.expectWrites('POST /v1/runs');
    const r = await sq(['runs', 'start', '--squid', 'Berlin cafés'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'going on without an estimate (Auto Billing Reset is off: nothing is charged to the card)',
    );
  });

  it('an estimate that fails as the API says (no tasks) is that error', async () => {
    const r = await sq(['runs', 'start', '--squid', DEMO_SQUIDS.lyon, '--max-credits', '1000'], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/NoTasksPresent/);
    expect((await posts()).filter((p) => p === '/v1/runs')).toEqual([]);
  });

  it('on a terminal, --no-input without --yes is exit 2 naming --yes when the run needs a yes; --yes starts it', async () => {
    const { total } = await berlin();
    const cfg = tempConfigDir();
    await sq(['config', 'set', 'confirm-above', String(total - 1)], { env: emu.env({ SQ_CONFIG_DIR: cfg }) });
    const r = await sq(['runs', 'start', '--squid', 'Berlin cafés', '--no-input'], {
      env: emu.env({ SQ_CONFIG_DIR: cfg }),
      tty: true,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    expect(r.stderr).toContain(`Estimate: ${total} credits`);
    expect(await posts()).toEqual(['/v1/squid/estimate']);
    const yes = await sq(['runs', 'start', '--squid', 'Berlin cafés', '--yes'], {
      env: emu.env({ SQ_CONFIG_DIR: cfg }),
      tty: true,
    });
    expect(yes.code).toBe(0);
    // --yes skips the question, not the estimate line.
    expect(await posts()).toEqual(['/v1/squid/estimate', '/v1/squid/estimate', '/v1/runs']);
  });

  it('on a terminal, a run under confirm-above and without auto-reset charges starts without a question', async () => {
    await berlin();
    const r = await sq(['runs', 'start', '--squid', DEMO_SQUIDS.headphones, '--no-input'], {
      env: emu.env(),
      tty: true,
    });
    expect(r.code).toBe(0);
    expect(await posts()).toEqual(['/v1/squid/estimate', '/v1/runs']);
  });

  it('on a terminal, a run that would set off an Auto Billing Reset needs a yes even under confirm-above', async () => {
    await berlin();
    await emu.control('POST', '/_emulator/billing', { auto_reset: { enabled: true, threshold_pct: 80 } });
    await emu.control('POST', '/_emulator/usage', { pct: 79.99 });
    const r = await sq(['runs', 'start', '--squid', DEMO_SQUIDS.headphones, '--no-input'], {
      env: emu.env(),
      tty: true,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /Auto Billing Reset: this run sets off 1 reset \(threshold 80%, 3 of 3 left in the 24-hour window\); each renews plan Premium/,
    );
    expect((await posts()).filter((p) => p === '/v1/runs')).toEqual([]);
  });
});

describe('sq go: the cap', () => {
  it('creates the squid and adds its tasks, then exits 9 without starting a run', async () => {
    const r = await sq(
      ['go', 'google-maps-search-export', 'https://www.google.com/maps/search/cafe+berlin', '--max-credits', '1'],
      { env: emu.env() },
    );
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(
      /over budget: the run is estimated at \d+ credits, above the cap of 1 \(--max-credits\); no run was started/,
    );
    const p = await posts();
    expect(p).toContain('/v1/squids');
    expect(p).toContain('/v1/tasks');
    expect(p).toContain('/v1/squid/estimate');
    expect(p).not.toContain('/v1/runs');
  });

  it('the estimate goes beside the read of the runs in progress, not after it (no round trip of its own)', async () => {
    // The runs in progress answer late: an estimate sent beside them is answered (and logged) first.
    await emu.faults([{ method: 'GET', path: '/v1/runs', action: 'delay', ms: 500, count: 1 }]);
    const r = await sq(
      ['go', 'google-maps-search-export', 'https://www.google.com/maps/search/cafe+berlin', '--max-credits', '1'],
      { env: emu.env() },
    );
    expect(r.code).toBe(9);
    const log = (await emu.requests()).map((q) => `${q.method} ${q.path}`);
    expect(log).toContain('GET /v1/runs');
    expect(log.indexOf('POST /v1/squid/estimate')).toBeLessThan(log.indexOf('GET /v1/runs'));
  });

  it('SQ_MAX_CREDITS caps it the same way', async () => {
    const r = await sq(['go', 'amazon-products', 'https://www.amazon.com/s?k=desk'], {
      env: emu.env({ SQ_MAX_CREDITS: '0' }),
    });
    expect(r.code).toBe(9);
    expect(await posts()).not.toContain('/v1/runs');
  });
});

describe('a stop signal while the run is being estimated', () => {
  it('SIGTERM: exit 143, "no run was started", never "may have started anyway"; no POST /v1/runs', async () => {
    await berlin();
    await emu.faults([{ method: 'POST', path: '/v1/squid/estimate', action: 'hang' }]);
    const controller = new AbortController();
    const pending = sq(['runs', 'start', '--squid', 'Berlin cafés'], { env: emu.env(), signal: controller.signal });
    // Waits for the estimate to reach the emulator (the event), then stops sq.
    while (!(await emu.requests('POST')).some((q) => q.path === '/v1/squid/estimate'))
      await new Promise((r) => setImmediate(r));
    controller.abort(new InterruptedError('SIGTERM'));
    const r = await pending;
    await emu.clearFaults();
    expect(r.code).toBe(143);
    expect(r.stderr).toContain('no run was started');
    expect(r.stderr).not.toContain('may have started anyway');
    expect((await posts()).filter((p) => p === '/v1/runs')).toEqual([]);
  });
});
