// The option every verb that starts a run takes, apart from the guard that reads it: `sq api` declares it without
// loading the guard (and the estimate and spend modules behind it) on every call, a GET included.
export const MAX_CREDITS_OPTION = {
  flags: '--max-credits <n>',
  description:
    'estimate first and start nothing (exit 9) when the run would cost more than N credits (a ' +
    'number, at least 0); default: SQ_MAX_CREDITS, else `sq config get max-credits`',
} as const;
