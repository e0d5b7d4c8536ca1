import { defineVerb } from '../cli/command.js';
import { getBalance } from '../api/user.js';

export default defineVerb({
  name: 'balance',
  summary: 'Show the credit balance (remaining = available - consumed)',
  description:
    'Show the credit balance. The API\'s "available" is the whole allotment of the period (bonus included), not what is left: ' +
    'sq adds "remaining" = available - consumed.',
  examples: ['sq balance', 'sq balance --json', 'sq balance --fields remaining,reset_time'],
  async run(ctx) {
    const http = await ctx.http();
    const b = await getBalance(http);
    const available = typeof b.available === 'number' ? b.available : null;
    const consumed = typeof b.consumed === 'number' ? b.consumed : null;
    const remaining = available !== null && consumed !== null ? round(available - consumed) : null;
    // `remaining` sits next to the numbers it comes from; the API's own fields follow unchanged.
    await ctx.out.record(
      { name: b.name, available: b.available, consumed: b.consumed, remaining, ...b },
      { title: 'Balance' },
    );
  },
});

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
