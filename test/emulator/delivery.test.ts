// POST /v1/delivery?squid= (every channel, every required field), the delivery test operations and the
// channels the emulator completes itself (e-mail notifications, Google Sheet, S3) — over real HTTP.
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BARE_SQUID as SQUID, jsonCall, startBareEmulator, type TestEmulator } from '../helpers/emulator.js';
import { listenLocal } from '../helpers/net.js';
import type { J } from '../helpers/json.js';

let e: TestEmulator;

const call = (method: string, path: string, body?: unknown) => jsonCall(e, method, path, body);
const configure = (body: unknown, squid = SQUID) => call('POST', `/v1/delivery?squid=${squid}`, body);

const FTP = {
  host: 'sftp.example.com',
  port: 22,
  username: 'me',
  password: 's3cret!',
  directory: '/in',
  is_active: true,
};
const HOOK = {
  url: 'https://hooks.example.com/x',
  is_active: true,
  retry: true,
  events: { 'run.running': false, 'run.paused': false, 'run.done': true, 'run.error': true },
};

beforeEach(async () => {
  e = await startBareEmulator('Cafés de Paris');
  await e.control('POST', '/_emulator/billing', { email: 'owner@example.com' });
});

afterEach(async () => {
  await e.close();
});

describe('POST /v1/delivery?squid=', () => {
  it('needs the squid query parameter and a known squid', async () => {
    let r = await call('POST', '/v1/delivery', { ftp_fields: FTP });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'validation_error', param: 'squid' });
    r = await configure({ ftp_fields: FTP }, '0123456789abcdef0123456789abcdef');
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ type: 'not_found_error', param: 'squid' });
  });

  it('stores SFTP settings and answers 201 echoing them as the SFTP page does: password included, no is_active', async () => {
    const r = await configure({ ftp_fields: FTP });
    expect(r.status).toBe(201);
    const { is_active: _a, ...echo } = FTP;
    expect(r.body).toEqual({ ftp_fields: echo });
    expect(e.emu.state.squids[SQUID].ftp_fields).toEqual(FTP);
  });

  const ftpBad: [string, unknown][] = [
    ['host', undefined],
    ['host', ''],
    ['host', 5],
    ['port', undefined],
    ['port', '22'],
    ['port', 0],
    ['port', 65536],
    ['port', 22.5],
    ['username', undefined],
    ['username', null],
    ['password', undefined],
    ['password', 1234],
    ['directory', undefined],
    ['directory', ['/in']],
    ['is_active', undefined],
    ['is_active', 'true'],
  ];
  for (const [field, value] of ftpBad) {
    it(`rejects ftp_fields.${field} = ${JSON.stringify(value)}`, async () => {
      const r = await configure({ ftp_fields: { ...FTP, [field]: value } });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ type: 'validation_error', param: `ftp_fields.${field}` });
      expect(r.body.error.message).toContain(`ftp_fields.${field}`);
      expect(e.emu.state.squids[SQUID].ftp_fields).toBeNull();
    });
  }

  it('accepts webhook events as flat dotted keys and stores them', async () => {
    const r = await configure({ webhook_fields: HOOK });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ webhook_fields: HOOK });
    expect(e.emu.state.squids[SQUID].webhook_fields).toEqual(HOOK);
  });

  it('accepts webhook events nested ({run: {done}}) and stores them flat', async () => {
    const r = await configure({
      webhook_fields: { ...HOOK, events: { run: { running: true, paused: false, done: true, error: false } } },
    });
    expect(r.status).toBe(201);
    const flat = { 'run.running': true, 'run.paused': false, 'run.done': true, 'run.error': false };
    expect((r.body as { webhook_fields: { events: unknown } }).webhook_fields.events).toEqual(flat);
    expect((e.emu.state.squids[SQUID].webhook_fields as { events: unknown }).events).toEqual(flat);
  });

  const hookBad: [J, string][] = [
    [{ ...HOOK, url: undefined }, 'webhook_fields.url'],
    [{ ...HOOK, url: 'not a url' }, 'webhook_fields.url'],
    [{ ...HOOK, url: 'ftp://x.example.com/' }, 'webhook_fields.url'],
    [{ ...HOOK, is_active: 1 }, 'webhook_fields.is_active'],
    [{ ...HOOK, retry: undefined }, 'webhook_fields.retry'],
    [{ ...HOOK, events: undefined }, 'webhook_fields.events'],
    [
      { ...HOOK, events: { 'run.running': true, 'run.done': true, 'run.error': true } },
      'webhook_fields.events.run.paused',
    ],
    [{ ...HOOK, events: { ...HOOK.events, 'run.done': 'yes' } }, 'webhook_fields.events.run.done'],
    [{ ...HOOK, events: { run: { running: true, paused: true, done: true } } }, 'webhook_fields.events.run.error'],
  ];
  for (const [fields, param] of hookBad) {
    it(`rejects a webhook config missing or mistyping ${param}`, async () => {
      const r = await configure({ webhook_fields: fields });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ type: 'validation_error', param });
    });
  }

  it('stores Google Sheet settings', async () => {
    const g = { url: 'https://docs.google.com/spreadsheets/d/abc', append: true, is_active: true };
    const r = await configure({ google_sheet_fields: g });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ google_sheet_fields: g });
    const bad = await configure({ google_sheet_fields: { ...g, append: 'no' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('google_sheet_fields.append');
  });

  it('stores S3 settings, echoing the keys', async () => {
    const s = {
      bucket: 'my-bucket',
      is_active: true,
      target_path: 'exports/cafes',
      aws_access_key: 'AK',
      aws_secret_key: 'SK',
    };
    const r = await configure({ s3_fields: s });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ s3_fields: s });
    const bad = await configure({ s3_fields: { ...s, bucket: undefined } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('s3_fields.bucket');
  });

  it('stores e-mail notification settings with an activation date', async () => {
    const r = await configure({ email: 'team@example.com', notifications: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ email: 'team@example.com', notifications: true });
    expect(r.body.notifications_activation_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    expect(e.emu.state.squids[SQUID]).toMatchObject({ email: 'team@example.com', notifications: true });
    let bad = await configure({ email: 'nope', notifications: true });
    expect(bad.body.error.param).toBe('email');
    bad = await configure({ email: 'team@example.com' });
    expect(bad.body.error.param).toBe('notifications');
  });

  it('wants exactly one channel per request', async () => {
    let r = await configure({});
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/one of/);
    r = await configure({ ftp_fields: FTP, webhook_fields: HOOK });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/exactly one/);
    expect(e.emu.state.squids[SQUID].ftp_fields).toBeNull();
  });

  it('shows the stored configuration on GET /v1/squids/{hash}', async () => {
    const unset = (await call('GET', `/v1/squids/${SQUID}`)).body;
    expect(unset).toMatchObject({
      ftp_fields: { host: 'localhost', port: 22, is_active: false },
      s3_fields: { bucket: null, is_active: false },
      webhook_fields: { url: null, is_active: false },
      google_sheet_fields: { url: null, append: false, is_active: false },
    });
    await configure({ webhook_fields: HOOK });
    await configure({ ftp_fields: FTP });
    await configure({
      s3_fields: {
        bucket: 'b',
        is_active: true,
        target_path: 'x',
        aws_access_key: 'AKIAEXAMPLE',
        aws_secret_key: 'SECRETKEY',
      },
    });
    const r = await call('GET', `/v1/squids/${SQUID}`);
    expect(r.status).toBe(200);
    // Only the documented subsets: never a password, a key, a username or the webhook's events.
    expect(r.body.webhook_fields).toEqual({ url: HOOK.url, is_active: HOOK.is_active });
    expect(r.body.ftp_fields).toEqual({ host: FTP.host, port: FTP.port, is_active: FTP.is_active });
    expect(r.body.s3_fields).toEqual({ bucket: 'b', is_active: true });
    expect(JSON.stringify(r.body)).not.toContain(FTP.password);
    expect(JSON.stringify(r.body)).not.toContain('SECRETKEY');
  });
});

describe('delivery test operations', () => {
  it('test-webhook really POSTs and reports the receiver status', async () => {
    const got: J[] = [];
    let answer = 200;
    const server = http.createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        got.push({ type: req.headers['content-type'], body: JSON.parse(data) });
        res.writeHead(answer).end();
      });
    });
    const url = `${await listenLocal(server)}/in`;
    try {
      let r = await call('POST', '/v1/delivery/test-webhook', { url });
      expect(r).toEqual({ status: 200, body: { success: true, status_code: 200 } });
      expect(got[0].type).toBe('application/json');
      expect(got[0].body).toMatchObject({ object: 'run', event: 'run.done' });
      answer = 500;
      r = await call('POST', '/v1/delivery/test-webhook', { url });
      expect(r.body).toMatchObject({ success: false, status_code: 500 });
    } finally {
      await new Promise((r) => server.close(r));
    }
    const dead = await call('POST', '/v1/delivery/test-webhook', { url });
    expect(dead.body).toMatchObject({ success: false, status_code: null });
    const bad = await call('POST', '/v1/delivery/test-webhook', {});
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('url');
  });

  it('test-email validates and puts a mail in the outbox', async () => {
    const r = await call('POST', '/v1/delivery/test-email', { email: 'team@example.com' });
    expect(r.body).toEqual({ success: true, status_code: 200 });
    const box = (await call('GET', '/_emulator/outbox')).body as J[];
    expect(box).toHaveLength(1);
    expect(box[0].to).toBe('team@example.com');
    const bad = await call('POST', '/v1/delivery/test-email', { email: 42 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('email');
  });

  it('test-googlesheet and test-s3 validate their flat bodies', async () => {
    expect((await call('POST', '/v1/delivery/test-googlesheet', { url: 'https://docs.google.com/x' })).body).toEqual({
      success: true,
      status_code: 200,
    });
    expect((await call('POST', '/v1/delivery/test-googlesheet', {})).body.error.param).toBe('url');
    expect((await call('POST', '/v1/delivery/test-s3', { bucket: 'b' })).body).toEqual({
      success: true,
      status_code: 200,
    });
    const bad = await call('POST', '/v1/delivery/test-s3', { bucket: 'b', aws_access_key: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('aws_access_key');
  });
});

describe('channels completed by the emulator when a run is exported', () => {
  const run = { id: 'run00000000000000000000000000001', object: 'run', squid: SQUID, status: 'done' };
  const rows = [{ id: 'r1', squid: SQUID, run: run.id, scraping_time: '2026-01-01T00:00:00.000Z', name: 'A' }];

  it('e-mails a notification when notifications are on', async () => {
    await configure({ email: 'team@example.com', notifications: true });
    e.emu.events.emit('run.exported', run, rows);
    const box = (await call('GET', '/_emulator/outbox')).body as J[];
    expect(box).toHaveLength(1);
    expect(box[0].to).toBe('team@example.com');
    expect(box[0].subject).toContain(run.id);
    expect(box[0].body).toContain('1 results');
    const d = (await call('GET', '/_emulator/deliveries?kind=email')).body as J[];
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ ok: true, target: 'team@example.com', run: run.id });
  });

  it('sends no mail when notifications are off', async () => {
    await configure({ email: 'team@example.com', notifications: false });
    e.emu.events.emit('run.exported', run, rows);
    expect((await call('GET', '/_emulator/outbox')).body).toEqual([]);
  });

  it('records simulated Google Sheet and S3 deliveries for active configs only', async () => {
    await configure({ google_sheet_fields: { url: 'https://docs.google.com/s/1', append: false, is_active: true } });
    await configure({ s3_fields: { bucket: 'bkt', is_active: false, target_path: 'out' } });
    e.emu.events.emit('run.exported', run, rows);
    let d = (await call('GET', '/_emulator/deliveries')).body as J[];
    expect(d.map((x) => x.kind)).toEqual(['googlesheet']);
    expect(d[0]).toMatchObject({ ok: true, error: null, simulated: true, target: 'https://docs.google.com/s/1' });
    await configure({ s3_fields: { bucket: 'bkt', is_active: true, target_path: '/out/' } });
    e.emu.events.emit('run.exported', run, rows);
    d = (await call('GET', '/_emulator/deliveries?kind=s3')).body as J[];
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ ok: true, error: null, simulated: true, target: 's3://bkt/out/' });
  });
});
