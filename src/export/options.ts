// `sq results list`'s flags, checked before any request (scope, -o and its format), made an export plan (plan.ts) that
// the engine runs from.
import type { Ctx } from '../cli/context.js';
import { FORMAT_SPECS, type Format } from '../output/types.js';
import type { ResultScope } from '../api/results.js';
import { UsageError } from '../errors.js';
import { checkNewOutput } from '../lib/atomic-file.js';
import { nonEmpty } from '../validate/index.js';
import { pageFilter, pagingFlags, type pagingOptions, tally } from '../cli/paging.js';
import type { OptionsOf } from '../cli/command.js';
import { exportPlan } from './plan.js';
import { runExport } from './results.js';

const FILE_FORMATS: Record<string, Format> = { csv: 'csv', tsv: 'tsv', tab: 'tsv', json: 'json', ndjson: 'ndjson', jsonl: 'ndjson' };

export type ExportOptions = OptionsOf<ReturnType<typeof pagingOptions>> & {
  squid?: string;
  run?: string;
  task?: string;
  output?: string;
  resume?: boolean;
  checkpoint?: string;
  force?: boolean;
};

/** `sq results list`: every flag checked and the checkpoint validated before any request, then the export. */
export async function listResults(ctx: Ctx, opts: ExportOptions, defaultLimit: number): Promise<void> {
  const scopeRef = scopeOf(opts);
  const task = opts.task === undefined ? undefined : nonEmpty('--task', opts.task);
  const paging = pagingFlags(opts, defaultLimit);
  pageFilter(ctx, paging, tally());
  const flagged = opts.output === undefined ? undefined : nonEmpty('--output', opts.output);
  const output = flagged === '-' ? undefined : flagged;
  const settings = ctx.outputSettings();
  const format = output === undefined ? settings.format : fileFormat(output, settings.explicitFormat ? settings.format : null);
  if (output !== undefined) await checkNewOutput('-o', output, opts.force === true);
  await runExport(ctx, await exportPlan(ctx, { scopeRef, task, paging, output, format, resume: opts.resume, checkpoint: opts.checkpoint, force: opts.force }));
}

function scopeOf(opts: { squid?: string; run?: string }): ResultScope {
  const squid = opts.squid;
  const run = opts.run;
  if ((squid === undefined) === (run === undefined)) {
    throw new UsageError(
      squid === undefined
        ? 'pass exactly one of --squid or --run (neither was given)'
        : '--squid and --run cannot be used together: pass exactly one of them',
    );
  }
  return squid !== undefined ? { squid: nonEmpty('--squid', squid) } : { run: nonEmpty('--run', run) };
}

/** The format of an -o FILE: the one given, else the file's extension (csv for any other). */
export function fileFormat(path: string, explicit: Format | null): Format {
  if (explicit && FORMAT_SPECS[explicit].terminal) throw new UsageError('--format table is for terminals; with -o use csv, tsv, json or ndjson');
  if (explicit) return explicit;
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  return FILE_FORMATS[ext] ?? 'csv';
}
