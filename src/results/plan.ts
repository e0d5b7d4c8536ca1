// One export of results (`sq results list`, the last step of `sq go`) as data: what was asked is read once and
// checked once, before any request, into a ResultsPlan that is handed down; the engine (engine.ts, whole-pages.ts)
// runs from the plan alone and reads no flag or setting again. A caller that must know its target before it does
// paid work (sq go) makes the target first and hands it to resultsPlan once it knows the run.
import type { Ctx } from '../cli/context.js';
import type { OptionsOf } from '../cli/command.js';
import { pageFilter, pagingFlags, tally, type Paging, type pagingOptions } from '../cli/paging.js';
import type { ResultScope } from '../api/results.js';
import { FORMAT_SPECS, type Format, type OutputSettings } from '../output/types.js';
import { UsageError } from '../errors.js';
import { checkNewOutput } from '../lib/atomic-file.js';
import { nonEmpty } from '../validate/index.js';
import { resumePlan, type ResumePlan } from './resume.js';

/** Where the records go and how they are written. */
export interface ResultsTarget {
  /** -o FILE; undefined: stdout. */
  output: string | undefined;
  format: Format;
  /** The settings the records are rendered with (--fields, --jq, --template, --csv-safe…), `format` among them. */
  settings: OutputSettings;
  /** --force with -o: the finished export may replace an existing FILE. */
  force: boolean;
}

export interface ResultsPlan extends ResultsTarget {
  /** --squid or --run as typed (a name or an id prefix: the engine resolves it, with GETs only). */
  scopeRef: ResultScope;
  /** --task as typed. */
  task: string | undefined;
  paging: Paging;
  /** --jq/--template see one page at a time (--all without --slurp), not the whole list. */
  byPage: boolean;
  /** The checkpoint of a resumable export, and the export it continues (--resume); null when not resumable. */
  resume: ResumePlan | null;
}

export type ResultsFlags = OptionsOf<ReturnType<typeof pagingOptions>> & {
  squid?: string;
  run?: string;
  task?: string;
  output?: string;
  resume?: boolean;
  checkpoint?: string;
  force?: boolean;
};

/** The plan of `sq results list`, from its flags. */
export async function planOfFlags(ctx: Ctx, opts: ResultsFlags, defaultLimit: number): Promise<ResultsPlan> {
  const scopeRef = scopeOf(opts);
  const task = opts.task === undefined ? undefined : nonEmpty('--task', opts.task);
  const paging = pagingFlags(opts, defaultLimit);
  const target = await resultsTarget(ctx, opts.output, opts.force === true, true);
  return resultsPlan(ctx, target, {
    scopeRef,
    task,
    paging,
    resume: opts.resume === true,
    checkpoint: opts.checkpoint,
  });
}

/**
 * -o (- is stdout), its format and --force, checked: the format is --format when `formatFlagApplies` (not for
 * sq go --json, whose --json is its summary), else the file's extension; an existing FILE is refused without --force.
 */
export async function resultsTarget(
  ctx: Ctx,
  outputFlag: string | undefined,
  force: boolean,
  formatFlagApplies: boolean,
): Promise<ResultsTarget> {
  const flagged = outputFlag === undefined ? undefined : nonEmpty('--output', outputFlag);
  const output = flagged === '-' ? undefined : flagged;
  const settings = ctx.outputSettings();
  const format =
    output === undefined
      ? settings.format
      : fileFormat(output, settings.explicitFormat && formatFlagApplies ? settings.format : null);
  if (output !== undefined) await checkNewOutput('-o', output, force);
  // A copy that keeps the settings' getters: the profile's csv-safe is read once the command has read its profile,
  // after this plan is made (sq go makes it before any request); a spread would fix it at false.
  const copy = Object.defineProperties({} as OutputSettings, Object.getOwnPropertyDescriptors(settings));
  copy.format = format;
  return { output, format, settings: copy, force };
}

/** The plan of an export to `target`: the page filter checked and the checkpoint read and matched (resume.ts). */
export async function resultsPlan(
  ctx: Ctx,
  target: ResultsTarget,
  ask: Pick<ResultsPlan, 'scopeRef' | 'task' | 'paging'> & { resume: boolean; checkpoint?: string },
): Promise<ResultsPlan> {
  const { scopeRef, task, paging } = ask;
  const byPage = pageFilter(ctx, paging, tally()).pageOf !== undefined;
  const plan = { ...target, scopeRef, task, paging, byPage };
  return { ...plan, resume: await resumePlan(ctx, plan, ask) };
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

const FILE_FORMATS: Record<string, Format> = {
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  json: 'json',
  ndjson: 'ndjson',
  jsonl: 'ndjson',
};

/** The format of an -o FILE: the one given, else the file's extension (csv for any other). */
function fileFormat(path: string, explicit: Format | null): Format {
  if (explicit && FORMAT_SPECS[explicit].terminal)
    throw new UsageError('--format table is for terminals; with -o use csv, tsv, json or ndjson');
  if (explicit) return explicit;
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  return FILE_FORMATS[ext] ?? 'csv';
}
