// The four run events of the spec (webhook subscriptions, the local listener, the emulator): data only, read by both
// sides; checked against the spec's event list by test/unit/shared-tables.test.ts.
export const RUN_EVENTS = ['run.running', 'run.paused', 'run.done', 'run.error'] as const;
export type RunEventName = (typeof RUN_EVENTS)[number];
