// The answer checks the API modules give http.ts, without loading zod: records.ts (and zod with it) is imported the
// first time an answer is checked, so a command that never reads such an answer never pays for it.
import type { checks as Checks } from './records.js';

type Kind = keyof typeof Checks;

function lazy(kind: Kind): (data: unknown) => Promise<string | null> {
  return async (data) => (await import('./records.js')).checks[kind](data);
}

export const checks: Record<Kind, (data: unknown) => Promise<string | null>> = {
  squid: lazy('squid'),
  task: lazy('task'),
  run: lazy('run'),
  runStats: lazy('runStats'),
  crawler: lazy('crawler'),
  account: lazy('account'),
  user: lazy('user'),
  balance: lazy('balance'),
};
