import { defineVerb } from '../../cli/command.js';
import { getMe } from '../../api/user.js';
import { UsageError } from '../../errors.js';
import { readStdinUpTo } from '../../cli/stdin.js';
import { confirmOrCancel } from '../../cli/confirm.js';
import { CONFIG_FILE } from '../../config/store.js';
import { dryRunLocal } from '../../cli/dry-run.js';

/** Keys are ~40 characters; anything past 4 KiB on stdin is a wrong pipe, not a key. */
const MAX_KEY_BYTES = 4096;

// Where the service's documentation says the key is ("the dashboard API page"; the dashboard lives under
// https://app.lobstr.io/dashboard). Shown before the prompt and in --help.
const WHERE_THE_KEY_IS =
  'Your API key is on the API page of the dashboard (https://app.lobstr.io/dashboard); regenerating it there invalidates the old one.';

export default defineVerb({
  name: 'login',
  writes: true,
  summary: 'Store an API key in a profile after checking it with GET /v1/me',
  description:
    `${WHERE_THE_KEY_IS} ` +
    'Asks for the key with a hidden prompt on a terminal, or reads it from stdin with --with-token. The key is checked ' +
    'against the API (GET /v1/me) before it is saved, with the base URL, in the profile (--profile, SQ_PROFILE, ' +
    'else the active one, else "default"), which becomes the active profile. ' +
    'A corrupt profile file is replaced only after a confirmation (--yes in scripts); the old one is kept next to it ' +
    'as config.json.corrupt-<time>. With --dry-run the key is checked but nothing is stored.',
  options: [{ flags: '--with-token', description: 'read the key from stdin (at most 4 KiB) instead of prompting' }],
  examples: [
    'sq auth login',
    'echo "$LOBSTR_KEY" | sq auth login --with-token',
    'sq auth login --profile staging --base-url http://127.0.0.1:8787',
  ],
  async run(ctx, _args, opts) {
    let token: string;
    if (opts.withToken) {
      const text = await readStdinUpTo(ctx, MAX_KEY_BYTES);
      // Nothing of it is echoed: it may be a key, or a file of secrets piped by mistake.
      if (text === null)
        throw new UsageError('--with-token: the key on stdin is longer than 4 KiB; pipe in only the key');
      token = text.trim();
      if (!token)
        throw new UsageError(
          '--with-token: no key on stdin (pipe it in, e.g. `echo "$KEY" | sq auth login --with-token`)',
        );
    } else {
      if (!ctx.canPrompt()) {
        throw new UsageError(
          'no terminal to prompt on: pipe the key in with --with-token (keys are never accepted as arguments)',
        );
      }
      const p = await ctx.prompter();
      ctx.out.info(WHERE_THE_KEY_IS);
      token = (await p.password('Paste your API key (input is hidden):', { flag: '--with-token' })).trim();
      if (!token) throw new UsageError('no key entered');
    }
    if (/\s/.test(token)) throw new UsageError('the key contains whitespace: paste only the key');
    const { resolveAuth, checkApiKey } = await import('../../config/resolve.js');
    checkApiKey(opts.withToken ? 'the key on stdin (--with-token)' : 'the key entered', token);

    // The key being tried is a secret from here on: scrubbed from any error or trace like a stored one.
    ctx.addSecret(token);
    const store = await ctx.config({ allowCorrupt: true });
    // Asked before the key is checked, so that a refusal (or a missing --yes) sends nothing. The old file is kept.
    if (store.corrupt) {
      ctx.out.warn(`the profile file ${store.file} is corrupt (its content is not shown)`);
      await confirmOrCancel(
        ctx,
        `Replace ${store.file}? The old file is kept as ${CONFIG_FILE}.corrupt-<time>, and only the profile being logged in will be stored.`,
        `cancelled: ${store.file} was left as it is`,
      );
    }
    const auth = resolveAuth(ctx.globals, ctx.env, store);
    const baseUrl = auth.baseUrl;
    const http = await ctx.http({ token });
    const user = await getMe(http);
    const who = typeof user.email === 'string' ? user.email : 'unknown user';
    if (ctx.globals.dryRun) {
      dryRunLocal(
        ctx,
        `store the key of ${who} in profile "${auth.profile}" (${baseUrl}) and make it the active profile`,
      );
    } else {
      await store.save(auth.profile, (current) => ({ ...current, token, base_url: baseUrl, user: who }), true, {
        replaceCorrupt: store.corrupt,
      });
      ctx.out.success(`Logged in as ${who} (profile "${auth.profile}", ${baseUrl})`);
    }
    if (ctx.env.SQ_TOKEN) ctx.out.warn('SQ_TOKEN is set in this environment and overrides the stored key.');
    if (ctx.out.spec.json === 'document') {
      await ctx.out.record({
        profile: auth.profile,
        base_url: baseUrl,
        user: who,
        ...(ctx.globals.dryRun ? { dry_run: true } : {}),
      });
    }
  },
});
