// sq status has an overall deadline (issue 25, item 11): a /v1/runs that hangs made it wait 154 s on timeouts and
// retries. Now, past --timeout (20 s by default), it exits 7 naming each read that did not answer. The built binary
// against a real emulator whose /v1/runs hangs.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sqBin } from '../helpers/cli.js';

const emu = useEmulator({ each: 'clear' });

describe('sq status deadline', () => {
  it('a hanging /v1/runs: exit 7 after --timeout, naming the reads that did not answer and those that did', async () => {
    await emu.faults([{ method: 'GET', path: '/v1/runs', action: 'delay', ms: 120_000 }]);
    // execa's own limit is far below the 154 s this took, and far above the 2 s asked for.
    const r = await sqBin(['status', '--timeout', '2s'], { env: emu.env(), timeout: 30_000 });
    await emu.clearFaults();
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain(
      'sq status gave up after 2 s (--timeout): no answer from the recent runs (GET /v1/runs)',
    );
    expect(r.stderr).toContain('answered: the user (GET /v1/me), the balance (GET /v1/user/balance)');
  });

  it('the default deadline is stated in --help; --timeout is bounded', async () => {
    const help = await sqBin(['status', '--help']);
    expect(help.stdout).toMatch(
      /--timeout <duration>\s+give up on what has not answered by then, at most 5m\s+\(default: 20s\)/,
    );
    const r = await sqBin(['status', '--timeout', '10m'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--timeout must be a duration like 30s, 10m or 2h of at most 5m');
    expect(await emu.requests()).toEqual([]);
  });

  it('an answering service is shown as before', async () => {
    const r = await sqBin(['status', '--json'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('runs_in_progress');
  });
});
