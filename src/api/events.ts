// The four run events of the spec: webhook subscriptions, the local listener, and the emulator all use this list.
export const RUN_EVENTS = ['run.running', 'run.paused', 'run.done', 'run.error'] as const;
export type RunEventName = (typeof RUN_EVENTS)[number];
