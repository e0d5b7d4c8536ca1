import { defineVerb } from '../../cli/command.js';
import { setActive } from './_shared/active.js';
import { MAX_CREDITS_OPTION, spendPolicy } from '../../billing/guard.js';

export default defineVerb({
  name: 'activate',
  writes: true,
  summary: 'Let a squid run again, on demand and on its schedule (POST /v1/squids/{id} is_active: true)',
  description:
    'Undoes sq squids deactivate. Shows the squid afterwards, with its schedule and next run time.\n\n' +
    'Spending: a squid with a schedule starts runs on it once active, each one charged. Before the write sq reads the ' +
    'squid and, when activating turns its schedule on, says on stderr the schedule, its next run time and the estimate ' +
    'of one run (POST /v1/squid/estimate; none while the squid has no tasks). With a cap (--max-credits, ' +
    'SQ_MAX_CREDITS or `sq config set max-credits N`) a run estimated above it is exit 9 and nothing is written. On a ' +
    'terminal, a run estimated above `confirm-above` (default 100 credits) or one that would set off an Auto Billing ' +
    'Reset asks y/N first (--yes skips the question; --no-input without --yes is exit 2), and the balance and Auto ' +
    'Billing Reset lines are shown; a script without a cap gets the estimate alone (one request more), with the ' +
    'command that shows the rest (`sq squids estimate`).',
  args: ['<squid>'],
  options: [MAX_CREDITS_OPTION],
  examples: ['sq squids activate "Paris restaurants"', 'sq squids activate "Paris restaurants" --max-credits 200'],
  async run(ctx, [ref], opts) {
    const policy = await spendPolicy(ctx, opts.maxCredits);
    await setActive(ctx, ref, true, policy);
  },
});
