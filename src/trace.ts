// SQ_TRACE_STARTUP=1: bin/sq.js prints on stderr, as the process exits, how long each phase of the call took (and its
// CPU time); this marks the end of one. Without the variable (or outside the launcher) it does nothing.
const tracer = (globalThis as { __sqTrace?: { mark(phase: string): void } }).__sqTrace;

export function mark(phase: string): void {
  tracer?.mark(phase);
}
