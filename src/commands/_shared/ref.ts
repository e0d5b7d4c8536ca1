// <run> and <task> arguments: a full id goes to the API as given; a hex id prefix is looked up first (every squid's
// records, or --squid's), so a write never goes to an id that was only guessed.
import type { OptionSpec } from '../../cli/command.js';
import type { Ctx } from '../../cli/context.js';
import { isIdPrefix, resolveRun, resolveTask } from '../../api/resolve.js';
import { nonEmpty } from '../../validate/index.js';

export const RUN_SQUID_OPTION = {
  flags: '--squid <squid>',
  description: "when <run> is an id prefix, look for it only in this squid's runs (id, id prefix or exact name)",
  defaultText: 'every squid',
  complete: 'squid',
} as const satisfies OptionSpec;

export const TASK_SQUID_OPTION = {
  flags: '--squid <squid>',
  description: "when <task> is an id prefix, look for it only in this squid's tasks (id, id prefix or exact name)",
  defaultText: 'every squid',
  complete: 'squid',
} as const satisfies OptionSpec;

export const PREFIX_NOTE =
  'takes a full id or a unique id prefix (4+ hex characters), looked up in every squid (or --squid); an ambiguous prefix ' +
  'is exit 2 listing the candidates, an unknown one exit 3 with the nearest ids';

/** The full id for a <run>/<task> argument; only a prefix costs requests (lists, never a write). */
export async function idOf(
  ctx: Ctx,
  noun: 'run' | 'task',
  ref: string | undefined,
  opts: { squid?: string },
): Promise<string> {
  const given = nonEmpty(`<${noun}>`, ref);
  const squid = opts.squid === undefined ? undefined : nonEmpty('--squid', opts.squid);
  if (!isIdPrefix(given)) return given;
  const http = await ctx.http();
  const found = await (noun === 'run' ? resolveRun : resolveTask)(http, given, { squid });
  return found.id;
}
