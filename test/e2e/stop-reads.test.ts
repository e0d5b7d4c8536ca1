// Every read of stdin or of a user's file can be stopped and is bounded (issue 25, item 8): with stdin open and no
// data coming, or a FIFO nobody writes to, SIGTERM ends sq with exit 143 and SIGINT with 130
// (test/helpers/stop-reads.ts); an endless producer is cut off at the stated cap (exit 2 naming the flag). The built
// binary, as a CI job runs it.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { SLOW } from '../helpers/timeouts.js';
import { BIN, binCacheDir, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';
import { reading, stopReadTests } from '../helpers/stop-reads.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'clear' });
const dir = tempDir('sq-reads-');
const fifo = join(dir, 'in.fifo');
execFileSync('mkfifo', [fifo]);

const PARIS = DEMO_SQUIDS.paris;

// Each read under one signal, SIGTERM and SIGINT in turn (both on stdin, both on a FIFO): the handler is one for both
// signals, and each start of sq costs ~0.25 s of CPU. Every read under both runs in CI, test/system/stop-reads.test.ts.
describe('a stop signal ends a read that waits for data', SLOW, () => {
  stopReadTests(emu, fifo, (read, signal) => (read % 2 === 0) === (signal === 'SIGTERM'));
});

describe('input is capped at 16 MiB', SLOW, () => {
  // Each sq runs under timeout(1), so that a broken read cannot leave it (and `yes`) running after the test.
  const sh = (cmd: string) =>
    execa('sh', ['-c', cmd], {
      env: {
        SQ_CONFIG_DIR: tempConfigDir(),
        SQ_CACHE_DIR: binCacheDir(),
        NO_COLOR: '1',
        PATH: process.env.PATH!,
        ...emu.env(),
      },
      extendEnv: false,
      reject: false,
    });

  it.each([
    [
      'plan -f -',
      `yes 'x: 1' | timeout 90 "${process.execPath}" "${BIN}" plan -f -`,
      '--file: stdin holds more than 16 MiB',
    ],
    [
      'api --input -',
      `yes '1' | timeout 90 "${process.execPath}" "${BIN}" api /v1/me --input -`,
      '--input: stdin holds more than 16 MiB',
    ],
    [
      'api --input FILE over the cap',
      `"${process.execPath}" "${BIN}" api /v1/me --input ${join(dir, 'big.json')}`,
      `--input: "${join(dir, 'big.json')}" holds more than 16 MiB`,
    ],
    [
      '--password-stdin',
      `yes pw | timeout 90 "${process.execPath}" "${BIN}" delivery sftp --squid "${PARIS}" --host h.example --username u --directory /d --password-stdin`,
      '--password-stdin: stdin holds more than 4 KiB',
    ],
  ])('%s: exit 2 naming the flag and the cap, nothing sent', async (_name, cmd, message) => {
    writeFileSync(join(dir, 'big.json'), '');
    truncateSync(join(dir, 'big.json'), 16 * 1024 * 1024 + 1);
    const r = await sh(cmd);
    expect(r.exitCode, String(r.stderr)).toBe(2);
    expect(String(r.stderr)).toContain(message);
    expect(await emu.requests()).toEqual([]);
  });

  it('an input at the cap is read; a directory is refused by name', async () => {
    const at = join(dir, 'at.json');
    writeFileSync(at, `${' '.repeat(16 * 1024 * 1024 - 4)}{}\n`);
    const ok = await sh(`"${process.execPath}" "${BIN}" api /v1/me -X POST --dry-run --input ${at}`);
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
    const d = await sh(`"${process.execPath}" "${BIN}" plan -f ${dir}`);
    expect(d.exitCode).toBe(2);
    expect(String(d.stderr)).toContain(`--file: "${dir}" is a directory`);
  });

  it('a FIFO is read as it is written (process substitution works)', async () => {
    // The writer comes after sq has opened the FIFO (sq waits in that open or read), as `<(…)` under load may.
    const p = execa(process.execPath, [BIN, 'api', '/v1/me', '-X', 'POST', '--dry-run', '--json', '--input', fifo], {
      env: {
        SQ_CONFIG_DIR: tempConfigDir(),
        SQ_CACHE_DIR: binCacheDir(),
        NO_COLOR: '1',
        PATH: process.env.PATH!,
        ...emu.env(),
      },
      extendEnv: false,
      reject: false,
      timeout: 90_000,
    });
    await waitFor(() => reading(p.pid!, fifo), Boolean, 'sq to open the FIFO', 90_000);
    writeFileSync(fifo, '{"via":"fifo"}\n');
    const r = await p;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain('"via"');
  });
});
