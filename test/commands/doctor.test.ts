// sq doctor: every check passes against the emulator with a good setup, and each one fails on purpose, naming the fix;
// exit 1 only when one that stops sq from working fails; warnings exit 0 (1 with --strict); --json {checks: [{name,
// ok, level, detail, fix}]}.
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { fakeTime } from '../helpers/clock.js';
import { unusedPort } from '../helpers/net.js';
import { fakeRegistry, type FakeRegistry } from '../helpers/registry.js';
import { nodeCheck } from '../../src/doctor/checks.js';
import { stateFile } from '../../src/api/pacing-state.js';

const emu = useEmulator();
let registry: FakeRegistry;
const dirs: string[] = [];
const dir = (p: string) => {
  const d = tempDir(p);
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  registry = await fakeRegistry('0.1.0');
});
afterAll(() => registry.close());
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  registry.latest = '0.1.0';
});

/** A home with bash completion installed, its own config and cache dirs, the fake registry. */
function setup(extra: Record<string, string> = {}): Record<string, string> {
  const home = dir('sq-doctor-home-');
  writeFileSync(join(home, '.bashrc'), 'source <(sq completion bash)\n');
  return {
    ...emu.env(),
    HOME: home,
    SHELL: '/bin/bash',
    SQ_CONFIG_DIR: join(home, 'cfg'),
    SQ_CACHE_DIR: join(home, 'cache'),
    SQ_UPDATE_URL: registry.url,
    ...extra,
  };
}

type Check = { name: string; ok: boolean; level: 'ok' | 'warn' | 'fail'; detail: string; fix: string | null };

async function doctor(
  env: Record<string, string>,
  opts: { clock?: { now: () => number; sleep: (ms: number) => Promise<void> }; args?: string[] } = {},
) {
  const r = await sq(['doctor', '--json', ...(opts.args ?? [])], { env, clock: opts.clock ?? 'real' });
  const checks = JSON.parse(r.stdout).checks as Check[];
  const by = Object.fromEntries(checks.map((c) => [c.name, c]));
  return { r, checks, by };
}

const NAMES = ['key', 'base_url', 'clock', 'rate_budget', 'permissions', 'profile', 'completion', 'node', 'update'];

describe('sq doctor', () => {
  it('every check but node passes with a good setup; exit 0 (a Node line past its end of life is a warning)', async () => {
    const { r, checks, by } = await doctor(setup());
    expect(checks.map((c) => c.name)).toEqual(NAMES);
    for (const c of checks.filter((c) => c.name !== 'node'))
      expect(c, c.detail).toMatchObject({ ok: true, level: 'ok', fix: null });
    expect(by.key.detail).toContain('accepted');
    expect(by.profile.detail).toContain('SQ_BASE_URL');
    expect(by.update.detail).toContain('is the latest');
    // This machine's Node line decides the last check (20.x is past its end of life since 2026-04-30): a warning.
    expect(['ok', 'warn']).toContain(by.node.level);
    expect(r.code).toBe(0);
  });

  it('CI=true on a healthy runner with Node 20 and no completion: two warnings, exit 0; --strict exit 1; a wrong key exit 1', async () => {
    const env = setup({ HOME: dir('sq-doctor-runner-'), CI: 'true' });
    const r = await sq(['doctor'], { env, clock: 'real' });
    const node20 = process.versions.node.startsWith('20.');
    expect(r.stdout).toMatch(/^! completion +bash: not installed/m);
    if (node20) expect(r.stdout).toMatch(/^! node +Node\.js 20\.[\d.]+: the 20\.x line reached its end of life/m);
    expect(r.stdout).toMatch(/^ +fix: echo 'source <\(sq completion bash\)' >> ~\/\.bashrc$/m);
    expect(r.stdout).toContain(`sq can work here, with ${node20 ? 2 : 1} warning`);
    expect(r.code, r.stdout).toBe(0);
    expect((await sq(['doctor', '--strict'], { env, clock: 'real' })).code).toBe(1);
    const wrong = await sq(['doctor'], { env: { ...env, SQ_TOKEN: 'sq_wrong_key_123456' }, clock: 'real' });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/^✗ key /m);
  });

  it('prints one ✓/!/✗ line per check with the fix under each one not ok', async () => {
    const r = await sq(['doctor'], { env: { ...setup(), SQ_TOKEN: '' }, clock: 'real' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^✗ key +no API key/m);
    expect(r.stdout).toMatch(/^ +fix: sq auth login, or set SQ_TOKEN$/m);
    expect(r.stdout).toMatch(
      /^✓ base_url +http:\/\/127\.0\.0\.1:\d+ is the API: GET \/v1\/me without a key answered HTTP 401 \(application\/json\)/m,
    );
    expect(r.stdout).toMatch(/checks failed(, \d warnings?)?\.\n$/);
  });

  it('base_url: a server that is not the API (an HTML 404 for /v1/me) fails, and the key is not tried on it', async () => {
    const { createServer: plain } = await import('node:http');
    const server = plain((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const port = (server.address() as { port: number }).port;
      const { r, by } = await doctor(setup({ SQ_BASE_URL: `http://127.0.0.1:${port}` }));
      expect(r.code).toBe(1);
      expect(by.base_url).toMatchObject({
        level: 'fail',
        detail: expect.stringContaining('is not the API: GET /v1/me answered HTTP 404 (text/html)'),
      });
      expect(by.key.level).toBe('fail');
    } finally {
      server.close();
    }
  });

  it('key: a rejected key fails with the fix, and the key is not shown', async () => {
    const { r, by } = await doctor(setup({ SQ_TOKEN: 'sq_wrong_key_123456' }));
    expect(r.code).toBe(1);
    expect(by.key).toMatchObject({ ok: false });
    expect(by.key.detail).toContain('rejected');
    expect(by.key.fix).toContain('SQ_TOKEN');
    expect(r.stdout + r.stderr).not.toContain('sq_wrong_key_123456');
  });

  it('base_url: a port nobody listens on fails (and key is not checked)', async () => {
    const port = await unusedPort();
    const { r, by } = await doctor(setup({ SQ_BASE_URL: `http://127.0.0.1:${port}` }));
    expect(r.code).toBe(1);
    expect(by.base_url.ok).toBe(false);
    expect(by.base_url.detail).toMatch(/cannot be reached \(ECONNREFUSED\)/);
    expect(by.key.detail).toContain('not checked');
    expect(by.clock.ok).toBe(false);
  });

  it('base_url: a self-signed TLS certificate fails as invalid TLS', async () => {
    const fixtures = join(import.meta.dirname, '../fixtures/tls');
    const server = createServer(
      { key: readFileSync(join(fixtures, 'self-signed.key')), cert: readFileSync(join(fixtures, 'self-signed.crt')) },
      (_q, s) => s.end('{}'),
    );
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    try {
      const port = (server.address() as import('node:net').AddressInfo).port;
      const { r, by } = await doctor(setup({ SQ_BASE_URL: `https://127.0.0.1:${port}` }));
      expect(r.code).toBe(1);
      expect(by.base_url.ok).toBe(false);
      expect(by.base_url.detail).toMatch(
        /TLS certificate is not valid \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/,
      );
      expect(by.base_url.fix).toContain('NODE_EXTRA_CA_CERTS');
    } finally {
      server.closeAllConnections();
      await new Promise((res) => server.close(res));
    }
  });

  it('clock: a machine 10 min behind the server fails', async () => {
    const t = fakeTime(Date.now() - 10 * 60_000);
    const { r, by } = await doctor(setup(), { clock: { now: t.now, sleep: async (ms) => t.sleep(ms) } });
    expect(r.code).toBe(1);
    expect(by.clock.ok).toBe(false);
    expect(by.clock.detail).toMatch(/is (59\d|60\d) s behind the server's/);
    expect(by.clock.fix).toContain('NTP');
  });

  it('rate_budget: a prefix paused by a 429 in the shared pacing state is a warning', async () => {
    const env = setup();
    const now = Date.now();
    mkdirSync(env.SQ_CACHE_DIR, { recursive: true, mode: 0o700 });
    const paused = {
      seq: 3,
      sent: [],
      inflight: [],
      server: { limit: 2, remaining: 0, seq: 3, resetAt: now + 30_000, until: now + 30_000 },
      pausedUntil: now + 30_000,
    };
    writeFileSync(
      stateFile(env.SQ_CACHE_DIR, env.SQ_TOKEN, new URL(env.SQ_BASE_URL).origin),
      JSON.stringify({ v: 2, buckets: { results: paused } }),
      { mode: 0o600 },
    );
    const { r, by } = await doctor(env);
    expect(r.code).toBe(0);
    expect(by.rate_budget).toMatchObject({ ok: false, level: 'warn' });
    expect(by.rate_budget.detail).toMatch(/exhausted: results \(a 429: paused \d+ s more\)/);
    expect(by.rate_budget.detail).toContain('squids 120/120 per min');
  });

  it('permissions: a profile file other users can read warns with the chmod to run', async () => {
    const env = setup();
    const login = await sq(['auth', 'login', '--with-token'], {
      env: { ...env, SQ_TOKEN: '' },
      stdin: `${emu.token}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    chmodSync(join(env.SQ_CONFIG_DIR, 'config.json'), 0o644);
    const { r, by } = await doctor({ ...env, SQ_TOKEN: '' });
    expect(r.code).toBe(0);
    expect(by.permissions).toMatchObject({ ok: false, level: 'warn' });
    expect(by.permissions.detail).toContain('mode 0644');
    expect(by.permissions.fix).toBe(`chmod 600 "${join(env.SQ_CONFIG_DIR, 'config.json')}"`);
    // the profile came from the file, the key with it
    expect(by.profile.detail).toContain('the active profile of');
    expect(by.key.ok).toBe(true);
  });

  it('profile: a --profile that is not stored fails, naming where it came from', async () => {
    const { r, by } = await doctor({ ...setup(), SQ_TOKEN: '' }, { args: ['--profile', 'staging'] });
    expect(r.code).toBe(1);
    expect(by.profile.ok).toBe(false);
    expect(by.profile.detail).toContain('profile "staging" (from the --profile flag) is not in');
    expect(by.profile.fix).toContain('sq auth login --profile staging');
  });

  it('completion: none installed for $SHELL warns with the line to add; zsh and fish are looked for in their places', async () => {
    const home = dir('sq-doctor-bare-');
    const { r, by } = await doctor(setup({ HOME: home }));
    expect(r.code).toBe(0);
    expect(by.completion).toMatchObject({
      ok: false,
      level: 'warn',
      fix: "echo 'source <(sq completion bash)' >> ~/.bashrc",
    });
    const zsh = await doctor(setup({ HOME: home, SHELL: '/usr/bin/zsh' }));
    expect(zsh.by.completion.ok).toBe(false);
    mkdirSync(join(home, '.config/fish/completions'), { recursive: true });
    writeFileSync(join(home, '.config/fish/completions/sq.fish'), '# sq\n');
    const fish = await doctor(setup({ HOME: home, SHELL: '/usr/bin/fish' }));
    expect(fish.by.completion).toMatchObject({
      ok: true,
      detail: `fish: ${join(home, '.config/fish/completions/sq.fish')}`,
    });
  });

  it('update: a newer sq on the registry warns with the install line', async () => {
    registry.latest = '9.0.0';
    const { r, by } = await doctor(setup());
    expect(r.code).toBe(0);
    expect(by.update).toMatchObject({ ok: false, level: 'warn', detail: 'sq 0.1.0; 9.0.0 is available' });
    expect(by.update.fix).toContain('npm install -g lobstr-sq@9.0.0');
  });

  it('node: an end-of-life line fails, a supported one passes (the date decides)', () => {
    const nov2026 = Date.parse('2026-11-27T00:00:00Z');
    expect(nodeCheck('v20.20.2', nov2026)).toMatchObject({ ok: false, level: 'warn' });
    expect(nodeCheck('v20.20.2', nov2026).detail).toContain('end of life on 2026-04-30');
    expect(nodeCheck('v20.20.2', Date.parse('2026-03-01T00:00:00Z')).ok).toBe(true);
    expect(nodeCheck('v24.11.0', nov2026)).toMatchObject({ ok: true, fix: null });
    expect(nodeCheck('v25.1.0', nov2026).ok).toBe(false);
    expect(nodeCheck('v16.0.0', nov2026)).toMatchObject({ ok: false, level: 'fail' });
  });
});
