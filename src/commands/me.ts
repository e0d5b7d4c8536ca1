import { defineVerb } from '../cli/command.js';
import { getMe } from '../api/user.js';

export default defineVerb({
  name: 'me',
  summary: 'Show the current user',
  examples: ['sq me', 'sq me --json', 'sq me --fields email,plan'],
  async run(ctx) {
    const http = await ctx.http();
    const user = await getMe(http);
    await ctx.out.record(user, { title: 'User' });
  },
});
