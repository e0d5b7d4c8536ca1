import { defineVerb } from '../../cli/command.js';
import { settingDef } from '../../config/settings.js';
import { KEYS_NOTE, profileOf } from './_shared/profile.js';

export default defineVerb({
  name: 'set',
  writes: true,
  summary: 'Set a setting of the profile (stored in the profile file)',
  description:
    `The value is checked before anything is written (a bad one is exit 2, naming the key and the allowed values). ` +
    `An environment variable of the key (SQ_MAX_CREDITS for max-credits) overrides the stored value. ${KEYS_NOTE}`,
  args: ['<key>', '<value>'],
  examples: ['sq config set max-credits 500', 'sq config set confirm-above 1000 --profile work'],
  async run(ctx, [key, value]) {
    const value_ = settingDef(key).parse(key, value);
    const { store, profile } = await profileOf(ctx);
    if (ctx.globals.dryRun) {
      ctx.out.info(`dry run: would set ${key} to ${value_} in profile "${profile}"; nothing was written`);
      return;
    }
    await store.saveSetting(profile, key, value_);
    ctx.out.success(`${key} set to ${value_} in profile "${profile}"`);
  },
});
