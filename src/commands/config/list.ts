import { defineVerb } from '../../cli/command.js';
import { BadStoredSettingError, resolveSetting, SETTINGS } from '../../config/settings.js';
import { profileOf } from './_shared/profile.js';

export default defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List every setting with its value for the profile, where that value comes from, and what it does',
  description:
    "SOURCE is env (the key's environment variable), profile (sq config set), default, or unset; invalid is a value stored in " +
    'the profile file that the key does not take (the file edited by hand): its value is not shown, a warning on stderr names ' +
    'the fix (`sq config unset KEY`), and the commands that read the key stop with exit 2 until it is fixed.',
  examples: ['sq config list', 'sq config list --profile ci --json'],
  async run(ctx) {
    const { store, profile } = await profileOf(ctx);
    const where = { profile, file: store.file };
    const bad: string[] = [];
    const rows = Object.entries(SETTINGS).map(([key, def]) => {
      let value: string | null = null;
      let source: string;
      try {
        const r = resolveSetting(key, store.setting(profile, key), ctx.env, where);
        value = r.value ?? null;
        source = r.source;
      } catch (err) {
        if (!(err instanceof BadStoredSettingError)) throw err;
        bad.push(err.message);
        source = 'invalid';
      }
      return { key, value, source, env: def.env ?? null, description: def.description };
    });
    await ctx.out.list(rows, {
      columns: [{ key: 'key' }, { key: 'value' }, { key: 'source' }, { key: 'env' }, { key: 'description' }],
    });
    for (const line of bad) ctx.out.warn(line);
  },
});
