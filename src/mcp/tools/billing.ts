// balance and the automatic billing reset (read, and set: each reset charges the card on file).
import { dryRun, flags, objOutput, verbRecord, type ToolDef, verbRec } from './kit.js';

export const balance: ToolDef = {
  name: 'balance',
  title: 'Credit balance',
  access: 'read',
  description: 'The credit balance; remaining = available - consumed.',
  ...verbRecord(['balance']),
};

export const billingAutoResetGet: ToolDef = {
  name: 'billing_auto_reset_get',
  title: 'Automatic billing reset',
  access: 'read',
  description: 'The automatic billing reset settings and window (each reset charges the card on file).',
  ...verbRecord(['billing', 'auto-reset']),
};

export const billingAutoResetSet: ToolDef = {
  name: 'billing_auto_reset_set',
  title: 'Set the automatic billing reset',
  access: 'all',
  destructive: true,
  idempotent: true,
  description:
    'Turn the automatic billing reset on or off, or change its threshold and daily maximum; each reset charges the card on file.',
  input: (z) => ({
    enabled: z.boolean().optional().describe('true turns resets on, false off'),
    threshold: z.number().int().min(1).max(100).optional().describe('usage percentage that triggers a reset'),
    max_resets: z.number().int().min(1).max(10).optional().describe('most resets in any rolling 24 hours'),
    dry_run: dryRun(z),
  }),
  output: (z) => objOutput(z),
  run: (t, a) =>
    verbRec(
      t,
      [
        'billing',
        'auto-reset',
        ...(a.enabled === true ? ['--enable'] : a.enabled === false ? ['--disable'] : []),
        ...flags({ '--threshold': a.threshold, '--max-resets': a.max_resets }),
      ],
      { write: true },
    ),
};
