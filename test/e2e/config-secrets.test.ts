// Secrets at rest and in webhook URLs (issue 10, item 9): a corrupt profile file is reported without a byte of its
// content and replaced by `auth login` only after a confirmation, keeping a backup; a profile file others can read
// gets a warning; a webhook URL's secret query values are masked like passwords. sq in-process (sqIn: what it reads,
// writes and prints is the CLI's own, nothing here is about the process) against an emulator.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { sqIn, tempConfigDir } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const STORED = 'sq_live_Stored-Key-9f8e7d6c';
const CORRUPT = `{"active":"work","profiles":{"work":{"token":"${STORED}","base_url":"https://api.lobstr.io"}},, oops`;

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function configWith(text: string, mode = 0o600): string {
  dir = tempConfigDir();
  writeFileSync(join(dir, 'config.json'), text, { mode });
  chmodSync(join(dir, 'config.json'), mode);
  return join(dir, 'config.json');
}

describe('a corrupt profile file', () => {
  it.each([
    ['broken JSON', CORRUPT],
    ['JSON that is not an object', `["${STORED}"]`],
    ['profiles that are not objects', `{"profiles":{"work":"${STORED}"}}`],
  ])('%s: every command that reads it exits 2 naming the file and the fix, echoing none of it', async (_what, text) => {
    const file = configWith(text);
    for (const args of [
      ['me'],
      ['profiles', 'list'],
      ['auth', 'status'],
      ['auth', 'switch', 'work'],
      ['auth', 'logout'],
    ]) {
      const r = await sqIn(args, { env: { SQ_CONFIG_DIR: dir, SQ_BASE_URL: emu.baseUrl } });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`the profile file ${file} is corrupt`);
      expect(r.stderr).toContain('`sq auth login` to replace it');
      expect(r.stderr + r.stdout).not.toContain(STORED.slice(-8));
      expect(r.stderr + r.stdout).not.toContain('oops');
    }
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(await emu.requests()).toEqual([]);
  });

  it('auth login without a terminal needs --yes to replace it: exit 2 naming --yes, nothing sent, file untouched', async () => {
    const file = configWith(CORRUPT);
    const r = await sqIn(['auth', 'login', '--with-token', '--profile', 'fresh'], {
      env: { SQ_CONFIG_DIR: dir, SQ_BASE_URL: emu.baseUrl },
      input: emu.token,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    expect(r.stderr).not.toContain(STORED.slice(-8));
    expect(readFileSync(file, 'utf8')).toBe(CORRUPT);
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(await emu.requests()).toEqual([]);
  });

  it('auth login --yes replaces it and keeps the old file as a 0600 backup, byte for byte', async () => {
    const file = configWith(CORRUPT, 0o600);
    const r = await sqIn(['auth', 'login', '--with-token', '--profile', 'fresh', '--yes'], {
      env: { SQ_CONFIG_DIR: dir, SQ_BASE_URL: emu.baseUrl },
      input: emu.token,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain(STORED.slice(-8));
    const backups = readdirSync(dir).filter((f) => /^config\.json\.corrupt-\d{4}-\d\d-\d\dT[\d-]+Z$/.test(f));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dir, backups[0]), 'utf8')).toBe(CORRUPT);
    expect(statSync(join(dir, backups[0])).mode & 0o777).toBe(0o600);
    const now = JSON.parse(readFileSync(file, 'utf8'));
    expect(now).toEqual({
      active: 'fresh',
      profiles: { fresh: { token: emu.token, base_url: emu.baseUrl, user: 'demo@sq-emulator.local' } },
    });
    const list = await sqIn(['profiles', 'list', '--json'], { env: { SQ_CONFIG_DIR: dir } });
    expect(JSON.parse(list.stdout).map((p: { name: string }) => p.name)).toEqual(['fresh']);
  });
});

describe('a profile file other users can read', () => {
  it('gets one warning per command naming the file and chmod 600; it is not an error', async () => {
    dir = tempConfigDir();
    const login = await sqIn(['auth', 'login', '--with-token'], {
      env: { SQ_CONFIG_DIR: dir, SQ_BASE_URL: emu.baseUrl },
      input: emu.token,
    });
    expect(login.code, login.stderr).toBe(0);
    const file = join(dir, 'config.json');
    chmodSync(file, 0o644);
    // auth status reads the store twice (status, then the HTTP client): still one warning.
    const r = await sqIn(['auth', 'status'], { env: { SQ_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toEqual([
      `warning: ${file} can be read by other users (mode 0644) and holds API keys: run \`chmod 600 "${file}"\``,
    ]);
    chmodSync(file, 0o600);
    const quiet = await sqIn(['auth', 'status'], { env: { SQ_CONFIG_DIR: dir } });
    expect(quiet.stderr).not.toContain('warning:');
  });
});

describe('webhook URLs: secret query values are masked like passwords', () => {
  const SECRET = 'whsec-Query-Token-7788';
  const url = `http://127.0.0.1:9/hook?token=${SECRET}&team=ops&sig=Sig-Value-5566`;

  function env() {
    dir = tempConfigDir();
    return emu.env({ SQ_CONFIG_DIR: dir });
  }

  it('delivery webhook: record, success line and --verbose trace mask it; --show-secrets shows it', async () => {
    emu.expectWrites('POST /v1/delivery');
    const e = env();
    const r = await sqIn(['delivery', 'webhook', '--squid', DEMO_SQUIDS.paris, '--url', url, '--json', '--verbose'], {
      env: e,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(r.stdout + r.stderr).not.toContain('Sig-Value-5566');
    // A webhook's URL in a record: scheme and host, the rest masked (issue 33, E3).
    expect(JSON.parse(r.stdout).webhook_fields.url).toBe('http://127.0.0.1:9/********');
    // The service got the real URL.
    const stored = await emu.api(`/v1/squids/${emu.squidId(DEMO_SQUIDS.paris)}`);
    expect(stored.webhook_fields?.url ?? stored.delivery?.webhook_fields?.url ?? JSON.stringify(stored)).toContain(
      SECRET,
    );

    const shown = await sqIn(
      ['delivery', 'webhook', '--squid', DEMO_SQUIDS.paris, '--url', url, '--json', '--show-secrets'],
      { env: e },
    );
    expect(JSON.parse(shown.stdout).webhook_fields.url).toBe(url);
  });

  it('delivery show (table and JSON) and --dry-run mask it', async () => {
    emu.expectWrites('POST /v1/delivery');
    const e = env();
    expect((await sqIn(['delivery', 'webhook', '--squid', DEMO_SQUIDS.paris, '--url', url], { env: e })).code).toBe(0);
    for (const args of [
      ['delivery', 'show', '--squid', DEMO_SQUIDS.paris],
      ['delivery', 'show', '--squid', DEMO_SQUIDS.paris, '--json'],
      ['delivery', 'webhook', '--squid', DEMO_SQUIDS.paris, '--url', url, '--dry-run'],
      ['delivery', 'test', 'webhook', '--squid', DEMO_SQUIDS.paris, '--dry-run'],
    ]) {
      const r = await sqIn(args, { env: e });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(SECRET);
      // Masked by the webhook rule (host only) in a webhook's record, by the query rule where the URL stands alone.
      expect(r.stdout, args.join(' ')).toMatch(/token=\*{8}|127\.0\.0\.1:9\/\*{8}/);
    }
    const show = await sqIn(['delivery', 'show', '--squid', DEMO_SQUIDS.paris, '--json', '--show-secrets'], { env: e });
    expect(show.stdout).toContain(SECRET);
  });

  it('delivery apply: the plan and the report mask it', async () => {
    emu.expectWrites('POST /v1/delivery');
    const e = env();
    const file = join(dir, 'delivery.yaml');
    writeFileSync(file, `squids:\n  "${DEMO_SQUIDS.paris}":\n    webhook: { url: "${url}", events: [run.done] }\n`);
    for (const extra of [['--dry-run'], ['--json'], []]) {
      const r = await sqIn(['delivery', 'apply', '-f', file, ...extra], { env: e });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr, extra.join(' ')).not.toContain(SECRET);
    }
  });
});
