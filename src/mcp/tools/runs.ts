// The runs_* tools and go: list, show, wait, progress, cost, start (it spends credits), abort; go for a whole job.
import {
  dryRun,
  flags,
  idOutput,
  type ToolArgs,
  type ToolEnv,
  listInput,
  listOutput,
  listPage,
  MAX_WAIT_S,
  objOutput,
  paramFlags,
  idempotencyArg,
  paramsArg,
  prefixSquid,
  runArg,
  squidArg,
  str,
  taskArg,
  taskVerb,
  ToolError,
  waitArg,
  waitOf,
  type ToolDef,
  verbRec,
} from './kit.js';
import type { Rec } from '../../lib/guards.js';
import { confirmation, once, runAnswer, runOutput, squidExists, startRun } from './spend.js';

export const runsList: ToolDef = {
  name: 'runs_list',
  title: 'List runs',
  access: 'read',
  description: 'Runs of a squid (paged), or the most recent runs across squids (one page).',
  input: (z) => ({ squid: squidArg(z).optional(), ...listInput(z, 'runs') }),
  output: listOutput,
  run: async (t, a) => {
    if (a.squid !== undefined) return listPage(t, a, 'runs_list', ['runs', 'list', `--squid=${String(a.squid)}`]);
    // Across squids the API has no pages: the most recent runs, one page only; a cursor would give page 1 again.
    if (a.cursor !== undefined)
      throw new ToolError(2, 'runs_list: "cursor" pages the runs of one squid: give "squid" with it');
    const { items } = await listPage(t, { ...a, cursor: undefined }, 'runs_list', ['runs', 'list'], (r) => r, false);
    return { items };
  },
};

export const runsGet: ToolDef = {
  name: 'runs_get',
  title: 'Show a run',
  access: 'read',
  description: 'One run: status, results, credits used, export state.',
  input: (z) => ({ run: runArg(z), squid: prefixSquid(z) }),
  output: (z) => ({ ...idOutput(z), status: z.string().optional() }),
  run: (t, a) => verbRec(t, ['runs', 'get', ...flags({ '--squid': a.squid }), '--', String(a.run)]),
};

export const runsWait: ToolDef = {
  name: 'runs_wait',
  title: 'Wait for a run',
  access: 'read',
  description:
    `Wait until a run is done, at most ${MAX_WAIT_S} s a call (a longer wait_seconds is capped, ` +
    `with a note): past it the answer is the run as it stands with still_running: true; call again.`,
  input: (z) => ({ run: runArg(z), squid: prefixSquid(z), wait_seconds: waitArg(z) }),
  output: runOutput,
  run: async (t, a) => {
    const { seconds, note } = waitOf(a);
    const { code, data } = await t.verb(
      ['runs', 'watch', ...flags({ '--squid': a.squid }), `--timeout=${seconds ?? MAX_WAIT_S}s`, '--', String(a.run)],
      { ok: [6, 7] },
    );
    return { ...runAnswer(data, code), ...(note ? { note } : {}) };
  },
};
export const runsStatsCredits: ToolDef[] = (['stats', 'credits'] as const).map(
  (verb): ToolDef => ({
    name: `runs_${verb}`,
    title: { stats: "A run's progress", credits: 'What a run cost' }[verb],
    access: 'read',
    description: {
      stats: "A run's progress: percent done, tasks done/left, results, ETA.",
      credits: "A run's credits per function, total credits and results, rates.",
    }[verb],
    input: (z) => ({ run: runArg(z), squid: prefixSquid(z) }),
    output: (z) => objOutput(z),
    run: (t, a) => verbRec(t, ['runs', verb, ...flags({ '--squid': a.squid }), '--', String(a.run)]),
  }),
);
export const runsStart: ToolDef = {
  name: 'runs_start',
  title: 'Start a run',
  access: 'write',
  destructive: true,
  description:
    "Start a run of a squid: IT SPENDS CREDITS (paid functions that are on are billed per row). Above the server's " +
    '--confirm-above the answer is needs_confirmation with the estimate: ask the user, then call again with confirm: true. ' +
    `wait_seconds (${MAX_WAIT_S} s at most; more is capped) waits for the end; idempotency_key makes a retry return the same run.`,
  input: (z) => ({
    squid: squidArg(z),
    confirm: z.boolean().optional().describe('the user accepted the estimate'),
    wait_seconds: waitArg(z),
    idempotency_key: idempotencyArg(z, "a retry with the same key returns the first call's run, never a second run"),
    dry_run: dryRun(z),
  }),
  output: runOutput,
  run: (t, a) =>
    once(t, a, 'runs_start', async () => {
      if (t.dryRun) return startRun(t, a, String(a.squid));
      const s = await verbRec(t, ['squids', 'get', '--', String(a.squid)]);
      const ask = await confirmation(t, a, String(s.id), 'runs_start');
      const key = str(a, 'idempotency_key');
      return ask ?? startRun(t, a, String(s.id), key !== undefined && t.keyFile ? `mcp-runs_start:${key}` : undefined);
    }),
};

export const go: ToolDef = {
  name: 'go',
  title: 'Run a crawler on inputs',
  access: 'write',
  destructive: true,
  description:
    'One call for a whole job: creates a squid on the crawler, sets its params (and account), adds the tasks and starts a ' +
    'run. IT SPENDS CREDITS. Above --confirm-above the answer is needs_confirmation (the squid and tasks are made, ' +
    'nothing started): call again with the same idempotency_key and confirm: true. A retry with the same ' +
    (`idempotency_key returns the same squid and run (replace_tasks: true swaps its tasks for these). ` +
      `wait_seconds (${MAX_WAIT_S} s at most; more is capped) waits for the end.`),
  input: (z) => ({
    crawler: z.string().min(1).describe('crawler id, name or slug (crawlers_search)'),
    tasks: z
      .array(taskArg(z))
      .min(1)
      .describe(
        'one task per item: a value (sent as `key`, default url), or an object of one task-input group ' +
          'of crawlers_get, e.g. {"city": "Paris", "country": "France", "category": "pizza"}',
      ),
    key: z.string().optional().describe('task-level input each string value is sent as (default url)'),
    replace_tasks: z
      .boolean()
      .optional()
      .describe(
        'with the idempotency_key of a call that made the squid and started nothing (needs_confirmation): ' +
          'delete its tasks first, so the run scrapes only these (default: keep them)',
      ),
    account: z
      .string()
      .min(1)
      .optional()
      .describe(
        'platform account the squid uses (accounts_list: id, id prefix or username), for crawlers that need one',
      ),
    params: paramsArg(z),
    name: z.string().min(1).max(255).optional().describe('squid name (default: the crawler and the time)'),
    confirm: z.boolean().optional().describe('the user accepted the estimate'),
    wait_seconds: waitArg(z),
    idempotency_key: idempotencyArg(z, 'retries with the same key return the same squid and run'),
    dry_run: dryRun(z),
  }),
  output: (z) => ({ ...runOutput(z), squid: z.string().optional(), idempotency_key: z.string().optional() }),
  run: async (t, a) => {
    const given = str(a, 'idempotency_key');
    const key = given ?? `go-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const made = t.keys.get(`go-squid\u0000${key}`);
    const withKey = { ...a, idempotency_key: key };
    // A key the agent gave outlives this server (the cache directory, as runs start --idempotency-key keeps its
    // runs): the squid under `mcp-go-squid:KEY`, the run under `mcp-go:KEY`.
    const file = given !== undefined && !t.dryRun ? (t.keyFile ?? null) : null;
    return once(t, withKey, 'go', async () => {
      let squid: string;
      if (made) {
        squid = String((await made).id);
        // The squid this key made on an earlier call (nothing started then): its tasks swapped for these.
        if (a.replace_tasks) await fillSquid(t, a, squid, true);
      } else {
        const p = (async () => {
          let kept = file ? await file.get(`mcp-go-squid:${key}`) : null;
          if (kept && file && !(await squidExists(t, kept.squid))) {
            // Deleted since: its runs went with it, so a new squid and run under the key are no second ones.
            await file.forget(`mcp-go-squid:${key}`);
            await file.forget(`mcp-go:${key}`);
            kept = null;
          }
          let s: Rec;
          if (kept) s = { id: kept.squid };
          else {
            const name =
              str(a, 'name') ?? `${String(a.crawler)} ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
            s = await verbRec(t, ['squids', 'create', ...flags({ '--crawler': a.crawler, '--name': name })], {
              write: true,
            });
            if (s.dry_run) return s;
            const at = new Date().toISOString();
            if (file) await file.set(`mcp-go-squid:${key}`, { squid: String(s.id), at, since: at, id: null });
          }
          if (kept?.ready && !a.replace_tasks) return s;
          // Again after a restart that came before they were all sent: params are a replace, and tasks the squid
          // has already are skipped by the API.
          if (a.params && Object.keys(a.params as Rec).length)
            await t.verb(['squids', 'update', ...paramFlags(a), '--', String(s.id)], { write: true });
          await fillSquid(t, a, String(s.id), !!kept && a.replace_tasks === true);
          if (file)
            await file.set(`mcp-go-squid:${key}`, {
              squid: String(s.id),
              at: kept?.at ?? new Date().toISOString(),
              since: kept?.since ?? new Date().toISOString(),
              id: null,
              ready: true,
            });
          return s;
        })();
        if (!t.dryRun) t.keys.set(`go-squid\u0000${key}`, p);
        const s = await p.catch((e: unknown) => {
          t.keys.delete(`go-squid\u0000${key}`);
          throw e;
        });
        if (s.dry_run)
          return {
            dry_run: true,
            steps: [
              'squids create',
              ...(a.params ? ['squids update (params)'] : []),
              ...(a.account ? ['squids update (account)'] : []),
              'tasks add',
              'squids estimate',
              'runs start',
            ],
            first: s,
          };
        squid = String(s.id);
      }
      const ask = await confirmation(t, a, squid, 'go');
      if (ask) return { ...ask, idempotency_key: key };
      return { squid, idempotency_key: key, run: await startRun(t, a, squid, file ? `mcp-go:${key}` : undefined) };
    });
  },
};

/** go's account and tasks on its squid; `replace`: its tasks deleted first, so a run scrapes only these. */
async function fillSquid(t: ToolEnv, a: ToolArgs, squid: string, replace: boolean): Promise<void> {
  if (replace)
    for (const type of ['url', 'params'])
      await t.verb(['squids', 'empty', `--type=${type}`, '--', squid], { write: true });
  if (a.account !== undefined)
    await t.verb(['squids', 'update', `--add-account=${String(a.account)}`, '--', squid], { write: true });
  const add = taskVerb(squid, a.tasks as unknown[], a.key);
  await t.verb(add.argv, { write: true, stdin: add.stdin });
}

export const runsAbort: ToolDef = {
  name: 'runs_abort',
  title: 'Abort a run',
  access: 'write',
  idempotent: true,
  description: 'Stop a running run (credits spent stay spent).',
  input: (z) => ({ run: runArg(z), squid: prefixSquid(z), dry_run: dryRun(z) }),
  output: (z) => objOutput(z),
  run: (t, a) => verbRec(t, ['runs', 'abort', ...flags({ '--squid': a.squid }), '--', String(a.run)], { write: true }),
};
