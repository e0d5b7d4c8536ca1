import { defineVerb } from '../../cli/command.js';
import { setActive } from './_shared/active.js';

export default defineVerb({
  name: 'deactivate',
  writes: true,
  summary: 'Stop a squid from running: no run starts, its schedule pauses, a running run stops (is_active: false)',
  description:
    'POST /v1/squids/{id} with is_active: false (changelog): the platform refuses new runs of the squid, skips its ' +
    'scheduled ones and stops the one running, freeing its concurrency slot. Tasks, results and settings stay; ' +
    'sq squids activate undoes it. A squid with a run in progress asks first, as `sq runs abort` does (the run is ' +
    'stopped; its results so far are exported and billed): --yes in scripts, exit 2 without it off a terminal.',
  args: ['<squid>'],
  examples: ['sq squids deactivate "Paris restaurants"', 'sq squids deactivate 3fa8 --dry-run'],
  async run(ctx, [ref]) {
    await setActive(ctx, ref, false);
  },
});
