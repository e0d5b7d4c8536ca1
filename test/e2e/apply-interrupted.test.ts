// sq apply and sq delivery apply stopped by a signal (issue 25, item 10) exit as the exit-code table says, 130 for
// SIGINT, 143 for SIGTERM, 129 for SIGHUP (not 8, "some failed"), send nothing more, and still report what was done.
// The built binary against a real emulator that leaves a write unanswered, so that the signal lands mid-way.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { BIN, binCacheDir, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const SIGNALS = [
  ['SIGINT', 130, 'interrupted'],
  ['SIGTERM', 143, 'interrupted (SIGTERM)'],
  ['SIGHUP', 129, 'interrupted (SIGHUP)'],
] as const;

/** Starts sq, sends `signal` once stderr shows `lines` report lines starting with ✓, and returns how it ended. */
async function interrupt(args: string[], signal: string, lines: number) {
  let stderr = '';
  const p = execa(process.execPath, [BIN, ...args], {
    env: { SQ_CONFIG_DIR: tempConfigDir(), SQ_CACHE_DIR: binCacheDir(), NO_COLOR: '1', ...emu.env() },
    extendEnv: false,
    reject: false,
    input: '',
  });
  p.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  let exited = false;
  void p.finally(() => (exited = true));
  await waitFor(
    () => exited || stderr.split('\n').filter((l) => l.startsWith('✓')).length >= lines,
    Boolean,
    `${lines} applied lines`,
    30_000,
  );
  p.kill(signal as NodeJS.Signals);
  const r = await p;
  return { code: r.exitCode, signal: r.signal ?? null, stderr: String(r.stderr) };
}

describe('sq apply interrupted', () => {
  it.each(SIGNALS)(
    '%s: exit %i with the report; the changes not reached are not sent',
    async (signal, code, prefix) => {
      const names = Array.from({ length: 9 }, (_, i) => `Interrupted ${i + 1}`);
      const file = join(tempDir('sq-apply-int-'), 'sq.yaml');
      writeFileSync(
        file,
        `version: 1\nsquids:\n${names.map((n) => `  ${n}:\n    crawler: google-maps-search-export\n`).join('')}`,
      );
      // The first 4 writes go through, the 5th is never answered: the signal lands mid-way however fast the machine is.
      await emu.faults([
        { method: 'POST', path: '/v1/squids', action: 'delay', ms: 1, count: 4 },
        { method: 'POST', path: '/v1/squids', action: 'hang' },
      ]);
      const r = await interrupt(['apply', '-f', file, '--yes'], signal, 4);
      await emu.clearFaults();
      expect([r.code, r.signal], r.stderr).toEqual([code, null]);
      const m = new RegExp(
        `^${prefix.replace(/[()]/g, '\\$&')}: (\\d) of 9 changes applied, (\\d) failed, (\\d) not sent; running it again`,
        'm',
      ).exec(r.stderr);
      expect(m, r.stderr).not.toBeNull();
      const [applied, failed, unsent] = m!.slice(1).map(Number);
      expect(applied).toBeGreaterThanOrEqual(4);
      expect(unsent).toBeGreaterThanOrEqual(1);
      expect(applied + failed + unsent).toBe(9);
      expect(r.stderr).toContain('skipped: squid of "Interrupted 9": not sent: interrupted');
      // Nothing was sent after the signal: at most the write that was in flight then.
      const posts = (await emu.requests('POST')).filter((q) => q.path === '/v1/squids');
      expect(posts.length).toBeLessThanOrEqual(applied + failed);
    },
  );
});

describe('sq delivery apply interrupted', () => {
  it.each(SIGNALS)('%s: exit %i with the report', async (signal, code, prefix) => {
    emu.expectWrites('POST /v1/delivery');
    const squids = [
      DEMO_SQUIDS.paris,
      DEMO_SQUIDS.influencers,
      DEMO_SQUIDS.jobs,
      DEMO_SQUIDS.headphones,
      DEMO_SQUIDS.lyon,
    ];
    const file = join(tempDir('sq-dapply-int-'), 'delivery.yaml');
    writeFileSync(
      file,
      `squids:\n${squids.map((s, i) => `  ${JSON.stringify(s)}:\n    email: { address: ops${i}@example.com }\n`).join('')}`,
    );
    await emu.faults([
      { method: 'POST', path: '/v1/delivery', action: 'delay', ms: 1, count: 2 },
      { method: 'POST', path: '/v1/delivery', action: 'hang' },
    ]);
    const r = await interrupt(['delivery', 'apply', '-f', file], signal, 2);
    await emu.clearFaults();
    expect([r.code, r.signal], r.stderr).toEqual([code, null]);
    const m = new RegExp(
      `^${prefix.replace(/[()]/g, '\\$&')}: (\\d) of 5 changes applied, (\\d) failed, (\\d) not sent; running it again`,
      'm',
    ).exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const [done, failed, unsent] = m!.slice(1).map(Number);
    expect(done).toBeGreaterThanOrEqual(2);
    expect(unsent).toBeGreaterThanOrEqual(1);
    expect(done + failed + unsent).toBe(5);
  });
});
