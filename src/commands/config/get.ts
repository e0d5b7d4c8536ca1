import { defineVerb } from '../../cli/command.js';
import { resolveSetting, settingDef } from '../../config/settings.js';
import { KEYS_NOTE, profileOf } from './_shared/profile.js';

export default defineVerb({
  name: 'get',
  summary: "Print a setting of the profile (its environment variable, else the profile's value, else the default)",
  description:
    `Prints the value the commands use, or nothing when the key is unset. --json prints {key, ` +
    `value, source}. A value stored in the profile file that the key does not take is exit 2 naming ` +
    `the key, the file and \`sq config unset KEY\` (its value is not shown). ${KEYS_NOTE}`,
  args: ['<key>'],
  examples: ['sq config get max-credits', 'sq config get confirm-above --profile ci --json'],
  async run(ctx, [key]) {
    settingDef(key);
    const { store, profile } = await profileOf(ctx);
    const r = resolveSetting(key, store.setting(profile, key), ctx.env, { profile, file: store.file });
    if (ctx.out.spec.json) {
      await ctx.out.record({ ...r, value: r.value ?? null, profile });
      return;
    }
    if (r.value !== undefined) ctx.out.text(r.value);
  },
});
