// results_list (a page of rows) and results_url (the signed URL of a run's whole file).
import {
  DEFAULT_ROWS,
  flags,
  listInput,
  listOutput,
  listPage,
  prefixSquid,
  runArg,
  squidArg,
  ToolError,
  type ToolDef,
  verbRec,
} from './kit.js';

export const resultsList: ToolDef = {
  name: 'results_list',
  title: 'List results',
  access: 'read',
  description:
    `Results of a squid, a run or a task, ${DEFAULT_ROWS} rows a call unless limit says (at most 100); fields keeps only the ` +
    'columns you need; pass next_cursor back as cursor for the next page. For a whole file, results_url.',
  input: (z) => ({
    squid: squidArg(z).optional().describe('results of every run of this squid'),
    run: runArg(z).optional().describe('results of this run only'),
    task: z.string().min(1).optional().describe('only the results of this task (id or id prefix)'),
    ...listInput(z, 'results'),
  }),
  output: listOutput,
  run: (t, a) =>
    listPage(t, a, 'results_list', [
      'results',
      'list',
      ...flags({ '--squid': a.squid, '--run': a.run, '--task': a.task }),
    ]),
};

export const resultsUrl: ToolDef = {
  name: 'results_url',
  title: 'Results download URL',
  access: 'read',
  description:
    "The signed URL of a finished run's results file (CSV), the user's own and short-lived: give it to the user or fetch it. " +
    'The way to hand over a run that has finished: delivery tools apply only to runs that end after they are set.',
  input: (z) => ({ run: runArg(z), squid: prefixSquid(z) }),
  output: (z) => ({ run: z.string(), url: z.string() }),
  run: async (t, a) => {
    const run = await verbRec(t, ['runs', 'get', ...flags({ '--squid': a.squid }), '--', String(a.run)]);
    const id = String(run.id);
    const url = await t.downloadUrl(id);
    if (!url)
      throw new ToolError(
        3,
        `results_url: run ${id} has no export yet (status ${String(run.status ?? 'unknown')}); wait with runs_wait, then ask again`,
      );
    return { run: id, url };
  },
};
