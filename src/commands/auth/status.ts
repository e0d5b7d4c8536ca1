import { defineVerb } from '../../cli/command.js';
import { getMe } from '../../api/user.js';
import { AuthError, SqError } from '../../errors.js';
import { resolveAuth } from '../../config/resolve.js';
import { maskKey } from '../../lib/secrets.js';

export default defineVerb({
  name: 'status',
  summary: 'Show the profile, base URL, key source, masked key and user; exit 4 when the key is rejected',
  examples: ['sq auth status', 'sq auth status --json', 'SQ_TOKEN=... sq auth status'],
  async run(ctx) {
    const store = await ctx.config();
    const auth = resolveAuth(ctx.globals, ctx.env, store);
    const record: Record<string, unknown> = {
      profile: auth.profile,
      base_url: auth.baseUrl,
      base_url_source: auth.baseUrlSource,
      key_source: auth.tokenSource === 'env' ? 'env (SQ_TOKEN)' : auth.tokenSource,
      key: auth.token ? maskKey(auth.token) : null,
      user: null,
      status: 'no key',
      config_file: store.file,
    };
    let failure: SqError | null = null;
    if (auth.token) {
      try {
        const http = await ctx.http();
        const me = await getMe(http);
        record.user = me.email ?? null;
        record.status = 'valid';
      } catch (err) {
        if (!(err instanceof SqError)) throw err;
        record.status = err instanceof AuthError ? 'rejected' : `unverified: ${err.message}`;
        failure = err;
      }
    } else {
      failure = new AuthError(`not logged in (profile "${auth.profile}"): run \`sq auth login\`, or set SQ_TOKEN`);
    }
    await ctx.out.record(record, { title: 'Authentication', maskSecrets: false });
    if (failure) throw failure;
  },
});
