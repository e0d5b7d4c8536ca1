// The account as a whole: whoami, status, and plan/apply of an account document.
import { docFlags, docInput, dryRun, objOutput, rec, verbRecord, type ToolDef } from './kit.js';

export const whoami: ToolDef = {
  name: 'whoami', title: 'Who am I', access: 'read',
  description: 'The user this server acts as: name, e-mail, plan.',
  input: () => ({}),
  output: (z) => objOutput(z),
  run: async (t) => {
    const me = rec((await t.verb(['me'])).data);
    return rec({ first_name: me.first_name, last_name: me.last_name, email: me.email, plan: me.plan, credit_interval: me.credit_interval });
  },
};

export const status: ToolDef = {
  name: 'status', title: 'Account status', access: 'read',
  description: 'The account at a glance: plan, credits, auto-reset, runs in progress, failures.',
  ...verbRecord(['status']),
};

export const plan: ToolDef = {
  name: 'plan', title: 'Plan an account file', access: 'read',
  description: 'What would change to make the account match a document (squids, tasks, delivery, billing); sends nothing.',
  input: docInput,
  output: (z) => ({ summary: z.record(z.string(), z.unknown()).optional() }),
  run: async (t, a) => {
    const d = await docFlags(t, a, 'plan');
    return rec((await t.verb(['plan', ...d.argv], { stdin: d.stdin, env: d.env })).data);
  },
};

export const apply: ToolDef = {
  name: 'apply', title: 'Apply an account document', access: 'write', idempotent: true, destructive: true,
  description:
    'Make the account match a document (plan first). Deletions (prune) and a billing change that can charge more are ' +
    'refused unless the server runs with --allow-writes=all. ${VAR} secrets only from --secret-env.',
  input: (z) => ({ ...docInput(z), dry_run: dryRun(z) }),
  output: (z) => objOutput(z),
  run: async (t, a) => {
    const d = await docFlags(t, a, 'apply');
    return rec((await t.verb(['apply', ...d.argv], { stdin: d.stdin, env: d.env, write: true })).data);
  },
};
