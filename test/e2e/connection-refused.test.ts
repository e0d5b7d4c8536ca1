// A refused connection (nothing listens at the base URL: a wrong SQ_BASE_URL, an emulator not started) must be
// reported at once, saying so and where the base URL came from, not after seconds of silent backoff.
// No timed assertion: the waits sq schedules go through the injected sleep and are counted.
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { run } from '../../src/shell/main.js';
import { sqBin, tempConfigDir } from '../helpers/cli.js';
import { capture } from '../helpers/stream.js';
import { unusedPort } from '../helpers/net.js';

async function inProcess(args: string[], env: Record<string, string>) {
  const stderr = capture();
  const sleeps: number[] = [];
  const code = await run(args, {
    env: { SQ_CONFIG_DIR: tempConfigDir(), SQ_CACHE_DIR: '', ...env },
    io: {
      stdout: new PassThrough(),
      stderr: stderr.stream,
      stdin: new PassThrough(),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      columns: 120,
    },
    signal: new AbortController().signal,
    sleep: async (ms) => void sleeps.push(ms),
  });
  return { code, stderr: stderr.text(), sleeps };
}

it('a refused GET is retried once, quickly, then reported: well under a second of waiting', async () => {
  const port = await unusedPort();
  const r = await inProcess(['squids', 'list'], { SQ_TOKEN: 'k-123456789', SQ_BASE_URL: `http://127.0.0.1:${port}` });
  expect(r.code).toBe(1);
  expect(r.sleeps.length).toBeLessThanOrEqual(1);
  expect(r.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(250);
  expect(r.stderr).toContain(`cannot connect to http://127.0.0.1:${port} (connection refused`);
});

it('a refused POST is not retried into backoff either, and is not reported as a write that may have happened', async () => {
  const port = await unusedPort();
  // --yes: without an estimate (nor the auto-reset settings) a start off a terminal needs it; with it the POST is tried.
  const r = await inProcess(['runs', 'start', '--squid', '0123456789abcdef0123456789abcdef', '--yes'], {
    SQ_TOKEN: 'k-123456789',
    SQ_BASE_URL: `http://127.0.0.1:${port}`,
  });
  expect(r.code).toBe(1);
  // The start's estimate reads (squid, balance, auto-reset, crawler: in parallel) are each retried once, quickly, and
  // side by side; the POST is never retried: at most one short wait per read, none after.
  expect(r.sleeps.length).toBeLessThanOrEqual(4);
  expect(Math.max(0, ...r.sleeps)).toBeLessThanOrEqual(250);
  expect(r.stderr).toContain('the cost of the run could not be estimated');
  expect(r.stderr).toMatch(/connection refused; POST \/v1\/runs was not sent/);
  expect(r.stderr).not.toMatch(/may have reached/);
});

it('a run start that can read neither the estimate nor the auto-reset settings starts nothing without --yes: exit 9', async () => {
  const port = await unusedPort();
  const r = await inProcess(['runs', 'start', '--squid', '0123456789abcdef0123456789abcdef'], {
    SQ_TOKEN: 'k-123456789',
    SQ_BASE_URL: `http://127.0.0.1:${port}`,
  });
  expect(r.code).toBe(9);
  expect(r.stderr).toMatch(
    new RegExp(
      /The cost of the run could not be estimated \(.*connection refused.*\) and whether Auto Billing /.source +
        /Reset is on could not be read either, so it may charge the card; no run was started: pass /.source +
        /--yes to start the run anyway/.source,
    ),
  );
  expect(r.stderr).not.toContain('POST /v1/runs was not sent');
});

it('the built sq says what is wrong, where the base URL came from, and exits 1', async () => {
  const port = await unusedPort();
  const r = await sqBin(['squids', 'list'], {
    env: { SQ_TOKEN: 'k-123456789', SQ_BASE_URL: `http://127.0.0.1:${port}` },
  });
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(
    `error: cannot connect to http://127.0.0.1:${port} (connection refused; GET /v1/squids was not sent): is the service running? ` +
      'For the emulator: `sq emulator start`. The base URL comes from SQ_BASE_URL.',
  );
  const flag = await sqBin(['squids', 'list', '--base-url', `http://127.0.0.1:${port}`], {
    env: { SQ_TOKEN: 'k-123456789' },
  });
  expect(flag.stderr).toContain('The base URL comes from --base-url.');
});
