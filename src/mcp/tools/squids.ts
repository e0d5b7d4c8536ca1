// The squids_* tools: list, show, estimate, create, update, attach an account, empty, deactivate, delete.
import { pickFields } from '../../output/fields.js';
import {
  dryRun,
  fieldsOf,
  flags,
  idOutput,
  listInput,
  listOutput,
  listPage,
  objOutput,
  paramFlags,
  paramsArg,
  rec,
  squidArg,
  ToolError,
  type ToolDef,
  verbRec,
} from './kit.js';
import type { Rec } from '../../lib/guards.js';
import { confirmation, estimate } from './spend.js';
import type { Squid } from '../../api/records.js';

export const squidsList: ToolDef = {
  name: 'squids_list',
  title: 'List squids',
  access: 'read',
  description: "The account's squids (a crawler + its settings + its tasks), newest first.",
  input: (z) => ({
    name: z.string().optional().describe('only squids whose name contains this text'),
    ...listInput(z, 'squids'),
  }),
  output: listOutput,
  run: (t, a) => listPage(t, a, 'squids_list', ['squids', 'list', ...flags({ '--name': a.name })], squidRow),
};

export const squidsGet: ToolDef = {
  name: 'squids_get',
  title: 'Show a squid',
  access: 'read',
  description: 'One squid: crawler, params, accounts, delivery, last run. For its results file use results_url.',
  input: (z) => ({
    squid: squidArg(z),
    fields: z.array(z.string().min(1)).optional().describe('keep only these fields'),
  }),
  output: idOutput,
  run: async (t, a) => {
    const s = squidRow(await verbRec(t, ['squids', 'get', '--', String(a.squid)]));
    const f = fieldsOf(a);
    return f ? rec({ id: s.id, ...pickFields(s, f) }) : s;
  },
};

export const squidsEstimate: ToolDef = {
  name: 'squids_estimate',
  title: 'Estimate a run',
  access: 'read',
  description:
    "What the squid's next run will cost before it starts: credits per service (the base scrape, then each paid function " +
    'that is on), total, time range, balance after. Call it before runs_start or go.',
  input: (z) => ({ squid: squidArg(z) }),
  output: (z) => ({ total_credits: z.number().optional() }),
  run: async (t, a) => {
    const est = await estimate(t, String(a.squid));
    if (!est) throw new ToolError(1, 'squids_estimate: this sq has no `sq squids estimate`');
    return est;
  },
};

export const squidsCreate: ToolDef = {
  name: 'squids_create',
  title: 'Create a squid',
  access: 'write',
  description:
    'Create a squid on a crawler, without running it; params sets its squid-level inputs. Then tasks_add, squids_estimate, runs_start.',
  input: (z) => ({
    crawler: z.string().min(1).describe('crawler id, name or slug (crawlers_search)'),
    name: z.string().min(1).max(255).optional(),
    params: paramsArg(z),
    dry_run: dryRun(z),
  }),
  output: idOutput,
  run: async (t, a) => {
    const made = await verbRec(t, ['squids', 'create', ...flags({ '--crawler': a.crawler, '--name': a.name })], {
      write: true,
    });
    if (made.dry_run || !a.params || !Object.keys(a.params as Rec).length) return squidRow(made);
    return squidRow(await verbRec(t, ['squids', 'update', ...paramFlags(a), '--', String(made.id)], { write: true }));
  },
};

export const squidsUpdate: ToolDef = {
  name: 'squids_update',
  title: 'Update a squid',
  access: 'write',
  idempotent: true,
  description:
    "Change a squid's settings, as `sq squids update` does with the same checks: name, concurrency, squid-level params " +
    '(paid functions are params: "functions.NAME": false turns one off), schedule (5-field cron; null removes it) and ' +
    'timezone (IANA), active, linked accounts (add_accounts / remove_accounts keep the others), export_unique_results, ' +
    'run_notify, to_complete, no_line_breaks. A schedule on an active squid (or active: true on a scheduled one) makes ' +
    "the platform start runs, each charged: above the server's --confirm-above (or when a run would charge the card) " +
    "the answer is needs_confirmation with one run's estimate and nothing is written: ask the user, then call again " +
    "with confirm: true; a run above the server's cap (SQ_MAX_CREDITS, max-credits) is refused (exit 9).",
  input: (z) => ({
    squid: squidArg(z),
    name: z.string().min(1).optional(),
    concurrency: z.number().int().min(1).max(20).optional(),
    params: paramsArg(z),
    schedule: z
      .union([z.string().min(1), z.null()])
      .optional()
      .describe('5-field cron, e.g. "0 9 * * 1" (Mondays 09:00); null removes the schedule'),
    timezone: z.string().min(1).optional().describe('IANA zone of the schedule, e.g. Europe/Paris'),
    active: z
      .boolean()
      .optional()
      .describe('false stops the squid from running; true lets it run (a schedule then fires)'),
    add_accounts: z
      .array(z.string().min(1))
      .optional()
      .describe('link these accounts (id, id prefix or username), keeping the linked ones'),
    remove_accounts: z.array(z.string().min(1)).optional().describe('unlink these accounts, keeping the others'),
    export_unique_results: z.boolean().optional().describe('exports keep one row per unique result'),
    run_notify: z.enum(['on_success', 'on_error', 'none']).optional().describe("when a run's end is e-mailed"),
    to_complete: z.boolean().optional().describe('each run continues where the last one stopped'),
    no_line_breaks: z.boolean().optional().describe('strip line breaks from exported cells'),
    confirm: z.boolean().optional().describe('the user accepted the estimate of the runs a schedule starts'),
    dry_run: dryRun(z),
  }),
  output: idOutput,
  run: async (t, a) => {
    const argv = updateFlags(a);
    const ask = t.dryRun || a.dry_run === true ? null : await scheduleConfirmation(t, a);
    if (ask) return ask;
    return squidRow(await verbRec(t, ['squids', 'update', ...argv, '--', String(a.squid)], { write: true }));
  },
};

/** The `sq squids update` flags of squids_update's arguments. */
function updateFlags(a: Rec): string[] {
  const bool = (v: unknown, on: string, off: string) => (v === true ? [on] : v === false ? [off] : []);
  return [
    ...flags({
      '--name': a.name,
      '--concurrency': a.concurrency,
      '--timezone': a.timezone,
      '--run-notify': a.run_notify,
    }),
    ...(typeof a.schedule === 'string' ? [`--schedule=${a.schedule}`] : a.schedule === null ? ['--no-schedule'] : []),
    ...bool(a.active, '--active', '--inactive'),
    ...bool(a.export_unique_results, '--export-unique-results', '--no-export-unique-results'),
    ...bool(a.to_complete, '--to-complete', '--no-to-complete'),
    ...bool(a.no_line_breaks, '--no-line-breaks', '--line-breaks'),
    ...((a.add_accounts as string[] | undefined) ?? []).map((x) => `--add-account=${x}`),
    ...((a.remove_accounts as string[] | undefined) ?? []).map((x) => `--remove-account=${x}`),
    ...paramFlags(a),
  ];
}

/**
 * The money rule of runs_start for what turns a schedule on: the squid read, and when it will be active with a
 * schedule after this call, one run's estimate against --confirm-above (the verb itself applies the cap).
 */
async function scheduleConfirmation(t: Parameters<ToolDef['run']>[0], a: Rec): Promise<Rec | null> {
  if (typeof a.schedule !== 'string' && a.timezone === undefined && a.active !== true) return null;
  const s = await verbRec(t, ['squids', 'get', '--', String(a.squid)]);
  const activeAfter = a.active ?? s.is_active !== false;
  const scheduled =
    typeof a.schedule === 'string' || (s.schedule !== null && s.schedule !== undefined && a.schedule !== null);
  if (activeAfter !== true || !scheduled) return null;
  const ask = await confirmation(t, a, String(s.id), 'squids_update');
  return (
    ask && {
      ...ask,
      message: String(ask.message).replace(
        'nothing was started',
        'the schedule would start runs, each charged; nothing was written',
      ),
    }
  );
}

export const squidsAttachAccount: ToolDef = {
  name: 'squids_attach_account',
  title: 'Attach an account',
  access: 'write',
  idempotent: true,
  description:
    'Link an account to a squid, keeping the ones already linked (the API replaces the whole list: this sends the union).',
  input: (z) => ({
    squid: squidArg(z),
    account: z.string().min(1).describe('account id, id prefix or username'),
    dry_run: dryRun(z),
  }),
  output: idOutput,
  run: async (t, a) => {
    const s = await verbRec(t, ['squids', 'get', '--', String(a.squid)]);
    // The squid's own `accounts` ([{id, status}]) when the API gives it; else each account's `squids`.
    let linked = (Array.isArray(s.accounts) ? s.accounts : []).map((x) =>
      String(typeof x === 'string' ? x : rec(x).id),
    );
    if (!Array.isArray(s.accounts)) {
      const all = (await t.verb(['accounts', 'list', '--all'])).data;
      linked = (Array.isArray(all) ? all : [])
        .filter((x) => (rec(x).squids as Rec[] | undefined)?.some((q) => q.hash_value === s.id || q.id === s.id))
        .map((x) => String(rec(x).id));
    }
    const acc = await verbRec(t, ['accounts', 'get', '--', String(a.account)]);
    const ids = [...new Set([...linked, String(acc.id)])];
    const r = await verbRec(t, ['squids', 'update', ...ids.map((i) => `--account=${i}`), '--', String(s.id)], {
      write: true,
    });
    return r.dry_run ? r : rec({ id: s.id, accounts: r.accounts ?? ids });
  },
};

export const squidsEmpty: ToolDef = {
  name: 'squids_empty',
  title: 'Empty a squid',
  access: 'write',
  destructive: true,
  idempotent: true,
  description:
    'Delete every task of a squid (URL and parameter tasks, or the type given), keeping the squid and its settings.',
  input: (z) => ({
    squid: squidArg(z),
    type: z.enum(['url', 'params']).optional().describe('only this task type (default both)'),
    dry_run: dryRun(z),
  }),
  output: (z) => objOutput(z),
  run: async (t, a) => {
    const out: Rec = {};
    for (const type of a.type ? [String(a.type)] : ['url', 'params'])
      out[type] = (await t.verb(['squids', 'empty', `--type=${type}`, '--', String(a.squid)], { write: true })).data;
    return rec(out);
  },
};

export const squidsDeactivate: ToolDef = {
  name: 'squids_deactivate',
  title: 'Deactivate a squid',
  access: 'write',
  idempotent: true,
  description:
    'Stop a squid from running (a run in progress is stopped; its slot is freed). squids_update with active: true lets it run again.',
  input: (z) => ({ squid: squidArg(z), dry_run: dryRun(z) }),
  output: (z) => objOutput(z),
  run: async (t, a) => {
    const s = await verbRec(t, ['squids', 'get', '--', String(a.squid)]);
    const r = await verbRec(
      t,
      ['api', `--method=POST`, `--field=is_active=false`, '--', `/v1/squids/${String(s.id)}`],
      {
        write: true,
      },
    );
    return r.dry_run ? r : rec({ id: s.id, name: s.name, is_active: r.is_active ?? false });
  },
};

export const squidsDelete: ToolDef = {
  name: 'squids_delete',
  title: 'Delete a squid',
  access: 'all',
  destructive: true,
  idempotent: true,
  description: 'Delete a squid with its tasks and runs.',
  input: (z) => ({ squid: squidArg(z), dry_run: dryRun(z) }),
  output: (z) => objOutput(z),
  run: (t, a) => verbRec(t, ['squids', 'delete', '--', String(a.squid)], { write: true }),
};

/** A squid as an agent needs it: no masked download_url (results_url gives a usable one), nothing empty. */
function squidRow(s: Squid): Rec {
  const { download_url: _url, ...rest } = s;
  return rec(rest);
}
