// The temp-dir teardown of npm test (test/setup/cache-dir.ts, test/setup/temp-dirs.ts): it waits for the processes
// still writing under a file's directory (/proc on Linux; elsewhere, where there is no /proc, the completion
// refreshes' locks), and the run still fails, naming them, on whatever is left.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writersUnder } from '../helpers/proc.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';
import { setup } from '../setup/temp-dirs.js';

describe('the processes still writing under a directory', () => {
  it.runIf(existsSync('/proc/self/environ'))(
    'Linux: a live process whose environment points into it counts, until it ends',
    async () => {
      const dir = tempDir('sq-writers-');
      expect(writersUnder(dir)).toBe(0);
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], {
        env: { SQ_CACHE_DIR: join(dir, 'sq-cache') },
        stdio: 'ignore',
      });
      try {
        await waitFor(
          () => writersUnder(dir),
          (n) => n === 1,
          'the child to be seen',
        );
      } finally {
        child.kill();
      }
      await waitFor(
        () => writersUnder(dir),
        (n) => n === 0,
        'the child to be gone',
      );
    },
  );

  it('without /proc (macOS): a completion refresh still running there, by its lock, until it is removed', () => {
    const dir = tempDir('sq-writers-');
    const noProc = join(dir, 'no-such-proc');
    mkdirSync(join(dir, 'sq-cache', 'complete'), { recursive: true });
    const lock = join(dir, 'sq-cache', 'complete', `squids-${'0'.repeat(32)}.json.refreshing`);
    writeFileSync(lock, '');
    writeFileSync(join(dir, 'sq-cache', 'complete', `squids-${'0'.repeat(32)}.json`), '{}');
    expect(writersUnder(dir, noProc)).toBe(1);
    rmSync(lock);
    expect(writersUnder(dir, noProc)).toBe(0);
    expect(writersUnder(join(dir, 'gone'), noProc)).toBe(0);
  });
});

describe('the global teardown', () => {
  function withRun<T>(fn: (runDir: string, systemTmp: string) => T): T {
    const saved = {
      run: process.env.SQ_TEST_RUN_DIR,
      sys: process.env.SQ_TEST_SYSTEM_TMP,
      shared: process.env.SQ_TEST_SHARED_TMP,
    };
    const systemTmp = tempDir('sq-systmp-');
    const runDir = join(systemTmp, 'sq-test-run-x');
    mkdirSync(runDir);
    process.env.SQ_TEST_RUN_DIR = runDir;
    process.env.SQ_TEST_SYSTEM_TMP = systemTmp;
    delete process.env.SQ_TEST_SHARED_TMP;
    try {
      return fn(runDir, systemTmp);
    } finally {
      for (const [k, v] of [
        ['SQ_TEST_RUN_DIR', saved.run],
        ['SQ_TEST_SYSTEM_TMP', saved.sys],
        ['SQ_TEST_SHARED_TMP', saved.shared],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }

  it('fails naming what was left in the run directory and new in the system temp dir, then removes the run directory', () => {
    withRun((runDir, systemTmp) => {
      const teardown = setup();
      writeFileSync(join(runDir, 'file-left'), 'x');
      mkdirSync(join(systemTmp, 'sq-leftover'));
      expect(() => teardown()).toThrow(
        `npm test left files in the temp directory (each test must remove its own): ${join(runDir, 'file-left')}, ${join(systemTmp, 'sq-leftover')}`,
      );
      expect(existsSync(runDir)).toBe(false);
    });
  });

  it('passes when nothing is left', () => {
    withRun((runDir) => {
      const teardown = setup();
      expect(() => teardown()).not.toThrow();
      expect(existsSync(runDir)).toBe(false);
    });
  });
});
