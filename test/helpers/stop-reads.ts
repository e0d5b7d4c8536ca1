// Every read of stdin or of a user's file can be stopped (issue 25, item 8): with stdin open and no data coming, or a
// FIFO nobody writes to, SIGTERM ends sq within a second with exit 143 and SIGINT with 130. Shared by
// test/e2e/stop-reads.test.ts (npm test: each read under one of the two signals, in turn) and
// test/system/stop-reads.test.ts (npm run test:system: each read under both).
import { execa } from 'execa';
import { readFileSync, readlinkSync, readdirSync } from 'node:fs';
import { expect, it, onTestFinished } from 'vitest';
import { BIN, binCacheDir, tempConfigDir } from './cli.js';
import type { TestEmulator } from './emulator.js';
import { waitFor } from './wait.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

/** The process has taken its stdin (libuv made fd 0 non-blocking) or has `path` open: it is waiting on that read. */
export function reading(pid: number, from: 'stdin' | string): boolean {
  try {
    if (from === 'stdin')
      return (
        (parseInt(/flags:\s*([0-7]+)/.exec(readFileSync(`/proc/${pid}/fdinfo/0`, 'utf8'))?.[1] ?? '0', 8) & 0o4000) !==
        0
      );
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === from;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

const PARIS = DEMO_SQUIDS.paris;
/** Each read that waits for data: its name, sq's arguments, and what it waits on (stdin or the FIFO `fifo`). */
export const reads = (fifo: string): [string, string[], 'stdin' | string][] => [
  ['plan -f -', ['plan', '-f', '-'], 'stdin'],
  ['apply -f -', ['apply', '-f', '-', '--yes'], 'stdin'],
  ['delivery apply -f -', ['delivery', 'apply', '-f', '-'], 'stdin'],
  ['tasks add --file -', ['tasks', 'add', '--squid', PARIS, '--file', '-'], 'stdin'],
  [
    'delivery sftp --password-stdin',
    [
      'delivery',
      'sftp',
      '--squid',
      PARIS,
      '--host',
      'h.example',
      '--username',
      'u',
      '--directory',
      '/d',
      '--password-stdin',
    ],
    'stdin',
  ],
  ['auth login --with-token', ['auth', 'login', '--with-token'], 'stdin'],
  ['plan -f FIFO', ['plan', '-f', fifo], fifo],
  ['api --input FIFO', ['api', '/v1/me', '-X', 'POST', '--input', fifo], fifo],
  // Issue 33 E7: it read its file with a plain readFile, whose open(2) of a FIFO waits in a thread no signal reaches.
  ['tasks upload FIFO', ['tasks', 'upload', '--squid', PARIS, fifo], fifo],
  ['accounts sync --cookies-file FIFO', ['accounts', 'sync', '--type', 'x', '--cookies-file', fifo], fifo],
];

const SIGNALS = [
  ['SIGTERM', 143],
  ['SIGINT', 130],
] as const;

/**
 * One test for each read and signal that `pick` keeps (the read's index in `reads(fifo)`, the signal): sq waits on
 * that read, the signal ends it with 128 + signal, `interrupted`, and no request.
 */
export function stopReadTests(
  emu: TestEmulator,
  fifo: string,
  pick: (read: number, signal: 'SIGTERM' | 'SIGINT') => boolean,
): void {
  const cases = reads(fifo).flatMap(([name, args, from], i) =>
    SIGNALS.filter(([signal]) => pick(i, signal)).map(([signal, code]) => [name, signal, code, args, from] as const),
  );
  it.each(cases)('%s: %s → exit %i', async (_name, signal, code, args, from) => {
    // stdin is a pipe that stays open and empty, as under a CI runner or `sleep 1000 | sq …`.
    const p = execa(process.execPath, [BIN, ...args], {
      env: { SQ_CONFIG_DIR: tempConfigDir(), SQ_CACHE_DIR: binCacheDir(), NO_COLOR: '1', ...emu.env() },
      extendEnv: false,
      stdin: 'pipe',
      reject: false,
    });
    let exited = false;
    void p.finally(() => (exited = true));
    await waitFor(() => exited || reading(p.pid!, from), Boolean, `sq to wait on ${from}`, 90_000);
    expect(exited, 'sq ended before the signal').toBe(false);
    // A read the signal does not reach never ends: the test's timeout fails it, and this ends the process then.
    onTestFinished(() => void p.kill('SIGKILL'));
    p.kill(signal);
    const r = await p;
    expect([r.exitCode, r.signal ?? null]).toEqual([code, null]);
    expect(String(r.stderr)).toMatch(/^interrupted/m);
    expect(await emu.requests()).toEqual([]);
  });
}
