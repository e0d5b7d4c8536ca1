// sq squids chain SQUID / chain set / chain delete against the real emulator: the request each sends (POST to create,
// PATCH to change, DELETE), what it prints, and bad input refused before any request.
import { beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq, tempConfigDir } from '../helpers/cli.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { parseFieldMap } from '../../src/api/chains.js';
import * as store from '../../src/emulator/model/store.js';

const emu = useEmulator({ each: 'reset' });
let paris: string;
beforeEach(() => {
  paris = emu.squidId(DEMO_SQUIDS.paris);
});

const writes = async () =>
  (await emu.requests())
    .filter((r) => r.method !== 'GET')
    .map((r) => ({ method: r.method, path: r.path, body: r.body }));

describe('bad input: exit 2 before any request', () => {
  it.each([
    [['--field-map', 'url'], '--field-map must look like SOURCE_FIELD=TARGET_PARAM'],
    [['--field-map', '=url'], '--field-map must look like SOURCE_FIELD=TARGET_PARAM'],
    [['--field-map', 'url='], '--field-map must look like SOURCE_FIELD=TARGET_PARAM'],
    [['--field-map', 'place url=url'], '--field-map must look like SOURCE_FIELD=TARGET_PARAM'],
    [['--field-map', 'a=b,c=d'], '--field-map must look like SOURCE_FIELD=TARGET_PARAM'],
    [['--field-map', 'url=url', '--field-map', 'url=link'], 'source field "url" is mapped twice'],
    [['--field-map', 'url=url', '--field-map', 'url=url'], 'source field "url" is given twice'],
    [['--target-concurrency', '0'], '--target-concurrency must be an integer from 1 to 20'],
    [['--target-concurrency', '21'], '--target-concurrency must be an integer from 1 to 20'],
    [['--target-name', '  '], '--target-name must be a non-empty value'],
    [['--target-crawler', ' '], '--target-crawler must be a non-empty value'],
    [[], 'nothing to set'],
  ])('chain set %j → exit 2', async (flags, message) => {
    const r = await sq(['squids', 'chain', 'set', DEMO_SQUIDS.paris, ...flags], { env: emu.env() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await emu.requests()).toEqual([]);
  });

  it('parseFieldMap trims; a source given twice, even alike, is exit 2 (issue 33 item 7); names of Object.prototype are plain names', () => {
    expect(parseFieldMap([' url=url', ' name = keyword '])).toEqual({ url: 'url', name: 'keyword' });
    expect(() => parseFieldMap(['url=url', 'url=url'])).toThrow('source field "url" is given twice');
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__']) {
      const m = parseFieldMap([`${name}=url`]);
      expect(Object.keys(m)).toEqual([name]);
      expect(() => parseFieldMap([`${name}=url`, `${name}=link`])).toThrow(`source field "${name}" is mapped twice`);
    }
  });
});

describe('sq squids chain SQUID', () => {
  it('without a chain: nothing on stdout and a hint on stderr, exit 0; --json prints null', async () => {
    const r = await sq(['squids', 'chain', DEMO_SQUIDS.paris], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('has no chain');
    const j = await sq(['squids', 'chain', DEMO_SQUIDS.paris, '--json'], { env: emu.env() });
    expect(j.code, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout)).toBeNull();
    expect(await emu.requestLines()).toContain(`GET /v1/squids/${paris}/chain`);
  });

  it('a 200 answer that is neither a chain nor null is exit 1: not shown as a chain, and chain set writes nothing', async () => {
    for (const body of [[], { detail: 'x' }]) {
      await emu.faults([
        { path: `/v1/squids/${paris}/chain`, method: 'GET', action: 'status', status: 200, body, count: 5 },
      ]);
      const j = await sq(['squids', 'chain', DEMO_SQUIDS.paris, '--json'], { env: emu.env() });
      expect(j.code, j.stderr).toBe(1);
      expect(j.stdout).toBe('');
      // An error message is no document of any endpoint (issue 33, E9): refused before the chain check.
      expect(j.stderr).toMatch(/instead of a chain or null|but the answer is an error message, not a document/);
      await emu.clearRequests();
      const set = await sq(['squids', 'chain', 'set', DEMO_SQUIDS.paris, '--target-concurrency', '2'], {
        env: emu.env(),
      });
      expect(set.code, set.stderr).toBe(1);
      expect(await writes()).toEqual([]);
    }
  });
});

describe('sq squids chain set', () => {
  it('creates the chain with POST (crawler by slug, the documented body), then shows it', async () => {
    const r = await sq(
      [
        'squids',
        'chain',
        'set',
        DEMO_SQUIDS.paris,
        '--target-crawler',
        'amazon-products',
        '--field-map',
        'website=url',
        '--no-autostart',
        '--target-name',
        'Products',
        '--target-concurrency',
        '3',
        '--json',
      ],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await writes()).toEqual([
      {
        method: 'POST',
        path: `/v1/squids/${paris}/chain`,
        body: {
          target_module_id: DEMO_CRAWLERS.amazon,
          field_map: { website: 'url' },
          autostart: false,
          cluster_name: 'Products',
          cluster_concurrency: 3,
        },
      },
    ]);
    const chain = JSON.parse(r.stdout);
    expect(chain).toMatchObject({
      target_module: { id: DEMO_CRAWLERS.amazon },
      target_cluster: null,
      field_map: { website: 'url' },
      autostart: false,
      cluster_name: 'Products',
      cluster_concurrency: 3,
    });
    // GET squid carries it too, and `chain SQUID` shows the same record.
    expect((await emu.api(`/v1/squids/${paris}`)).chain).toEqual(chain);
    const shown = await sq(['squids', 'chain', paris.slice(0, 8), '--json'], { env: emu.env() });
    expect(JSON.parse(shown.stdout)).toEqual(chain);
  });

  it('a squid without a chain needs --target-crawler and --field-map: exit 2 naming the missing one, nothing written', async () => {
    const r = await sq(['squids', 'chain', 'set', DEMO_SQUIDS.paris, '--field-map', 'website=url'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('creating one needs --target-crawler');
    expect(r.stderr).not.toContain('--field-map and');
    expect(await writes()).toEqual([]);
  });

  // Issue 33 E16: the source field was never checked; a typo made a chain whose runs get empty tasks.
  it.each(['nope', 'constructor', 'toString'])(
    '--field-map %s=url, no result field of the squid: exit 2 naming the fields, nothing created',
    async (src) => {
      const r = await sq(
        [
          'squids',
          'chain',
          'set',
          DEMO_SQUIDS.paris,
          '--target-crawler',
          'amazon-products',
          '--field-map',
          `${src}=url`,
        ],
        { env: emu.env() },
      );
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `--field-map: the results of squid ${DEMO_SQUIDS.paris} have no field "${src}" (its fields: match_filters, name, address, phone, website,`,
      );
      expect(await writes()).toEqual([]);
    },
  );

  it('with a chain: PATCH carrying only the settings given; the same target and field map are accepted', async () => {
    emu.expectWrites('PATCH /v1/squids/*/chain');
    await emu.api(`/v1/squids/${paris}/chain`, {
      method: 'POST',
      body: { target_module_id: DEMO_CRAWLERS.amazon, field_map: { website: 'url' } },
    });
    await emu.clearRequests();
    const r = await sq(
      [
        'squids',
        'chain',
        'set',
        DEMO_SQUIDS.paris,
        '--target-crawler',
        'amazon-products',
        '--field-map',
        'website=url',
        '--target-concurrency',
        '5',
        '--no-autostart',
      ],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await writes()).toEqual([
      { method: 'PATCH', path: `/v1/squids/${paris}/chain`, body: { autostart: false, cluster_concurrency: 5 } },
    ]);
    expect(r.stdout).toContain('5');
    expect((await emu.api(`/v1/squids/${paris}/chain`)).cluster_concurrency).toBe(5);

    const on = await sq(['squids', 'chain', 'set', DEMO_SQUIDS.paris, '--autostart'], { env: emu.env() });
    expect(on.code, on.stderr).toBe(0);
    expect((await emu.api(`/v1/squids/${paris}/chain`)).autostart).toBe(true);
  });

  it('with a chain: another target crawler or field map is exit 2 saying to delete first, nothing written', async () => {
    await emu.api(`/v1/squids/${paris}/chain`, {
      method: 'POST',
      body: { target_module_id: DEMO_CRAWLERS.amazon, field_map: { website: 'url' } },
    });
    await emu.clearRequests();
    for (const flags of [
      ['--target-crawler', 'google-maps-search-export'],
      ['--field-map', 'name=url'],
    ]) {
      const r = await sq(['squids', 'chain', 'set', DEMO_SQUIDS.paris, ...flags], { env: emu.env() });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`sq squids chain delete ${paris}`);
    }
    expect(await writes()).toEqual([]);
  });

  it("the 4th squid of a chain: the API's 422 is shown", async () => {
    emu.expectWrites('POST /v1/squids/*/chain');
    const squids = [paris];
    for (const name of ['B', 'C'])
      squids.push((await emu.api('/v1/squids', { method: 'POST', body: { crawler: DEMO_CRAWLERS.amazon, name } })).id);
    // The emulator links a target once it exists: fire two chains by hand through the control state.
    store.updateRecord(emu.emu, 'squids', squids[1], { chained_from: squids[0] });
    store.updateRecord(emu.emu, 'squids', squids[2], { chained_from: squids[1] });
    const r = await sq(
      ['squids', 'chain', 'set', 'C', '--target-crawler', 'amazon-products', '--field-map', 'url=url'],
      { env: emu.env() },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Chain depth limit of 3 reached.');
  });
});

describe('sq squids chain delete', () => {
  it('needs --yes without a terminal; removes the link with DELETE; a squid without a chain is exit 3', async () => {
    emu.expectWrites('DELETE /v1/squids/*/chain');
    await emu.api(`/v1/squids/${paris}/chain`, {
      method: 'POST',
      body: { target_module_id: DEMO_CRAWLERS.amazon, field_map: { website: 'url' } },
    });
    await emu.clearRequests();
    const ask = await sq(['squids', 'chain', 'delete', DEMO_SQUIDS.paris], { env: emu.env() });
    expect(ask.code).toBe(2);
    expect(ask.stderr).toContain('--yes');
    expect(await emu.requests()).toEqual([]);

    const r = await sq(['squids', 'chain', 'rm', DEMO_SQUIDS.paris, '--yes'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(await writes()).toEqual([{ method: 'DELETE', path: `/v1/squids/${paris}/chain`, body: undefined }]);
    expect(await emu.api(`/v1/squids/${paris}/chain`)).toBeNull();

    const again = await sq(['squids', 'chain', 'delete', DEMO_SQUIDS.paris, '--yes'], { env: emu.env() });
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('No chain configured on this squid.');
  });
});

describe('the command tree below a verb', () => {
  it('a word after `chain` that is not a subcommand is its squid; a typo of a noun or verb is still exit 2', async () => {
    const help = await sq(['squids', 'chain', 'set', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: sq squids chain set \[options\] <squid>/m);
    const typo = await sq(['squids', 'chian', '--help']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown command "chian" for sq squids');
    expect(typo.stderr).toContain('chain');
  });
});

describe('chain set: the target squid costs too', () => {
  it("before the chain has fired: says its runs are charged, with the target crawler's rate a row", async () => {
    emu.expectWrites('POST /v1/squids/*/chain');
    const r = await sq(
      [
        'squids',
        'chain',
        'set',
        DEMO_SQUIDS.paris,
        '--target-crawler',
        'amazon-products',
        '--field-map',
        'website=url',
      ],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `Costs too: each done run of ${DEMO_SQUIDS.paris} adds its results as tasks of the target ` +
        `squid (Amazon Products Scraper, made on the first done run) and starts a run of it, which ` +
        `is charged.`,
    );
    expect(r.stderr).toContain('Amazon Products Scraper charges 1 credits a row');
  });

  it('once the target has tasks: its estimate, from POST /v1/squid/estimate', async () => {
    emu.expectWrites('PATCH /v1/squids/*/chain');
    await emu.api(`/v1/squids/${paris}/chain`, {
      method: 'POST',
      body: { target_module_id: DEMO_CRAWLERS.amazon, field_map: { website: 'url' } },
    });
    const run = await emu.api('/v1/runs', { method: 'POST', body: { squid: paris } });
    for (let i = 0; i < 20 && (await emu.api(`/v1/runs/${run.id}`)).status !== 'done'; i++) await emu.advance(10_000);
    const chain = await emu.api(`/v1/squids/${paris}/chain`);
    expect(chain.target_cluster).not.toBeNull();
    const est = await emu.api('/v1/squid/estimate', { method: 'POST', body: { squid: chain.target_cluster.id } });
    const r = await sq(['squids', 'chain', 'set', DEMO_SQUIDS.paris, '--no-autostart'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('in a paused run: nothing is charged until it is resumed');
    expect(r.stderr).toContain(`Its run now: Estimate: ${est.total_credits} credits`);
  });
});

describe('chain set: the cost is said before the chain is written, and the cap holds', () => {
  /** A chain whose target squid exists with tasks (the source ran once), autostart off. */
  async function firedChain(): Promise<{ target: string; total: number }> {
    await emu.api(`/v1/squids/${paris}/chain`, {
      method: 'POST',
      body: { target_module_id: DEMO_CRAWLERS.amazon, field_map: { website: 'url' }, autostart: false },
    });
    const run = await emu.api('/v1/runs', { method: 'POST', body: { squid: paris } });
    for (let i = 0; i < 20 && (await emu.api(`/v1/runs/${run.id}`)).status !== 'done'; i++) await emu.advance(10_000);
    const chain = await emu.api(`/v1/squids/${paris}/chain`);
    const est = await emu.api('/v1/squid/estimate', { method: 'POST', body: { squid: chain.target_cluster.id } });
    await emu.clearRequests();
    return { target: chain.target_cluster.id, total: est.total_credits };
  }

  it("a new chain: the target crawler's rate is read and said before the POST of the chain", async () => {
    const r = await sq(
      [
        'squids',
        'chain',
        'set',
        DEMO_SQUIDS.paris,
        '--target-crawler',
        'amazon-products',
        '--field-map',
        'website=url',
      ],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    const log = (await emu.requests()).map((q) => `${q.method} ${q.path}`);
    const rate = log.indexOf(`GET /v1/crawlers/${DEMO_CRAWLERS.amazon}`);
    expect(rate).toBeGreaterThanOrEqual(0);
    expect(rate).toBeLessThan(log.indexOf(`POST /v1/squids/${paris}/chain`));
    // The cost is on stderr before the chain's own record is printed (stdout), as the lines come in order.
    expect(r.stderr.indexOf('Costs too:')).toBeLessThan(r.stderr.indexOf('Chained squid'));
  });

  it('--autostart on a target estimated above --max-credits: exit 9, the chain not changed', async () => {
    const { total } = await firedChain();
    const r = await sq(
      ['squids', 'chain', 'set', DEMO_SQUIDS.paris, '--autostart', '--max-credits', String(total - 1)],
      { env: emu.env() },
    );
    expect(r.code).toBe(9);
    expect(r.stderr).toContain(
      `over budget: each run of the chained squid is estimated at ${total} credits, above the cap of ${total - 1} (--max-credits); the chain was not written`,
    );
    expect((await emu.requests()).filter((q) => q.method === 'PATCH')).toEqual([]);
    expect((await emu.api(`/v1/squids/${paris}/chain`)).autostart).toBe(false);
  });

  it('--autostart whose target run would set off an Auto Billing Reset: off a terminal exit 9 naming --yes, the chain not changed', async () => {
    await firedChain();
    // 799.9 of 1,000 used at 80 %: any run of the target pushes usage above the threshold.
    await emu.control('POST', '/_emulator/billing', { available: 1000, consumed: 799.9 });
    await emu.control('POST', '/_emulator/billing', {
      auto_reset: { enabled: true, threshold_pct: 80, max_resets_per_24h: 2 },
    });
    const r = await sq(['squids', 'chain', 'set', DEMO_SQUIDS.paris, '--autostart'], { env: emu.env() });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain(
      'Each run of the chained squid would set off an Auto Billing Reset (a card charge); the chain was not written: pass --yes to accept the charge',
    );
    expect((await emu.requests()).filter((q) => q.method === 'PATCH')).toEqual([]);
    expect((await emu.api(`/v1/squids/${paris}/chain`)).autostart).toBe(false);
  });

  it('--autostart on a terminal above confirm-above: --no-input is exit 2 naming --yes; --yes writes it', async () => {
    emu.expectWrites('PATCH /v1/squids/*/chain');
    const { total } = await firedChain();
    const cfg = tempConfigDir();
    await sq(['config', 'set', 'confirm-above', String(total - 1)], { env: emu.env({ SQ_CONFIG_DIR: cfg }) });
    const r = await sq(['squids', 'chain', 'set', DEMO_SQUIDS.paris, '--autostart', '--no-input'], {
      env: emu.env({ SQ_CONFIG_DIR: cfg }),
      tty: true,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    expect((await emu.api(`/v1/squids/${paris}/chain`)).autostart).toBe(false);
    const ok = await sq(['squids', 'chain', 'set', DEMO_SQUIDS.paris, '--autostart', '--yes'], {
      env: emu.env({ SQ_CONFIG_DIR: cfg }),
      tty: true,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect((await emu.api(`/v1/squids/${paris}/chain`)).autostart).toBe(true);
  });

  it('a new chain under a cap: the target has no estimate yet, and the warning says the cap cannot be checked', async () => {
    emu.expectWrites('POST /v1/squids/*/chain');
    const r = await sq(
      [
        'squids',
        'chain',
        'set',
        DEMO_SQUIDS.paris,
        '--target-crawler',
        'amazon-products',
        '--field-map',
        'website=url',
      ],
      { env: emu.env({ SQ_MAX_CREDITS: '10' }) },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "the cap (SQ_MAX_CREDITS, 10 credits) cannot be checked against the chained squid's runs",
    );
  });
});
