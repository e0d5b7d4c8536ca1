import { defineVerb } from '../../cli/command.js';
import type { Ctx } from '../../cli/context.js';
import type { Column } from '../../output/types.js';
import { exclusive, optionalInt } from '../../validate/index.js';
import { openWeb, WEB_OPTION } from '../../cli/browser.js';
import { getAutoReset, setAutoReset, type AutoReset, type AutoResetUpdate } from '../../api/billing.js';
import { confirmAutoResetChange, pct } from '../../billing/auto-reset-change.js';
import { getBalance } from '../../api/user.js';
import type { Balance } from '../../api/records.js';
import { autoResetStatusLines } from '../../billing/describe.js';
import { autoResetFacts, balanceFacts } from '../../billing/spend.js';

// Terminal view: each field with what it means. CSV/TSV/JSON keep the raw values.
function humanColumns(s: AutoReset): Column[] {
  return [
    // A field the API left out is said to be unknown: never "no — nothing is charged".
    {
      key: 'enabled',
      header: 'enabled',
      format: (v) =>
        v === true
          ? 'yes — resets fire automatically'
          : v === false
            ? 'no — nothing is charged automatically'
            : 'UNKNOWN — the API did not say; a reset may charge the card',
    },
    {
      key: 'threshold_pct',
      header: 'threshold_pct',
      format: (v) => `${pct(v)} — a reset fires when usage goes above this share of the plan's credits`,
    },
    {
      key: 'max_resets_per_24h',
      header: 'max_resets_per_24h',
      format: (v) =>
        typeof v === 'number'
          ? `${v} — at most ${v} reset${v === 1 ? '' : 's'} in any rolling 24 hours`
          : 'UNKNOWN — the API did not say',
    },
    {
      key: 'resets_used_in_window',
      header: 'resets_used_in_window',
      format: (v) =>
        `${typeof v === 'number' ? v : 'UNKNOWN'} of ${typeof s.max_resets_per_24h === 'number' ? s.max_resets_per_24h : 'UNKNOWN'} ` +
        `used in the current 24-hour window`,
    },
    {
      key: 'window_resets_at',
      header: 'window_resets_at',
      format: (v) =>
        typeof v === 'string'
          ? `${v} — when the rolling 24-hour window frees up`
          : 'none — no reset in the last 24 hours',
    },
    {
      key: 'current_usage_pct',
      header: 'current_usage_pct',
      format: (v) =>
        typeof v === 'number'
          ? `${pct(v)} of the plan's credits (threshold ${pct(s.threshold_pct)}${v > s.threshold_pct ? ', ABOVE it' : ''})`
          : 'n/a — no active subscription',
    },
  ];
}

async function show(ctx: Ctx, s: AutoReset, title: string, balance?: Balance): Promise<void> {
  const table = ctx.out.spec.terminal;
  await ctx.out.record(s, { title, columns: table ? humanColumns(s) : undefined });
  if (!table) return;
  ctx.out.info('Each reset renews the plan at once and charges the card on file; consumed credits return to zero.');
  if (balance) for (const line of autoResetStatusLines(balanceFacts(balance), autoResetFacts(s))) ctx.out.info(line);
}

export default defineVerb({
  name: 'auto-reset',
  writes: true,
  summary:
    'Show or set the automatic billing reset (renews the plan and charges the card when usage crosses a threshold)',
  description:
    'Without flags: shows the settings (GET /v1/plans/auto-reset) and what each field means; on a terminal also the plan ' +
    'allowance and usage now (GET /v1/user/balance), the credits left before the next reset fires and what it charges, ' +
    'and the resets left in the rolling 24 hours.\n\n' +
    'With flags: reads the settings, then writes them (POST /v1/plans/auto-reset). `enabled` stays as it is unless ' +
    "--enable or --disable is given; --threshold (1-100, percent of the plan's credits) and --max-resets (1-10 per " +
    'rolling 24 hours) are checked before any request.\n\n' +
    'Every reset renews the plan at once and charges the card on file. A change that can charge more than before ' +
    '(turning it on, a lower threshold, more resets per day, or usage already above the threshold) asks for ' +
    'confirmation on a terminal; scripts must pass --yes (without a terminal and without --yes nothing is sent, exit 2). ' +
    'When usage is already above the threshold, a warning says that a reset, and a charge, fires at once. ' +
    'Answering "no" sends nothing and exits 1.\n\n' +
    'The POST is never retried: if it fails in a way that leaves the outcome unknown (Ctrl-C while it is in flight ' +
    'included, exit 130), the error says so; check with ' +
    '`sq billing auto-reset` before trying again. --json prints exactly the API object. --web opens the billing page ' +
    'of the dashboard instead (alone: not with the flags that change the settings).',
  options: [
    { flags: '--enable', description: 'turn automatic resets on (asks for confirmation; --yes in scripts)' },
    { flags: '--disable', description: 'turn automatic resets off' },
    { flags: '--threshold <pct>', description: 'usage percentage that triggers a reset (integer 1-100)' },
    { flags: '--max-resets <n>', description: 'maximum resets in any rolling 24 hours (integer 1-10)' },
    WEB_OPTION,
  ],
  examples: [
    'sq billing auto-reset',
    'sq billing auto-reset --enable --threshold 80 --max-resets 2',
    'sq billing auto-reset --enable --threshold 90 --yes --json',
    'sq billing auto-reset --disable',
    'sq billing auto-reset --threshold 95 --dry-run',
    'sq billing auto-reset --web',
  ],
  async run(ctx, _args, opts) {
    exclusive(opts, [
      ['--enable', '--disable'],
      ['--web', '--enable'],
      ['--web', '--disable'],
      ['--web', '--threshold'],
      ['--web', '--max-resets'],
    ]);
    if (opts.web) return void (await openWeb(ctx, { kind: 'billing' }));
    const threshold = optionalInt('--threshold', opts.threshold, 1, 100);
    const maxResets = optionalInt('--max-resets', opts.maxResets, 1, 10);
    const http = await ctx.http();
    const changing = opts.enable || opts.disable || threshold !== undefined || maxResets !== undefined;
    if (!changing) {
      // On a terminal, the balance beside the settings: allowance, usage, credits before the next reset, resets left.
      const [settings, balance] = await Promise.all([
        getAutoReset(http),
        ctx.out.spec.terminal ? getBalance(http) : undefined,
      ]);
      await show(ctx, settings, 'Automatic billing reset', balance);
      return;
    }
    const before = await getAutoReset(http);

    const body: AutoResetUpdate = { enabled: opts.enable ? true : opts.disable ? false : before.enabled === true };
    if (threshold !== undefined) body.threshold_pct = threshold;
    if (maxResets !== undefined) body.max_resets_per_24h = maxResets;
    const after = {
      enabled: body.enabled,
      threshold_pct: threshold ?? before.threshold_pct,
      max_resets_per_24h: maxResets ?? before.max_resets_per_24h,
    };
    const what = before.enabled ? 'Update automatic billing reset' : 'Enable automatic billing reset';
    await confirmAutoResetChange(ctx, before, after, {
      question: (firesNow) =>
        `${what} (threshold ${after.threshold_pct}%, up to ${after.max_resets_per_24h} per 24 h)? ` +
        `Each reset charges the card on file${firesNow ? ', and one fires now' : ''}.`,
    });

    const saved = await setAutoReset(http, body);
    const resetsBefore = typeof before.resets_used_in_window === 'number' ? before.resets_used_in_window : 0;
    await show(ctx, saved, 'Automatic billing reset (saved)');
    ctx.out.success(
      saved.enabled ? `Automatic billing reset is on at ${pct(saved.threshold_pct)}` : 'Automatic billing reset is off',
    );
    if (typeof saved.resets_used_in_window === 'number' && saved.resets_used_in_window > resetsBefore) {
      ctx.out.warn('a reset fired just now: the plan renewed and the card on file was charged.');
    }
  },
});
