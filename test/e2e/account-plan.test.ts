// sq export / plan / apply as a user runs them (the built bin/sq.js): 10 for drift and the apply that removes it, through
// the launcher and the bundle. The export the plans read and the plans that find no change (exit 0, as every other
// built-binary test shows it) are the CLI's own logic, as is what export writes of a Slack webhook and what plan makes
// of it: sq in-process (sqIn, the binary's result at a few ms of CPU a call instead of ~0.3 s for a process).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sqBin, sqIn } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';

const emu = useEmulator({ each: 'reset' });

describe('sq export | plan | apply (drift and apply: the built binary)', () => {
  it('export → plan exits 0; drift through the API → exit 10 (--detailed-exitcode); apply → plan exits 0 again', async () => {
    emu.expectWrites('POST /v1/squids/*');
    const ex = await sqIn(['export'], { env: emu.env() });
    expect(ex.code, ex.stderr).toBe(0);
    const f = join(tempDir('sq-e2e-account-'), 'sq.yaml');
    writeFileSync(f, ex.stdout);
    expect((await sqIn(['plan', '-f', f], { env: emu.env() })).code).toBe(0);

    await emu.api(`/v1/squids/${emu.squidId('Paris restaurants')}`, { method: 'POST', body: { is_active: false } });
    const drift = await sqBin(['plan', '-f', f, '--detailed-exitcode'], { env: emu.env() });
    expect(drift.code, drift.stderr).toBe(10);
    expect(drift.stdout).toContain('    active: false → true');

    const a = await sqBin(['apply', '-f', f], { env: emu.env() });
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toContain('✓ update squid "Paris restaurants"');
    expect((await sqIn(['plan', '-f', f, '--detailed-exitcode'], { env: emu.env() })).code).toBe(0);
  });

  it(
    "a Slack webhook's path token is exported as a ${…} reference: never in the file; plan compares " +
      'the URL, and the unreadable fields are sent unless assumed unchanged',
    async () => {
      const url = 'https://hooks.slack.com/services/T0AB12CD3/B0EF45GH6/E2ESLACKSECRET';
      const events = { 'run.running': false, 'run.paused': false, 'run.done': true, 'run.error': false };
      await emu.api(`/v1/delivery?squid=${emu.squidId('Paris restaurants')}`, {
        method: 'POST',
        body: { webhook_fields: { url, is_active: true, retry: true, events } },
      });
      const ex = await sqIn(['export'], { env: emu.env() });
      expect(ex.code, ex.stderr).toBe(0);
      expect(ex.stdout + ex.stderr).not.toContain('E2ESLACKSECRET');
      expect(ex.stdout).toContain('https://hooks.slack.com/${SQ_WEBHOOK_PATH_PARIS_RESTAURANTS}');
      const f = join(tempDir('sq-e2e-account-'), 'sq.yaml');
      writeFileSync(f, ex.stdout);
      // The service answers a webhook's url and is_active only: its events are written as a reference too, and sq never
      // applied them here, so they (and retry) are sent: never assumed equal.
      const vars = {
        SQ_WEBHOOK_PATH_PARIS_RESTAURANTS: 'services/T0AB12CD3/B0EF45GH6/E2ESLACKSECRET',
        SQ_WEBHOOK_EVENTS_PARIS_RESTAURANTS: 'run.done',
      };
      const p = await sqIn(['plan', '-f', f, '--detailed-exitcode'], { env: emu.env(vars) });
      expect(p.code, p.stdout + p.stderr).toBe(10);
      expect(p.stdout).toContain('    retry: cannot be read back: will be sent (true)');
      expect(p.stdout).toContain('    events.run.running: cannot be read back: will be sent (false)');
      expect(p.stdout).not.toContain('url');
      expect(p.stdout + p.stderr).not.toContain('E2ESLACKSECRET');
      const assumed = await sqIn(
        ['plan', '-f', f, '--detailed-exitcode', '--assume-unchanged', 'webhook.events,retry'],
        { env: emu.env(vars) },
      );
      expect(assumed.code, assumed.stdout + assumed.stderr).toBe(0);
      expect(assumed.stdout).toContain('    events.run.error: not compared');
    },
  );
});
