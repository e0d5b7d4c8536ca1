// stop_after_signal: how long a runaway filter holds sq after SIGTERM (issue 46: "ends within a second of a signal"),
// measured here rather than asserted in a test, where a loaded machine makes any wall-time bound flaky (the tests in
// test/e2e/jq-runaway.test.ts and test/output/template.test.ts assert the exit code and the message; a filter the
// signal never reaches never ends, and fails them on their timeout). Each run starts sq with a filter that never ends
// (--jq on jq's worker thread, --template on the main one), waits until that thread has spun for 0.2 s of CPU, sends
// SIGTERM and times the exit. The baseline is the fastest plain script doing the same job: a CommonJS `node -e`
// busy in a loop, which Node's default SIGTERM action ends at once. Ratio of medians; target: the median stop of
// each ≤ 1,000 ms, printed with the ratio.
import { readFileSync, readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, benchEnv, median } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/sq.js');
const RUNS = Number(process.env.BENCH_RUNS || 9);
const TICK_MS = 10; // USER_HZ 100: /proc's CPU times are in hundredths of a second

/** CPU ms of the busiest thread of `pid` (/proc/PID/task/*\/stat: utime + stime), 0 once it is gone. */
function busiest(pid) {
  try {
    return Math.max(
      ...readdirSync(`/proc/${pid}/task`).map((t) => {
        const f = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8').split(') ')[1].split(' ');
        return (Number(f[11]) + Number(f[12])) * TICK_MS;
      }),
    );
  } catch {
    return 0;
  }
}

/** Starts `node args`, waits until one of its threads has spun 0.2 s, sends SIGTERM: ms from the signal to the exit. */
function stopMs(args, env) {
  return new Promise((done, reject) => {
    const child = spawn(NODE, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    let sent;
    const poll = setInterval(() => {
      if (busiest(child.pid) < 200) return;
      clearInterval(poll);
      sent = process.hrtime.bigint();
      child.kill('SIGTERM');
    }, 20);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      if (sent === undefined) return reject(new Error(`${args.join(' ')} ended before the signal (${code}): ${err}`));
      if (code !== 143 && signal !== 'SIGTERM') return reject(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      done(Number(process.hrtime.bigint() - sent) / 1e6);
    });
  });
}

const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'demo' });
try {
  const env = benchEnv(emu);
  const cases = {
    jq: [bin, 'squids', 'list', '--jq', 'until(false; .)'],
    template: [bin, 'me', '--template', `${'{{range 1000}}'.repeat(13)}${'{{end}}'.repeat(13)}`],
  };
  const baseline = ['-e', 'for (;;);'];
  const times = { jq: [], template: [], baseline: [] };
  for (let i = 0; i < RUNS; i++) {
    times.jq.push(await stopMs(cases.jq, env));
    times.template.push(await stopMs(cases.template, env));
    times.baseline.push(await stopMs(baseline, env));
  }
  const base = median(times.baseline);
  for (const name of ['jq', 'template']) {
    const m = median(times[name]);
    console.log(
      JSON.stringify({
        name: `stop_after_signal_${name}`,
        value: Math.round((m / base) * 100) / 100,
        unit: 'ratio',
        target: 'median_ms <= 1000',
        median_ms: Math.round(m),
        max_ms: Math.round(Math.max(...times[name])),
        baseline_ms: Math.round(base * 10) / 10,
      }),
    );
  }
} finally {
  await emu.close();
}
