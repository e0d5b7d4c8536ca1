import { defineVerb } from '../../cli/command.js';
import { setActive } from './_shared/active.js';

export default defineVerb({
  name: 'activate',
  writes: true,
  summary: 'Let a squid run again, on demand and on its schedule (POST /v1/squids/{id} is_active: true)',
  description: 'Undoes sq squids deactivate. Shows the squid afterwards, with its schedule and next run time.',
  args: ['<squid>'],
  examples: ['sq squids activate "Paris restaurants"'],
  async run(ctx, [ref]) {
    await setActive(ctx, ref, true);
  },
});
