// One export of results as data: what `results list`'s flags (options.ts) or `sq go` ask for, checked and turned into
// an ExportPlan before any request. The engine (results.ts, whole-pages.ts) runs from the plan alone: it reads no
// flag and no setting of the command again.
import type { Ctx } from '../cli/context.js';
import { pageFilter, tally, type Paging } from '../cli/paging.js';
import type { ResultScope } from '../api/results.js';
import type { Format, OutputSettings } from '../output/types.js';
import { resumePlan, type ResumePlan } from './resume.js';

export interface ExportPlan {
  /** --squid or --run as typed (a name or an id prefix: the engine resolves it, with GETs only). */
  scopeRef: ResultScope;
  /** --task as typed. */
  task: string | undefined;
  paging: Paging;
  /** -o FILE; undefined: stdout. */
  output: string | undefined;
  format: Format;
  /** The settings the records are rendered with (--fields, --jq, --template, --csv-safe…), `format` among them. */
  settings: OutputSettings;
  /** --jq/--template see one page at a time (--all without --slurp), not the whole list. */
  byPage: boolean;
  /** --force with -o: the finished export may replace an existing FILE. */
  force: boolean;
  /** The checkpoint of a resumable export, and the export it continues (--resume); null when not resumable. */
  resume: ResumePlan | null;
}

/** What a caller asks of an export: scope, paging and target already checked; resuming as its flags say. */
type ExportRequest = Pick<ExportPlan, 'scopeRef' | 'task' | 'paging' | 'output' | 'format'> & { resume?: boolean; checkpoint?: string; force?: boolean };

/** The plan of an export: every check made, and the checkpoint read and matched (resume.ts), before any request. */
export async function exportPlan(ctx: Ctx, r: ExportRequest): Promise<ExportPlan> {
  const { scopeRef, task, paging, output, format } = r;
  const byPage = pageFilter(ctx, paging, tally()).pageOf !== undefined;
  const resume = await resumePlan(ctx, r, r);
  return { scopeRef, task, paging, output, format, settings: { ...ctx.outputSettings(), format }, byPage, force: r.force === true, resume };
}
