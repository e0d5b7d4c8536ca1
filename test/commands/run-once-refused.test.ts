// A start the API refused outright (a 400: SquidInactive, RunInProgress) started nothing: the retry under the same
// --idempotency-key starts the user's run, never takes as its own another run created meanwhile (issue 46, item 3).
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const runPosts = async () => (await emu.requests('POST')).filter((r) => r.path === '/v1/runs').length;

describe('runs start --idempotency-key after a definite refusal', () => {
  it('a 400 clears the "starting" mark: the retry starts a run of its own, not the one someone else started', async () => {
    const env = emu.env({ SQ_CACHE_DIR: tempDir('sq-cache-') });
    const squid = emu.squidId(DEMO_SQUIDS.headphones);
    const args = ['runs', 'start', '--squid', squid, '--idempotency-key', 'nightly-1', '--json'];
    const body = {
      error: 'This squid is deactivated; activate it (is_active: true) before starting a run (SquidInactive).',
    };
    await emu.faults([{ method: 'POST', path: '/v1/runs', action: 'status', status: 400, body, count: 1 }]);
    const first = await sq(args, { env });
    expect(first.code, first.stderr).not.toBe(0);
    // Someone else's run of the squid, started (and ended) after the refusal.
    const other = await sq(['runs', 'start', '--squid', squid, '--json'], { env });
    expect(other.code, other.stderr).toBe(0);
    const otherId = JSON.parse(other.stdout).id as string;
    await emu.api(`/v1/runs/${otherId}/abort`, { method: 'POST' }).catch(() => undefined);
    const retry = await sq(args, { env });
    expect(retry.stderr).not.toContain('no new run started');
    expect(retry.code, retry.stderr).toBe(0);
    expect(JSON.parse(retry.stdout).id).not.toBe(otherId);
    expect(await runPosts()).toBe(3);
    // And now the key has its run: once more is that run, no fourth POST.
    const again = await sq(args, { env });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).id).toBe(JSON.parse(retry.stdout).id);
    expect(await runPosts()).toBe(3);
  });
});
