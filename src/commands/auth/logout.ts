import { defineVerb } from '../../command.js';
import { profileName } from '../../config/resolve.js';

export default defineVerb({
  name: 'logout',
  summary: 'Remove the stored key of a profile (the profile and its base URL stay)',
  examples: ['sq auth logout', 'sq auth logout --profile staging'],
  async run(ctx) {
    const store = await ctx.config();
    const name = profileName(ctx.globals.profile, ctx.env, store);
    if (await store.forgetKey(name)) ctx.out.success(`Logged out of profile "${name}"`);
    else ctx.out.info(`Profile "${name}" has no stored key.`);
    if (ctx.env.SQ_TOKEN) ctx.out.warn('SQ_TOKEN is still set in this environment: commands keep using it.');
  },
});
