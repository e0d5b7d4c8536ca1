// `sq doctor`: why does sq not work here? Every piece it depends on, checked at once (src/doctor/checks.ts).
import { defineVerb } from '../cli/command.js';
import { runChecks } from '../doctor/checks.js';
import { checklist } from '../output/checklist.js';

export default defineVerb({
  name: 'doctor',
  summary:
    'Check that sq can work here: key, base URL and TLS, clock, rate budget, file modes, profile, completion, Node.js, updates',
  description:
    'One line per check, ✓ (ok), ! (warning) or ✗ (failed), with the fix under each one that is not ok: key (present, ' +
    'and accepted by GET /v1/me), base_url (reachable, TLS certificate valid, and the API: GET /v1/me without the key ' +
    "answers the API's JSON 401), clock (within 30 s of the server's Date), rate_budget (what is left of each " +
    'documented rate window, from the pacing state sq calls share), permissions (the profile file, which holds the keys, ' +
    '0600 and its directory 0700), profile (the one in use and where it came from: --profile, SQ_PROFILE, the profile ' +
    'file, or the default), completion (installed for $SHELL: bash, zsh or fish), node (the Node.js line is not past ' +
    'its end of life), update (a newer sq on the npm registry; 1 s at most, and no answer is no failure). ' +
    'A check fails (exit 1) only when sq cannot work here: no key, a key refused, a base URL unreachable or not the ' +
    'API, a clock off by more than 30 s, an unusable profile, a Node.js too old to run sq. The others warn (exit 0, ' +
    'the fix printed): completion not installed, a Node.js line past its end of life, a newer sq, a profile file ' +
    'other users can read, a rate window used up. --strict makes warnings fail too (exit 1). ' +
    'With --json: {"checks": [{"name", "ok", "level", "detail", "fix"}]}, level ok, warn or fail (ok is level ok). ' +
    'Nothing is changed: sq doctor only reads.',
  options: [
    {
      flags: '--strict',
      description: 'warnings fail too (exit 1): completion, Node.js end of life, updates, file modes, rate budget',
    },
  ],
  examples: ['sq doctor', 'sq doctor --json', 'sq doctor --profile ci', 'CI=true sq doctor --strict'],
  async run(ctx, _args, opts) {
    const checks = await runChecks(ctx);
    const s = ctx.outputSettings();
    const strict = !!opts.strict;
    if ((s.explicitFormat && !ctx.out.spec.terminal) || s.fields)
      await ctx.out.record({ checks }, { maskSecrets: false });
    else ctx.out.text(checklist(checks, ctx.out.style, strict));
    return checks.some((c) => c.level === 'fail' || (strict && c.level === 'warn')) ? 1 : 0;
  },
});
