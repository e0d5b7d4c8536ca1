// SFTP delivery against a real SFTP server (ssh2's, from npm: test/helpers/sftp-server.ts): uploads, recorded
// failures, and test-sftp. The same against OpenSSH is in test/system/sftp-openssh.test.ts (npm run test:system).
import { randomBytes } from 'node:crypto';
import SftpClient from 'ssh2-sftp-client';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BARE_SQUID as SQUID, jsonCall, startBareEmulator } from '../helpers/emulator.js';
import { waitFor } from '../helpers/wait.js';
import { startSftpServer, type SftpServer } from '../helpers/sftp-server.js';
import type { J } from '../helpers/json.js';

let e: RunningEmulator;
let target: SftpServer;
let reader: SftpClient;
/** A fresh directory per test inside the upload directory, so runs never see each other's files. */
let dir: string;

const call = (method: string, path: string, body?: unknown) => jsonCall(e, method, path, body);

const sftpDeliveries = async (): Promise<J[]> => (await call('GET', '/_emulator/deliveries?kind=sftp')).body;

function configure(
  fields: Partial<{ host: string; port: number; password: string; directory: string; is_active: boolean }> = {},
) {
  const { host, port, username, password } = target;
  return call('POST', `/v1/delivery?squid=${SQUID}`, {
    ftp_fields: { host, port, username, password, directory: dir, is_active: true, ...fields },
  });
}

const RUN = { id: '0123456789abcdef0123456789abcdef', object: 'run', squid: SQUID, status: 'done', export_done: true };
const ROWS = [
  {
    id: 'res1',
    object: 'result',
    squid: SQUID,
    run: RUN.id,
    scraping_time: '2026-03-01T10:00:00.000Z',
    name: 'Café, "Le Nord"',
    rating: 4.5,
  },
  {
    scraping_time: '2026-03-01T10:00:01.000Z',
    id: 'res2',
    object: 'result',
    squid: SQUID,
    run: RUN.id,
    name: 'Bistro\nBleu',
    phone: '+33 1',
    extra: { a: 1 },
  },
];

let ready: Promise<void> | undefined;

async function connectOnce(): Promise<void> {
  target = await startSftpServer();
  reader = new SftpClient('test-reader');
  await reader.connect({ host: target.host, port: target.port, username: target.username, password: target.password });
}

afterAll(async () => {
  await reader?.end();
  await target?.close();
});

beforeEach(async () => {
  await (ready ??= connectOnce());
  dir = `${target.directory}/t-${randomBytes(4).toString('hex')}`;
  await reader.mkdir(dir);
  e = await startBareEmulator('Cafés de Paris / 2026');
});

afterEach(async () => {
  await e?.close();
  await reader?.rmdir(dir, true).catch(() => undefined);
});

describe('SFTP delivery on run.exported', () => {
  it('uploads the results as CSV named <squid>_<run>_YYYYMMDD_HHMM.csv', async () => {
    expect((await configure()).status).toBe(201);
    const iso = new Date(e.emu.clock.now()).toISOString();
    const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}_${iso.slice(11, 13)}${iso.slice(14, 16)}`;
    e.emu.events.emit('run.exported', RUN, ROWS);
    const [rec] = await waitFor(sftpDeliveries, (d) => d.length === 1, 'the upload record');
    const name = `Caf_s_de_Paris_2026_${RUN.id}_${stamp}.csv`;
    expect(rec).toMatchObject({
      kind: 'sftp',
      squid: SQUID,
      run: RUN.id,
      ok: true,
      error: null,
      path: `${dir}/${name}`,
    });
    expect((await reader.list(dir)).map((f) => f.name)).toEqual([name]);
    const csv = ((await reader.get(`${dir}/${name}`)) as Buffer).toString('utf8');
    expect(csv).toBe(
      'id,squid,run,scraping_time,object,name,rating,phone,extra\n' +
        `res1,${SQUID},${RUN.id},2026-03-01T10:00:00.000Z,result,"Café, ""Le Nord""",4.5,,\n` +
        `res2,${SQUID},${RUN.id},2026-03-01T10:00:01.000Z,result,"Bistro\nBleu",,+33 1,"{""a"":1}"\n`,
    );
  });

  it('records a missing directory as a failed delivery and never creates it', async () => {
    await configure({ directory: `${dir}/missing` });
    e.emu.events.emit('run.exported', RUN, ROWS);
    const [rec] = await waitFor(sftpDeliveries, (d) => d.length === 1, 'the failure record');
    expect(rec.ok).toBe(false);
    expect(rec.error).toMatch(/directory .*missing does not exist/);
    expect(await reader.exists(`${dir}/missing`)).toBe(false);
    expect(await reader.list(dir)).toEqual([]);
  });

  it('records a wrong password as a failed delivery', async () => {
    await configure({ password: 'wrong-password' });
    e.emu.events.emit('run.exported', RUN, ROWS);
    const [rec] = await waitFor(sftpDeliveries, (d) => d.length === 1, 'the failure record');
    expect(rec.ok).toBe(false);
    expect(rec.error).toMatch(/wrong user name or password/);
    expect(rec.error).not.toContain('wrong-password');
    expect(await reader.list(dir)).toEqual([]);
  });

  it('records an unreachable server as a failed delivery, and the emulator keeps serving', async () => {
    await configure({ host: '127.0.0.1', port: 1 });
    e.emu.events.emit('run.exported', RUN, ROWS);
    const [rec] = await waitFor(sftpDeliveries, (d) => d.length === 1, 'the failure record');
    expect(rec.ok).toBe(false);
    expect(rec.error).toMatch(/cannot reach 127\.0\.0\.1:1/);
    expect((await call('GET', '/v1/plans/auto-reset')).status).toBe(200);
  });

  it('uploads nothing while the configuration is inactive', async () => {
    await configure({ is_active: false });
    e.emu.events.emit('run.exported', RUN, ROWS);
    // No fixed sleep: the listener decides synchronously, in emit(), and an upload it started would go first. So a
    // second export, once active, is the event to wait for: only its record and its file may be there.
    expect(await sftpDeliveries()).toEqual([]);
    await configure();
    const second = { ...RUN, id: 'fedcba9876543210fedcba9876543210' };
    e.emu.events.emit('run.exported', second, ROWS);
    const recs = await waitFor(sftpDeliveries, (d) => d.length >= 1, 'the active upload');
    expect(recs.map((r) => r.run)).toEqual([second.id]);
    expect((await reader.list(dir)).map((f) => f.name)).toEqual([expect.stringContaining(second.id)]);
  });
});

describe('POST /v1/delivery/test-sftp', () => {
  const test = (over: J = {}) => {
    const { host, port, username, password } = target;
    return call('POST', '/v1/delivery/test-sftp', { host, port, username, password, directory: dir, ...over });
  };

  it('succeeds when the server accepts the login and the directory exists', async () => {
    expect(await test()).toEqual({ status: 200, body: { success: true, status_code: 200 } });
    expect(await reader.list(dir)).toEqual([]);
  });

  it('explains a missing directory, a wrong password and an unreachable host', async () => {
    let r = await test({ directory: `${dir}/nope` });
    expect(r.body).toMatchObject({ success: false, status_code: 400 });
    expect(r.body.error).toMatch(/does not exist/);
    r = await test({ password: 'nope-nope' });
    expect(r.body).toMatchObject({ success: false });
    expect(r.body.error).toMatch(/password/);
    r = await test({ port: 1 });
    expect(r.body.error).toMatch(/cannot reach/);
  });

  it('validates the flat body', async () => {
    const r = await call('POST', '/v1/delivery/test-sftp', {
      host: 'h',
      port: 'x',
      username: 'u',
      password: 'p',
      directory: '/',
    });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('port');
  });
});
