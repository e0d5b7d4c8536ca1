// `sq doctor`: why does sq not work here? Every piece it depends on, checked at once (src/doctor/checks.ts).
import { defineVerb } from '../cli/command.js';
import { runChecks } from '../doctor/checks.js';
import { checklist } from '../output/checklist.js';

export default defineVerb({
  name: 'doctor',
  summary: 'Check that sq can work here: key, base URL and TLS, clock, rate budget, file modes, profile, completion, Node.js, updates',
  description:
    'One line per check, ✓ or ✗, with the fix under a failed one: key (present, and accepted by GET /v1/me), base_url ' +
    '(reachable, TLS certificate valid), clock (within 30 s of the server\'s Date), rate_budget (what is left of each ' +
    'documented rate window, from the pacing state sq calls share), permissions (the profile file, which holds the keys, ' +
    '0600 and its directory 0700), profile (the one in use and where it came from: --profile, SQ_PROFILE, the profile ' +
    'file, or the default), completion (installed for $SHELL: bash, zsh or fish), node (the Node.js line is not past ' +
    'its end of life), update (a newer sq on the npm registry; 1 s at most, and no answer is no failure). ' +
    'With --json: {"checks": [{"name", "ok", "detail", "fix"}]}. Exit 0 when every check passes, 1 otherwise. ' +
    'Nothing is changed: sq doctor only reads.',
  examples: ['sq doctor', 'sq doctor --json', 'sq doctor --profile ci'],
  async run(ctx) {
    const checks = await runChecks(ctx);
    const s = ctx.outputSettings();
    if ((s.explicitFormat && !ctx.out.spec.terminal) || s.fields) await ctx.out.record({ checks }, { maskSecrets: false });
    else ctx.out.text(checklist(checks, ctx.out.style));
    return checks.every((c) => c.ok) ? 0 : 1;
  },
});
