// A start of a run cut short (the POST's answer lost: it may have started) leaves a "starting" mark; the rerun looks
// among the squid's runs created since for the one it made (src/run/once.ts). A run listed without
// any creation time (the emulator's omit_fields fault drops created_at and started_at) could be that run: the rerun
// then starts none, says why and what to check, and exits 1, never a second POST /v1/runs that might pay twice.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const runPosts = async () => (await emu.requests('POST')).filter((r) => r.path === '/v1/runs').length;

describe('a cut-short start, and runs that carry no creation time', () => {
  for (const [label, args] of [
    [
      'runs start --idempotency-key',
      ['runs', 'start', '--squid', DEMO_SQUIDS.headphones, '--idempotency-key', 'nightly-1'],
    ],
    ['go', ['go', 'amazon-products', 'https://www.amazon.com/s?k=untimed', '--interval', '20ms']],
  ] as const) {
    it(`${label}: the rerun starts none and says why (exit 1)`, async () => {
      const env = emu.env({ SQ_CACHE_DIR: tempDir('sq-cache-') });
      // The gateway answers a redirect after the app took the POST: the run started, its id never reached sq.
      await emu.faults([
        {
          method: 'POST',
          path: '/v1/runs',
          action: 'status',
          status: 307,
          after: true,
          headers: { Location: '/v2/runs' },
          body: {},
          count: 1,
        },
      ]);
      const first = await sq([...args], { env });
      expect(first.code, first.stderr).toBe(1);
      expect(first.stderr).toContain('may have started anyway');
      expect(await runPosts()).toBe(1);
      const squid =
        label === 'go' ? /\(([0-9a-f]+)\) created/.exec(first.stderr)![1] : emu.squidId(DEMO_SQUIDS.headphones);
      expect((await emu.api(`/v1/runs?squid=${squid}`)).data).toHaveLength(label === 'go' ? 1 : 2);

      await emu.faults([
        { method: 'GET', path: '/v1/runs', action: 'omit_fields', fields: ['created_at', 'started_at'] },
      ]);
      const again = await sq([...args], { env });
      expect(again.code, again.stderr).toBe(1);
      expect(again.stderr).toMatch(
        new RegExp(
          `a start of squid ${squid} was cut short, and its runs [0-9a-f, ]+ carry no creation time: ` +
            `sq cannot tell whether one of them is that run, so it starts none`,
        ),
      );
      expect(again.stderr).toContain(`sq runs list --squid ${squid}`);
      expect(await runPosts()).toBe(1);
    });
  }
});
