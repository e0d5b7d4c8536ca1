// Writes whose outcome sq cannot know: Ctrl-C while a write is in flight (exit 130, but saying it may have happened),
// an empty run list after an ambiguous start (proves nothing), a DELETE whose retry finds the object gone (this
// command deleted it), and 5xx statuses that are not retried (reliability.md: only 502/503/504).
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });

describe('retries (reliability.md: GET/HEAD/DELETE on 502/503/504, connection reset, or timeout)', () => {
  it('a DELETE reset mid-answer is retried, and the retry\'s 404 means this command deleted it: exit 0', async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    await emu.faults([{ method: 'DELETE', path: `/v1/squids/${paris}`, action: 'reset_mid_body', count: 1 }]);
    const r = await sq(['squids', 'delete', paris, '--yes', '--json', '-v'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: paris, object: 'squid', deleted: true });
    expect(r.stderr).toContain(`* DELETE ${emu.baseUrl}/v1/squids/${paris}: 404 on a retry: an earlier attempt deleted it`);
    expect((await emu.requests('DELETE')).map((q) => q.status)).toEqual([200, 404]);
  });

  it('a DELETE of an unknown object is still "not found" (exit 3) when no earlier attempt reached the server', async () => {
    const r = await sq(['squids', 'delete', '0'.repeat(32), '--yes'], { env: emu.env() });
    expect(r.code).toBe(3);
  });

  it('a 500 on GET is not retried (it is no passing failure): exit 1 after one request', async () => {
    await emu.faults([{ method: 'GET', path: '/v1/me', action: 'status', status: 500 }]);
    const r = await sq(['me'], { env: emu.env() });
    expect(r.code).toBe(1);
    expect((await emu.requests()).filter((q) => q.path === '/v1/me')).toHaveLength(1);
  });
});
