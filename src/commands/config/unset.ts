import { defineVerb } from '../../cli/command.js';
import { settingDef } from '../../config/settings.js';
import { KEYS_NOTE, profileOf } from './_shared/profile.js';

export default defineVerb({
  name: 'unset',
  writes: true,
  summary: 'Remove a setting from the profile (back to its default)',
  description: KEYS_NOTE,
  args: ['<key>'],
  examples: ['sq config unset max-credits'],
  async run(ctx, [key]) {
    const def = settingDef(key);
    const { store, profile } = await profileOf(ctx);
    if (ctx.globals.dryRun) {
      ctx.out.info(`dry run: would remove ${key} from profile "${profile}"; nothing was written`);
      return;
    }
    await store.saveSetting(profile, key, undefined);
    ctx.out.success(
      `${key} removed from profile "${profile}"${def.default !== undefined ? ` (the default is ${def.default})` : ''}`,
    );
  },
});
