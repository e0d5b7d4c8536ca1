// Property: any combination of bad flag values on the delivery and billing verbs exits 2 before a request.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

/** Text that is not an integer in [lo, hi]. */
const outside = (lo: number, hi: number) =>
  fc.oneof(
    fc.integer({ min: -1_000_000, max: lo - 1 }).map(String),
    fc.integer({ min: hi + 1, max: 1_000_000 }).map(String),
    fc
      .double({ min: lo, max: hi, noNaN: true })
      .filter((d) => !Number.isInteger(d))
      .map(String),
    fc.constantFrom('abc', '', ' ', '1e2', '0x10', '50%', 'NaN'),
  );
const badEvents = fc
  .array(fc.constantFrom('run.running', 'run.done', 'run.finished', 'done', 'RUN.DONE', ''), {
    minLength: 1,
    maxLength: 4,
  })
  .filter((l) => l.some((e) => !['run.running', 'run.done'].includes(e)))
  .map((l) => l.join(','));

it('billing auto-reset: bad --threshold / --max-resets', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.option(outside(1, 100), { nil: undefined }),
      fc.option(outside(1, 10), { nil: undefined }),
      fc.constantFrom([], ['--enable'], ['--disable']),
      async (threshold, maxResets, extra) => {
        fc.pre(threshold !== undefined || maxResets !== undefined);
        await emu.clearRequests();
        const args = ['billing', 'auto-reset', ...extra, '--yes'];
        if (threshold !== undefined) args.push(`--threshold=${threshold}`);
        if (maxResets !== undefined) args.push(`--max-resets=${maxResets}`);
        const r = await sq(args, { env: emu.env() });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(
          threshold !== undefined
            ? /--threshold must be an integer from 1 to 100/
            : /--max-resets must be an integer from 1 to 10/,
        );
        expect(await emu.requests()).toEqual([]);
      },
    ),
    { numRuns: 60 },
  );
}, 60_000);

it('delivery sftp / webhook / test: bad --port, --events, --url', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        outside(1, 65535).map((p) => [
          'delivery',
          'sftp',
          '--squid',
          'Paris restaurants',
          '--host',
          'h',
          '--username',
          'u',
          '--directory',
          '/d',
          '--password-env',
          'PW',
          `--port=${p}`,
        ]),
        outside(1, 65535).map((p) => [
          'delivery',
          'test',
          'sftp',
          '--host',
          'h',
          '--username',
          'u',
          '--directory',
          '/d',
          '--password-env',
          'PW',
          `--port=${p}`,
        ]),
        badEvents.map((e) => [
          'delivery',
          'webhook',
          '--squid',
          'Paris restaurants',
          '--url',
          'https://x.example/h',
          `--events=${e}`,
        ]),
        fc
          .constantFrom('ftp://x', 'x', 'http//x', 'mailto:a@b.c', '')
          .map((u) => ['delivery', 'webhook', '--squid', 'Paris restaurants', `--url=${u}`]),
      ),
      async (args) => {
        await emu.clearRequests();
        const r = await sq(args, { env: emu.env({ PW: 'pw-123456' }) });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(await emu.requests()).toEqual([]);
      },
    ),
    { numRuns: 60 },
  );
}, 60_000);
