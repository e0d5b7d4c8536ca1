// The account as a whole: whoami, status, and plan/apply of an account document.
import { docFlags, docInput, dryRun, objOutput, rec, verbRecord, type ToolDef, verbRec } from './kit.js';

export const whoami: ToolDef = {
  name: 'whoami',
  title: 'Who am I',
  access: 'read',
  description: 'The user this server acts as: name, e-mail, plan.',
  input: () => ({}),
  output: (z) => objOutput(z),
  run: async (t) => {
    const me = await verbRec(t, ['me']);
    return rec({
      first_name: me.first_name,
      last_name: me.last_name,
      email: me.email,
      plan: me.plan,
      credit_interval: me.credit_interval,
    });
  },
};

export const status: ToolDef = {
  name: 'status',
  title: 'Account status',
  access: 'read',
  description: 'The account at a glance: plan, credits, auto-reset, runs in progress, failures.',
  ...verbRecord(['status']),
};

export const plan: ToolDef = {
  name: 'plan',
  title: 'Plan an account file',
  access: 'read',
  description:
    'What would change to make the account match a document (squids, tasks, delivery, billing); sends nothing.',
  input: docInput,
  output: (z) => ({ summary: z.record(z.string(), z.unknown()).optional() }),
  run: async (t, a) => {
    const d = await docFlags(t, a, 'plan');
    return verbRec(t, ['plan', ...d.argv], { stdin: d.stdin, env: d.env });
  },
};

export const apply: ToolDef = {
  name: 'apply',
  title: 'Apply an account document',
  access: 'write',
  idempotent: true,
  destructive: true,
  description:
    'Make the account match a document (plan first). Deletions (prune) and a billing change that can charge more are ' +
    'refused unless the server runs with --allow-writes=all. ${VAR} secrets only from --secret-env. A document that ' +
    'turns on a schedule or writes a chain that starts runs by itself (autostart) makes the platform start charged ' +
    'runs: without confirm: true the answer is needs_confirmation with what would start runs and nothing is sent; ask ' +
    'the user, then call again with confirm: true.',
  input: (z) => ({
    ...docInput(z),
    dry_run: dryRun(z),
    confirm: z.boolean().optional().describe('the user accepted the runs the document starts'),
  }),
  output: (z) => objOutput(z),
  run: async (t, a) => {
    const d = await docFlags(t, a, 'apply');
    if (a.confirm !== true && !t.dryRun) {
      const planned = await verbRec(t, ['plan', ...d.argv], { stdin: d.stdin, env: d.env });
      const starts = startsRuns(planned);
      if (starts.length) {
        return {
          needs_confirmation: true,
          starts_runs: starts,
          message:
            `the document makes the platform start charged runs (${starts.map((s) => s.what).join('; ')}): ` +
            `nothing was sent. Ask the user; to apply it, call apply with confirm: true`,
        };
      }
    }
    return verbRec(t, ['apply', ...d.argv], { stdin: d.stdin, env: d.env, write: true });
  },
};

/** The items of a plan that make the platform start runs: a schedule turned on, a chain that starts its target's runs. */
function startsRuns(planned: Record<string, unknown>): { squid: unknown; what: string; credits_per_run: unknown }[] {
  const items = Array.isArray(planned.items) ? (planned.items as Record<string, unknown>[]) : [];
  const out: { squid: unknown; what: string; credits_per_run: unknown }[] = [];
  for (const i of items) {
    const run = i.scheduled_run as Record<string, unknown> | null | undefined;
    if (run)
      out.push({
        squid: i.squid,
        what: `squid ${String(i.squid)}: schedule ${String(run.schedule)}, ${run.credits_per_run ?? 'unknown'} credits a run`,
        credits_per_run: run.credits_per_run ?? null,
      });
    if (i.kind === 'chain' && i.action !== 'delete' && chainAutostarts(i))
      out.push({
        squid: i.squid,
        what: `squid ${String(i.squid)}: a chain that starts a run of its target after each done run`,
        credits_per_run: null,
      });
  }
  return out;
}

/** A chain item that leaves autostart on: a new chain (on unless the document says false), or one turning it on. */
function chainAutostarts(i: Record<string, unknown>): boolean {
  const changes = Array.isArray(i.changes) ? (i.changes as Record<string, unknown>[]) : [];
  const auto = changes.find((c) => c.field === 'autostart');
  if (auto) return auto.to !== false;
  return i.action === 'create' || changes.some((c) => c.field === 'target_crawler' || c.field === 'field_map');
}
