// SQ_TRACE_STARTUP=1: bin/sq.js prints on stderr, as the process exits, how long each phase of the call took (and its
// CPU time); this marks the end of one. Without the variable (or outside the launcher) it does nothing. startTrace is
// the launcher's side: esbuild.config.mjs builds this file on its own as dist/trace.cjs, which bin/sq.js requires only
// when SQ_TRACE_STARTUP is set.
import { writeSync } from 'node:fs';

const tracer = (globalThis as { __sqTrace?: { mark(phase: string): void } }).__sqTrace;

export function mark(phase: string): void {
  tracer?.mark(phase);
}

/** SQ_TRACE_STARTUP: marks the end of each phase (ms since the process started, and CPU time), and prints them on
 * stderr at exit. The bundle's phases come through globalThis.__sqTrace. */
export function startTrace(): { mark(phase: string): void } {
  const marks: [string, number, NodeJS.CpuUsage][] = [['node start', process.uptime() * 1000, process.cpuUsage()]];
  const t = {
    mark(phase: string) {
      marks.push([phase, process.uptime() * 1000, process.cpuUsage()]);
    },
  };
  (globalThis as { __sqTrace?: typeof t }).__sqTrace = t;
  process.on('exit', () => {
    let last: [number, NodeJS.CpuUsage] = [0, { user: 0, system: 0 }];
    const lines = marks.map(([phase, ms, cpu]) => {
      const c = (cpu.user + cpu.system - last[1].user - last[1].system) / 1000;
      const line =
        `sq trace: ${phase.padEnd(28)} ${(ms - last[0]).toFixed(1).padStart(7)} ms  at ${ms.toFixed(1).padStart(7)} ` +
        `ms  cpu ${c.toFixed(1).padStart(6)} ms`;
      last = [ms, cpu];
      return line;
    });
    writeSync(2, `${lines.join('\n')}\n`);
  });
  return t;
}
