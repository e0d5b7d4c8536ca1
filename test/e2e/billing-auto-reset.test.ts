// End to end with the built binary: enabling auto-reset above the threshold fires a reset at once; bad values of
// every validated flag exit 2 without a single request reaching the emulator (the CLI's own checks: in-process, sqIn).
import { expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sqBin, sqIn } from '../helpers/cli.js';

const emu = useEmulator({ each: 'reset' });

it('enable with usage above the threshold: one reset in the window and a window end time', async () => {
  const env = emu.env();
  await emu.control('POST', '/_emulator/usage', { pct: 95 });
  const set = await sqBin(['billing', 'auto-reset', '--enable', '--threshold', '80', '--yes'], { env });
  expect(set.code, set.stderr).toBe(0);
  expect(set.stderr).toMatch(/warning: current usage is 95%/);

  const show = await sqBin(['billing', 'auto-reset', '--json'], { env });
  expect(show.code).toBe(0);
  const s = JSON.parse(show.stdout);
  expect(s).toMatchObject({ enabled: true, threshold_pct: 80, resets_used_in_window: 1 });
  expect(typeof s.window_resets_at).toBe('string');
  expect(Number.isNaN(Date.parse(s.window_resets_at))).toBe(false);
  expect(s.current_usage_pct).toBeLessThan(80);
  const posts = await emu.requests('POST');
  expect(posts).toHaveLength(1);
}, 30_000);

it.each([
  [['billing', 'auto-reset', '--threshold', '0', '--yes'], /--threshold must be an integer from 1 to 100/],
  [['billing', 'auto-reset', '--threshold', '101', '--yes'], /--threshold must be an integer from 1 to 100/],
  [['billing', 'auto-reset', '--max-resets', '11', '--yes'], /--max-resets must be an integer from 1 to 10/],
  [
    [
      'delivery',
      'sftp',
      '--squid',
      'Paris restaurants',
      '--host',
      'h',
      '--port',
      '70000',
      '--username',
      'u',
      '--directory',
      '/d',
      '--password-env',
      'PW',
    ],
    /--port must be an integer from 1 to 65535/,
  ],
  [
    [
      'delivery',
      'webhook',
      '--squid',
      'Paris restaurants',
      '--url',
      'https://x.example/h',
      '--events',
      'run.done,run.exploded',
    ],
    /unknown event "run.exploded"/,
  ],
])(
  '%j exits 2 and no request reaches the emulator',
  async (args, msg) => {
    const r = await sqIn(args, { env: emu.env({ PW: 'some-password' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(await emu.requests()).toEqual([]);
  },
  30_000,
);
