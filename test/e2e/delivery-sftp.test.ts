// End to end with the built binary and a real SFTP server (ssh2's, from npm; OpenSSH's is in test/system): SFTP
// delivery configured with the password from an environment variable, checked with `sq delivery test sftp`, then a
// run's results land in the directory. The check of the directory and the upload are the emulator's, in this process:
// sq only sends the requests. One check (the one that passes) is the built binary; the rest of what sq does here (the
// failing checks' messages, the delivery set, the run started, the password never shown) is the CLI's logic,
// in-process (sqIn), ~0.2 s of CPU less a call.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { sqBin, sqIn } from '../helpers/cli.js';
import { startSftpServer, type SftpServer } from '../helpers/sftp-server.js';

let emu: TestEmulator;
let target: SftpServer;

beforeAll(async () => {
  target = await startSftpServer();
  emu = await startTestEmulator();
}, 60_000);
afterAll(async () => {
  await emu?.close();
  await target?.close();
});

async function listRemote(dir: string): Promise<{ name: string; text: (n: string) => Promise<string> }[]> {
  const { default: Client } = await import('ssh2-sftp-client');
  const c = new Client();
  await c.connect({ host: target.host, port: target.port, username: target.username, password: target.password });
  try {
    const names = (await c.list(dir)).map((f) => f.name);
    const texts = new Map<string, string>();
    for (const n of names) texts.set(n, String(await c.get(`${dir}/${n}`)));
    return names.map((name) => ({ name, text: async () => texts.get(name)! }));
  } finally {
    await c.end();
  }
}

const login = () => ['--host', target.host, '--port', String(target.port), '--username', target.username];

it('test sftp passes for the real directory, fails for a missing one and for a wrong password', async () => {
  emu.expectWrites('POST /v1/delivery/test-sftp');
  const env = emu.env({ SFTP_PW: target.password, WRONG_PW: 'not-the-password-1' });
  const ok = await sqBin(
    ['delivery', 'test', 'sftp', ...login(), '--directory', target.directory, '--password-env', 'SFTP_PW'],
    { env },
  );
  expect(ok.code, ok.stderr).toBe(0);
  expect(ok.stderr).toMatch(/SFTP test passed/);

  const missing = await sqIn(
    [
      'delivery',
      'test',
      'sftp',
      ...login(),
      '--directory',
      `${target.directory}/no-such-dir`,
      '--password-env',
      'SFTP_PW',
    ],
    { env },
  );
  expect(missing.code).toBe(1);
  expect(missing.stderr).toMatch(/does not exist/);

  const wrong = await sqIn(
    ['delivery', 'test', 'sftp', ...login(), '--directory', target.directory, '--password-env', 'WRONG_PW'],
    { env },
  );
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toMatch(/wrong user name or password/);
  for (const r of [ok, missing, wrong]) {
    expect(r.stdout + r.stderr).not.toContain(target.password);
    expect(r.stdout + r.stderr).not.toContain('not-the-password-1');
  }
}, 60_000);

it('a completed run uploads its results to the configured directory', async () => {
  emu.expectWrites('POST /v1/delivery', 'POST /v1/runs');
  const env = emu.env({ SFTP_PASSWORD: target.password });
  const cfg = await sqIn(
    [
      'delivery',
      'sftp',
      '--squid',
      'Paris restaurants',
      ...login(),
      '--directory',
      target.directory,
      '--password-env',
      'SFTP_PASSWORD',
      '--json',
    ],
    { env },
  );
  expect(cfg.code, cfg.stderr).toBe(0);
  expect(JSON.parse(cfg.stdout).ftp_fields.password).toBe('********');
  expect(cfg.stdout + cfg.stderr).not.toContain(target.password);

  const started = await sqIn(['runs', 'start', '--squid', 'Paris restaurants', '--json'], { env });
  expect(started.code, started.stderr).toBe(0);
  const runId = JSON.parse(started.stdout).id as string;

  let uploads: { ok: boolean; path: string; error: string | null }[] = [];
  for (let i = 0; i < 100 && uploads.length === 0; i++) {
    await emu.advance(60_000);
    await new Promise((r) => setTimeout(r, 100));
    uploads = (await emu.control('GET', `/_emulator/deliveries?kind=sftp&run=${runId}`)) as typeof uploads;
  }
  expect(uploads).toHaveLength(1);
  expect(uploads[0].error).toBeNull();

  const files = await listRemote(target.directory);
  const mine = files.find((f) => f.name.includes(runId));
  expect(mine, `no file for run ${runId} in ${files.map((f) => f.name).join(', ')}`).toBeDefined();
  expect(mine!.name).toMatch(/^Paris_restaurants_[0-9a-f]{32}_\d{8}_\d{4}\.csv$/);
  const csv = await mine!.text(mine!.name);
  const [header, ...rows] = csv.trim().split('\n');
  expect(header.split(',').slice(0, 4)).toEqual(['id', 'squid', 'run', 'scraping_time']);
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r) => r.includes(runId))).toBe(true);
}, 60_000);
