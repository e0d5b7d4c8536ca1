// Interop with OpenSSH's SFTP server (Debian's openssh-server and openssh-sftp-server, started by
// .ci/sshd-setup.sh in test/setup/system.ts): the emulator's test-sftp and a run's upload, read back over SFTP.
// The full SFTP delivery behaviour runs in npm test against ssh2's server (test/emulator/sftp.test.ts,
// test/e2e/delivery-sftp.test.ts); this file checks that a real OpenSSH server agrees.
import { randomBytes } from 'node:crypto';
import SftpClient from 'ssh2-sftp-client';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BARE_SQUID as SQUID, jsonCall, startBareEmulator } from '../helpers/emulator.js';
import { requireSftpTarget, type SftpTarget } from '../helpers/sshd.js';
import { waitFor } from '../helpers/wait.js';
import type { J } from '../helpers/json.js';

let target: SftpTarget;
let reader: SftpClient;
let e: RunningEmulator;
let dir: string;
const call = (method: string, path: string, body?: unknown) => jsonCall(e, method, path, body);

beforeAll(async () => {
  target = await requireSftpTarget();
  reader = new SftpClient('openssh-reader');
  await reader.connect({ host: target.host, port: target.port, username: target.username, password: target.password });
});
afterAll(async () => {
  await reader?.end();
});
beforeEach(async () => {
  dir = `${target.directory}/t-${randomBytes(4).toString('hex')}`;
  await reader.mkdir(dir);
  e = await startBareEmulator('OpenSSH interop');
});
afterEach(async () => {
  await e?.close();
  await reader?.rmdir(dir, true).catch(() => undefined);
});

it('test-sftp: passes for the directory, explains a missing one and a wrong password', async () => {
  const test = (over: J = {}) => call('POST', '/v1/delivery/test-sftp', { ...target, directory: dir, ...over });
  expect(await test()).toEqual({ status: 200, body: { success: true, status_code: 200 } });
  const missing = await test({ directory: `${dir}/nope` });
  expect(missing.body).toMatchObject({ success: false, status_code: 400 });
  expect(missing.body.error).toMatch(/does not exist/);
  const wrong = await test({ password: 'nope-nope' });
  expect(wrong.body).toMatchObject({ success: false });
  expect(wrong.body.error).toMatch(/password/);
  expect(JSON.stringify(wrong.body)).not.toContain('nope-nope');
});

it('run.exported uploads the CSV, which reads back whole', async () => {
  expect(
    (await call('POST', `/v1/delivery?squid=${SQUID}`, { ftp_fields: { ...target, directory: dir, is_active: true } }))
      .status,
  ).toBe(201);
  const run = {
    id: '0123456789abcdef0123456789abcdef',
    object: 'run',
    squid: SQUID,
    status: 'done',
    export_done: true,
  };
  const rows = [
    {
      id: 'res1',
      object: 'result',
      squid: SQUID,
      run: run.id,
      scraping_time: '2026-03-01T10:00:00.000Z',
      name: 'Café, "Le Nord"',
    },
  ];
  e.emu.events.emit('run.exported', run, rows);
  const [rec] = await waitFor(
    async () => (await call('GET', '/_emulator/deliveries?kind=sftp')).body as J[],
    (d) => d.length === 1,
    'the upload record',
  );
  expect(rec).toMatchObject({ ok: true, error: null });
  const files = (await reader.list(dir)).map((f) => f.name);
  expect(files).toEqual([expect.stringMatching(new RegExp(`^OpenSSH_interop_${run.id}_\\d{8}_\\d{4}\\.csv$`))]);
  const csv = ((await reader.get(`${dir}/${files[0]}`)) as Buffer).toString('utf8');
  expect(csv).toBe(
    `id,squid,run,scraping_time,object,name\nres1,${SQUID},${run.id},2026-03-01T10:00:00.000Z,result,"Café, ""Le Nord"""\n`,
  );
});
