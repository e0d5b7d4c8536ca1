// Found in review: three places where a secret or a file's content reached the output.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq, tempConfigDir } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const HOOK = 'https://hooks.example.com/T000/B000/tokSECRETabc123';

describe('no secret or file content in messages', () => {
  it('a bad setting stored in the profile file is named, never quoted (exit 2)', async () => {
    const cfg = tempConfigDir();
    writeFileSync(
      join(cfg, 'config.json'),
      JSON.stringify({ profiles: { default: { settings: { 'max-credits': 'sk_SECRETxx' } } } }),
      { mode: 0o600 },
    );
    const r = await sq(['runs', 'start', '--squid', DEMO_SQUIDS.paris], { env: emu.env({ SQ_CONFIG_DIR: cfg }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the max-credits setting stored in profile "default" of ');
    expect(r.stderr).toContain('is not valid');
    expect(r.stderr).toContain('sq config unset max-credits');
    expect(r.stderr).not.toContain('sk_SECRETxx');
  });

  it("sq delivery webhook's success line hides a path token on a host without a rule of its own, as its records do", async () => {
    emu.expectWrites('POST /v1/delivery');
    const r = await sq(['delivery', 'webhook', '--squid', DEMO_SQUIDS.paris, '--url', HOOK, '-v'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('tokSECRETabc123');
    expect(r.stderr).toContain('https://hooks.example.com/********');
  });

  it('sq delivery test webhook hides the path token in its trace and its error', async () => {
    emu.expectWrites('POST /v1/delivery/test-webhook');
    await emu.faults([
      { path: '/v1/delivery/test-webhook', action: 'status', status: 400, body: { error: 'did not answer' }, count: 1 },
    ]);
    const r = await sq(['delivery', 'test', 'webhook', '--url', HOOK, '-v'], { env: emu.env() });
    expect(r.stdout + r.stderr).not.toContain('tokSECRETabc123');
  });
});
