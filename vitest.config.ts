import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import WaitersFirst from './test/setup/sequencer.js';

// npm test leaves nothing on the machine. The run gets one directory under the system's temp dir and TMPDIR points
// into it, for vitest's workers and every process they start with the environment passed on; each test file gets a
// directory of its own inside it (test/setup/cache-dir.ts: its temp files, and the code cache and shared pacing state
// of every sq it runs, so parallel files never share pacing state), removed when the file ends. The global teardown
// (test/setup/temp-dirs.ts) fails the run if anything is left in the run's directory or new in the system's temp
// dir under a name the tests use, then removes it. Tests never write into the machine's ~/.cache.
const workers = Number(process.env.SQ_TEST_WORKERS ?? 4);

const systemTmp = process.env.SQ_TEST_SYSTEM_TMP ?? tmpdir();
process.env.SQ_TEST_SYSTEM_TMP = systemTmp;
const runDir = process.env.SQ_TEST_RUN_DIR ?? mkdtempSync(join(systemTmp, 'sq-test-run-'));
process.env.SQ_TEST_RUN_DIR = runDir;
process.env.TMPDIR = runDir;

// npm test: needs nothing but Node and npm, and changes nothing on the machine. Three suites share this setup:
//  - npm test (this file): every test that runs sq in-process (unit, commands, emulator, output, help, property),
//    with those that run its shells and pages (completion, the README's and docs' blocks, the demo tour);
//  - npm run test:e2e (vitest.e2e.config.ts): test/e2e/, the built bin/sq.js as processes (signals, the launcher and
//    its code caches, pipes, processes racing, the package). A test there costs a process (~0.25 s of CPU under the
//    suite's load) where its point is the process; in npm test they were half the CPU of the run (111 of 236 CPU-s
//    of the files, 2026-12-02), which kept npm test at ~170 s on 2 cores. .ci/run runs them on Node 20, 22 and 24;
//  - npm run test:system (vitest.system.config.ts): what only the system can bring (OpenSSH, tmux, zsh, fish, man,
//    PostgreSQL's server), under test/system/.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/system/**', 'test/e2e/**', '**/node_modules/**'],
    setupFiles: ['test/setup/cache-dir.ts', 'test/setup/env.ts', 'test/setup/cpu-log.ts', 'test/setup/templates.ts'],
    globalSetup: ['test/setup/temp-dirs.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Most tests wait on I/O (loopback HTTP, child processes), so more workers than the 2 cores CI has pay off: on 2
    // idle cores the suite took 83 s with 3 workers, 75 s with 4 and 77 s with 5 (2026-11-26).
    pool: 'forks',
    // The workers run without TurboFan (--no-opt; Ignition and Sparkplug still run): they run a great deal of code a
    // few times each, and optimising it cost more than it saved. perf over a whole run found V8's optimising compiler
    // in ~16% of the workers' samples; with --no-opt, back to back on 2 idle cores, vitest took 235 CPU-s and 126 s
    // against 254 CPU-s and 135 s (2026-12-02). Only the workers: every sq a test starts runs with Node's defaults.
    poolOptions: { forks: { execArgv: ['--no-opt'] } },
    // A worker runs file after file with the modules it already loaded: importing the CLI and the emulator through
    // vite's module runner (~2 s of CPU) is paid once per worker, not once per file (test/commands: 51 s of CPU
    // isolated, 27 s not). Files keep to themselves without it: every emulator, server and temp dir is a file's
    // own (test/helpers/), sq in-process takes its env, clock and streams as arguments, and process.env is put back
    // after each file by a setup hook (test/setup/env.ts).
    isolate: false,
    maxWorkers: workers,
    // As many from the start: with fewer, a worker tinypool retires while files are queued for it fails the run
    // ("Terminating worker thread", vitest 3.2 with isolate: false).
    minWorkers: workers,
    // vitest's runner, with the request log of every test emulator checked after each test (a write sq made that
    // the test did not expect fails it: test/helpers/write-check.ts).
    runner: './test/setup/runner.ts',
    reporters: ['default', './test/setup/summary-reporter.ts'],
    sequence: { sequencer: WaitersFirst },
  },
});
