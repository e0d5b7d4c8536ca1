// What the config verbs share: the profile they act on (--profile, SQ_PROFILE, else the active one).
import type { Ctx } from '../../../cli/context.js';
import type { ProfileStore } from '../../../config/store.js';
import { profileName } from '../../../config/resolve.js';
import { settingKeys } from '../../../config/settings.js';

export async function profileOf(ctx: Ctx): Promise<{ store: ProfileStore; profile: string }> {
  const store = await ctx.config();
  return { store, profile: profileName(ctx.globals.profile, ctx.env, store) };
}

export const KEYS_NOTE = `Keys: ${settingKeys().join(', ')} (\`sq config list\` shows each with what it does).`;
