// The feature modules driven by the core's real run engine (demo seed, virtual clock): a run started over
// HTTP fires webhooks in order, uploads its results over real SFTP, e-mails a notification, and the credits
// it consumes trip the Auto Billing Reset check.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import SftpClient from 'ssh2-sftp-client';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { startSftpServer } from '../helpers/sftp-server.js';
import { startTestEmulator, type TestEmu } from '../helpers/emulator.js';
import { waitFor } from '../helpers/wait.js';
import { listenLocal } from '../helpers/net.js';
import type { J } from '../helpers/json.js';

let t: TestEmu;

/** Advance business time in small steps until the run is finished and exported. */
async function runToEnd(runId: string): Promise<J> {
  for (let i = 0; i < 200; i++) {
    const r = (await t.api('GET', `/v1/runs/${runId}`)).body;
    if (r.export_done === true) return r;
    await t.advance(5_000);
  }
  throw new Error(`run ${runId} did not finish`);
}

beforeEach(async () => {
  t = await startTestEmulator({ seed: 'demo' });
});

afterEach(async () => {
  await t.close();
});

it('a real run fires running then done to the webhook, and notifies by e-mail', async () => {
  const got: J[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      got.push(JSON.parse(data));
      res.writeHead(202).end();
    });
  });
  const url = `${await listenLocal(server)}/`;
  try {
    const squid = t.squidId(DEMO_SQUIDS.paris);
    const events = { 'run.running': true, 'run.paused': true, 'run.done': true, 'run.error': true };
    expect(
      (
        await t.api('POST', `/v1/delivery?squid=${squid}`, {
          webhook_fields: { url, is_active: true, retry: true, events },
        })
      ).status,
    ).toBe(201);
    expect(
      (await t.api('POST', `/v1/delivery?squid=${squid}`, { email: 'ops@example.com', notifications: true })).status,
    ).toBe(201);

    const run = (await t.api('POST', '/v1/runs', { squid })).body;
    await runToEnd(run.id);
    await waitFor(
      () => got,
      (g) => g.length >= 2,
      'running and done',
    );
    expect(got.map((g) => [g.id, g.event, g.squid.id, g.squid.name])).toEqual([
      [run.id, 'run.running', squid, DEMO_SQUIDS.paris],
      [run.id, 'run.done', squid, DEMO_SQUIDS.paris],
    ]);
    const d = (await t.ctl('GET', `/_emulator/deliveries?kind=webhook&run=${run.id}`)).body as J[];
    expect(d.map((x) => [x.event, x.ok, x.status_code])).toEqual([
      ['run.running', true, 202],
      ['run.done', true, 202],
    ]);
    const mail = ((await t.ctl('GET', '/_emulator/outbox')).body as J[]).filter((m) => m.subject.includes(run.id));
    expect(mail).toHaveLength(1);
    expect(mail[0].to).toBe('ops@example.com');
  } finally {
    await new Promise((r) => server.close(r));
  }
});

it('a real run uploads exactly its results over SFTP', async () => {
  const target = await startSftpServer();
  const { host, port, username, password } = target;
  const reader = new SftpClient('test-reader');
  await reader.connect({ host: target.host, port: target.port, username: target.username, password: target.password });
  const dir = `${target.directory}/run-${randomBytes(4).toString('hex')}`;
  await reader.mkdir(dir);
  try {
    const squid = t.squidId(DEMO_SQUIDS.paris);
    const r = await t.api('POST', `/v1/delivery?squid=${squid}`, {
      ftp_fields: { host, port, username, password, directory: dir, is_active: true },
    });
    expect(r.status).toBe(201);
    const run = (await t.api('POST', '/v1/runs', { squid })).body;
    await runToEnd(run.id);
    const [rec] = await waitFor(
      async () => (await t.ctl('GET', `/_emulator/deliveries?kind=sftp&run=${run.id}`)).body as J[],
      (x) => x.length === 1,
      'the SFTP record',
    );
    expect(rec.ok).toBe(true);
    const files = await reader.list(dir);
    expect(files.map((f) => `${dir}/${f.name}`)).toEqual([rec.path]);
    expect(files[0].name).toMatch(new RegExp(`^Paris_restaurants_${run.id}_\\d{8}_\\d{4}\\.csv$`));
    const csv = ((await reader.get(rec.path)) as Buffer).toString('utf8');
    const lines = csv.trimEnd().split('\n');
    expect(lines[0].startsWith('id,squid,run,scraping_time,')).toBe(true);

    const results = (await t.api('GET', `/v1/results?run=${run.id}&limit=100`)).body;
    expect(results.total_results).toBeGreaterThan(0);
    const ids = lines.slice(1).map((l) => l.split(',')[0]);
    expect(ids.sort()).toEqual((results.data as J[]).map((x) => x.id).sort());
  } finally {
    await reader.rmdir(dir, true).catch(() => undefined);
    await reader.end();
    await target.close();
  }
});

it('credits consumed by a real run trip the periodic Auto Billing Reset check, not the consumption itself', async () => {
  // A small allowance so one run's credits (a few dozen) cross a 2 % threshold.
  await t.control('POST', '/_emulator/billing', { available: 1000, consumed: 0 });
  expect(
    (await t.api('POST', '/v1/plans/auto-reset', { enabled: true, threshold_pct: 2, max_resets_per_24h: 5 })).body,
  ).toMatchObject({ resets_used_in_window: 0, current_usage_pct: 0 });
  const run = (await t.api('POST', '/v1/runs', { squid: t.squidId(DEMO_SQUIDS.paris) })).body;
  await runToEnd(run.id);
  // The run is over well inside the first 60 s check interval: usage is above the threshold, nothing reset yet.
  let r = (await t.api('GET', '/v1/plans/auto-reset')).body;
  expect(r.current_usage_pct).toBeGreaterThan(2);
  expect(r.current_usage_pct).toBe(Math.round(t.emu.state.balance.consumed * 10) / 100);
  expect(r.resets_used_in_window).toBe(0);
  await t.advance(60_000);
  r = (await t.api('GET', '/v1/plans/auto-reset')).body;
  expect(r).toMatchObject({ resets_used_in_window: 1, current_usage_pct: 0 });
  expect((await t.api('GET', '/v1/user/balance')).body.consumed).toBe(0);
});
