// The resume plan of an export: --resume, --checkpoint and --force checked, the checkpoint read and matched to the
// command, all before any request; and what a stopped export says about continuing.
import type { Ctx } from '../cli/context.js';
import { FORMAT_SPECS, type Format, type OutputSettings } from '../output/types.js';
import type { ResultScope } from '../api/results.js';
import { UsageError } from '../errors.js';
import { checkOutputTarget } from '../lib/atomic-file.js';
import { count } from '../io/progress.js';
import { nonEmpty } from '../validate/index.js';
import type { Paging } from '../cli/paging.js';
import { MAX_PAGE_SIZE } from '../api/pages.js';
import {
  RESUMABLE_FORMATS,
  exists,
  mismatch,
  readCheckpoint,
  removeCheckpoint,
  savedPagesProblem,
  siblings,
  type Checkpoint,
} from '../io/checkpoint.js';
import { lockExport } from '../lib/lock.js';
import { shellWord } from '../io/shell.js';
import { lstat, open } from 'node:fs/promises';
import { constants } from 'node:fs';
import { resolve } from 'node:path';

import { checkStdoutFile, stdoutFile } from './stdout-checkpoint.js';

export interface ResumePlan {
  /** Where the checkpoint lives; for -o, beside the file, with the partial data. */
  checkpoint: string;
  partial: string | null;
  /** The checkpoint to continue (--resume), or null for a new export. */
  ck: Checkpoint | null;
  /** The command that continues this export, for the hint after a failure. */
  command: string;
  /** What to do when the export cannot be continued. */
  startOver: string;
  /** The checkpoint on disk now (the one resumed, then each one written), for the hint after a failure. */
  saved: Checkpoint | null;
  /** The total seen in this run, for that hint. */
  total: number | null;
  /** --force with -o: the finished export may replace an existing file. */
  force: boolean;
}

/**
 * Flag checks and the checkpoint's validation, all before any request. Null when the export is not resumable
 * (not --all, or a JSON array to a file, or stdout without --checkpoint): then it runs as before.
 */
export async function resumePlan(
  ctx: Ctx,
  o: {
    scopeRef: ResultScope;
    task: string | undefined;
    paging: Paging;
    output: string | undefined;
    format: Format;
    settings: OutputSettings;
    force: boolean;
  },
  opts: { resume: boolean; checkpoint?: string },
): Promise<ResumePlan | null> {
  const resume = opts.resume;
  const ckFlag = opts.checkpoint === undefined ? undefined : nonEmpty('--checkpoint', opts.checkpoint);
  const resumable = checkResumeFlags(o, resume, ckFlag);
  if (!o.paging.all || !resumable || (o.output === undefined && ckFlag === undefined)) return null;

  const where = o.output !== undefined ? siblings(o.output) : { partial: null, checkpoint: resolve(ckFlag!) };
  if (ckFlag !== undefined) await checkOutputTarget('--checkpoint', ckFlag);
  const scopeFlag = 'squid' in o.scopeRef ? '--squid' : '--run';
  const scopeRef = 'squid' in o.scopeRef ? o.scopeRef.squid : o.scopeRef.run;
  const settings = o.settings;
  const words = ['sq', 'results', 'list', scopeFlag, scopeRef, ...(o.task ? ['--task', o.task] : []), '--all'];
  if (o.output === undefined || settings.explicitFormat) words.push('--format', o.format);
  if (settings.fields) words.push('--fields', settings.fields.join(','));
  words.push(...(o.output !== undefined ? ['-o', o.output] : ['--checkpoint', ckFlag!]), '--resume');
  if (o.force && o.output !== undefined) words.push('--force');
  if (ctx.globals.profile) words.push('--profile', ctx.globals.profile);
  if (ctx.globals.baseUrl) words.push('--base-url', ctx.globals.baseUrl);
  const plan: ResumePlan = {
    ...where,
    ck: null,
    saved: null,
    total: null,
    force: o.force,
    command: words.map(shellWord).join(' '),
    startOver: startOverText(where),
  };

  // Before reading anything of the export: what is read next must not be changing under another process's hands.
  await lockExport(where.checkpoint, o.output !== undefined ? `-o ${o.output}` : `--checkpoint ${ckFlag}`, (fn) =>
    ctx.onCleanup(fn),
  );
  const ck = await readCheckpoint(where.checkpoint, plan.startOver);
  const partialThere = where.partial !== null && (await exists(where.partial));
  if (!resume) {
    const refused = leftoverRefusal(where, ck, partialThere, o.output);
    if (refused) throw refused;
    // A checkpoint whose partial file is gone can be continued by nothing (a crash between rename and cleanup).
    if (ck) await removeCheckpoint(where.checkpoint);
    return plan;
  }
  if (!ck)
    throw new UsageError(
      `--resume: there is no interrupted export to continue (no checkpoint "${where.checkpoint}"); run the command without --resume`,
    );
  const differs = mismatch(ck, {
    scopeFlag,
    scopeRef,
    task: o.task ?? null,
    format: o.format,
    fields: settings.fields,
    page_size: MAX_PAGE_SIZE,
    target: o.output === undefined ? null : resolve(o.output),
  });
  if (differs)
    throw new UsageError(`cannot resume: ${differs}; the checkpoint "${where.checkpoint}" belongs to another export`);
  if (where.partial === null) await checkStdoutFile(ctx, ck, where.checkpoint, o.force);
  else await checkPartial(where.partial, ck, plan.startOver);
  return { ...plan, ck, saved: ck };
}

/** The resume flags checked against each other, -o and the format (exit 2); whether the format can be continued. */
function checkResumeFlags(
  o: { paging: Paging; output: string | undefined; force: boolean; format: Format },
  resume: boolean,
  ckFlag: string | undefined,
): boolean {
  const flags = [resume && '--resume', ckFlag !== undefined && '--checkpoint'].filter(Boolean).join(' and ');
  if (flags && !o.paging.all)
    throw new UsageError(
      `${flags} need${flags.includes(' and ') ? '' : 's'} --all: only a whole export is continued page by page`,
    );
  if (ckFlag !== undefined && o.output !== undefined) {
    throw new UsageError(
      '--checkpoint is for exports to stdout; with -o FILE the checkpoint is kept beside the file (.FILE.sq-checkpoint)',
    );
  }
  if (resume && o.output === undefined && ckFlag === undefined) {
    throw new UsageError('--resume needs -o FILE or --checkpoint FILE: the export to continue is found through them');
  }
  if (o.force && o.output === undefined && !(resume && ckFlag !== undefined)) {
    throw new UsageError(
      '--force goes with -o FILE (replace an existing FILE) or with --resume --checkpoint FILE (let the rest of an export to stdout go into an empty file)',
    );
  }
  const resumable = (RESUMABLE_FORMATS as readonly string[]).includes(o.format);
  if (flags && !resumable)
    throw new UsageError(
      `${flags}: the format must be one of ${RESUMABLE_FORMATS.join(', ')} (got ${o.format}); a JSON array cannot be continued`,
    );
  return resumable;
}

/** The partial file sq made must be there, regular, and hold exactly the pages its checkpoint counts. */
async function checkPartial(partial: string, ck: Checkpoint, startOver: string): Promise<void> {
  // lstat: the data is continued only in the regular file sq made, never through a link planted in its place.
  const st = await lstat(partial).catch(() => null);
  const why = !st
    ? 'is missing'
    : !st.isFile()
      ? 'is not a regular file'
      : st.size < ck.bytes
        ? `has ${st.size} bytes, fewer than the ${ck.bytes} its checkpoint counts`
        : null;
  if (why) throw new UsageError(`cannot resume: "${partial}" ${why}; ${startOver}`);
  // Counted before it is trusted: what the checkpoint says must be what the file holds.
  const fh = await open(partial, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  const problem = await savedPagesProblem(fh, ck).finally(() => fh.close());
  if (problem) throw new UsageError(`cannot resume: "${partial}" ${problem}; ${startOver}`);
}

export function resumeHint(ctx: Ctx, plan: ResumePlan, ck: Checkpoint): string {
  const total = plan.total ?? ck.total_results;
  const what = `${count(ck.pages)} whole page${ck.pages === 1 ? '' : 's'} (${count(ck.records)}${total !== null ? ` of ${count(total)}` : ''} records)`;
  if (plan.partial !== null) {
    return `Kept ${what} in "${plan.partial}". To continue from page ${ck.pages + 1}, run:\n  ${plan.command}`;
  }
  const n = ck.bytes;
  // A reader that stops early (| head -c) keeps less than it was given, and what it dropped is not in any file.
  const pipe = stdoutFile(ctx)?.isFile()
    ? ''
    : ` stdout is not a file: if it went into a pipe, the pipe's reader may have lost the last page(s) ` +
      `it was given, and then what you saved is shorter than ${n} bytes and cannot be continued (start over).`;
  return (
    `stdout got ${what}, ${n} bytes; the checkpoint is "${plan.checkpoint}".${pipe} To continue, cut your saved output OUT back to ` +
    `${n} bytes (its last page may be cut mid-write), only if it holds at least that many, and append the rest:\n` +
    `  if [ "$(wc -c < OUT)" -ge ${n} ]; then truncate -s ${n} OUT && ${plan.command} >> OUT; ` +
    `else echo "OUT holds fewer than ${n} bytes: it lost data and cannot be continued; start over" >&2; false; fi`
  );
}

export function startOverText(where: { partial: string | null; checkpoint: string }): string {
  const leftovers = [where.partial, where.checkpoint].filter((p): p is string => p !== null);
  return `to start over, delete ${leftovers.map((p) => `"${p}"`).join(' and ')} and run the command without --resume`;
}

/**
 * A new export (without --resume) finding what an interrupted one left: never reused or overwritten behind the user's
 * back, as it holds pages that took time to read (exit 2 naming it). Null when nothing is in the way.
 */
export function leftoverRefusal(
  where: { partial: string | null; checkpoint: string },
  ck: Checkpoint | null,
  partialThere: boolean,
  output: string | undefined,
): UsageError | null {
  if (ck && (where.partial === null || partialThere)) {
    return new UsageError(
      `an interrupted export is waiting to be continued (${count(ck.pages)} page${ck.pages === 1 ? '' : 's'} ` +
        `in "${where.checkpoint}"): add --resume to continue it; ${startOverText(where).replace(' without --resume', ' again')}`,
    );
  }
  if (partialThere)
    return new UsageError(
      `"${where.partial}" exists (another export of ${output} running, or one that stopped before its first page): delete it if no export is running`,
    );
  return null;
}

/**
 * The refusal a new `--all -o output` export would give for an interrupted one's leftovers, found up front by a
 * command that does paid work before it exports (sq go starts a run): nothing is removed here, outside the export's lock.
 */
export async function refuseInterruptedExport(output: string, format: Format): Promise<void> {
  if (!FORMAT_SPECS[format].resumable) return;
  const where = siblings(output);
  const refused = leftoverRefusal(
    where,
    await readCheckpoint(where.checkpoint, startOverText(where)),
    await exists(where.partial),
    output,
  );
  if (refused) throw refused;
}
