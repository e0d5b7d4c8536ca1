import { defineVerb } from '../../cli/command.js';
import { resolveSetting, SETTINGS } from '../../config/settings.js';
import { profileOf } from './_shared/profile.js';

export default defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List every setting with its value for the profile, where that value comes from, and what it does',
  description: 'SOURCE is env (the key\'s environment variable), profile (sq config set), default, or unset.',
  examples: ['sq config list', 'sq config list --profile ci --json'],
  async run(ctx) {
    const { store, profile } = await profileOf(ctx);
    const rows = Object.entries(SETTINGS).map(([key, def]) => {
      const r = resolveSetting(key, store.setting(profile, key), ctx.env);
      return { key, value: r.value ?? null, source: r.source, env: def.env ?? null, description: def.description };
    });
    await ctx.out.list(rows, { columns: [{ key: 'key' }, { key: 'value' }, { key: 'source' }, { key: 'env' }, { key: 'description' }] });
  },
});
