// Business-time constants of the runs engine, in one place for the engine, its helpers and tests.
/** Business-time constants of a run (exported for the report and for tests). */
export const RUN_TIMING = {
  /** pending → running */
  startMs: 1_000,
  /** each task, one after another */
  taskMs: 2_000,
  /** uploading → done (export ready) */
  finishMs: 1_000,
  /** paused for an exhausted account limit → resumes (the account's daily counter resets then) */
  pauseMs: 300_000,
  /** paused for lack of credits → checks again */
  creditCheckMs: 60_000,
} as const;
